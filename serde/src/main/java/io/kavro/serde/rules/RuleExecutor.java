package io.kavro.serde.rules;

import java.util.Map;

/**
 * Runs the rules of one type ({@code CEL}, {@code ENCRYPT}, ...): the plug-in point of data contracts. Executors
 * on the class path are found by {@link java.util.ServiceLoader} ({@code META-INF/services/io.kavro.serde.rules.RuleExecutor},
 * as {@code kavro-rules} declares its own) when {@code rule.service.loader.enable} is true (the default), or named
 * by {@code rule.executors} and {@code rule.executors.<name>.class}.
 *
 * <p>The serde configures each executor once, then prepares each rule once per schema version and phase, at the
 * time it plans a route; the prepared rule then runs per record. So an executor compiles its expression in
 * {@link #prepare}, never per record. Implementations are thread-safe: one serde is shared by threads.
 */
public interface RuleExecutor extends AutoCloseable {
  /** The rule type this executor runs, upper case, as the rules name it in {@code type}. */
  String type();

  /**
   * Configures the executor, once, before any rule is prepared.
   *
   * @param configs the serde's settings, with {@code rule.executors._default_.param.*}, then
   *     {@code rule.executors._<TYPE>_.param.*}, then {@code rule.executors.<name>.param.*} laid over them, each
   *     without its prefix
   */
  default void configure(Map<String, ?> configs) {}

  /**
   * Prepares one rule for one schema version and phase: parses and compiles what it can.
   *
   * @throws RuleException when the rule cannot run (its expression does not compile, a parameter is missing):
   *     the serde refuses the schema and names the rule
   */
  PreparedRule prepare(RuleTarget target);

  /** Releases what the executor holds; the serde calls it on close. */
  @Override
  default void close() {}
}
