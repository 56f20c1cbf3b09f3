package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRulesException;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleAction;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleExecutor;
import io.kavro.serde.rules.RuleTarget;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The serde's rule executors and actions, made and configured once by {@code configure()}, and what prepares a
 * schema version's rules into {@link RulePlan}s when a route is planned. Thread-safe.
 */
final class RuleEngine implements AutoCloseable {
  /** The artifact that brings Confluent's rule types. */
  static final String RULES_ARTIFACT = "io.kavro:kavro-rules";

  private final RuleSettings settings;
  private final SchemaRegistryClient client;
  /** The executor of each type, by type. */
  private final Map<String, RuleExecutor> byType = new HashMap<>();
  /** Executors given a name of their own by {@code rule.executors}: used for the rule of that name. */
  private final Map<String, RuleExecutor> byName = new HashMap<>();
  private final Map<String, RuleAction> actions = new HashMap<>();
  private final List<AutoCloseable> owned = new ArrayList<>();
  /** Warns, once per rule, when this serde passes over an encryption rule. */
  private final EncryptionBypassLog bypasses = new EncryptionBypassLog();
  /** Where rules are counted, or null when they are not. */
  private final RuleMetrics metrics;

  /**
   * @param metrics where rules are counted, or null; with {@code rule.metrics.enable=false} nothing is counted either
   */
  RuleEngine(RuleSettings settings, SchemaRegistryClient client, RuleMetrics metrics) {
    this.settings = settings;
    this.client = client;
    this.metrics = settings.metrics() ? metrics : null;
    actions.put("NONE", BuiltInActions.NONE);
    actions.put("ERROR", BuiltInActions.ERROR);
    if (settings.ignore()) {
      return;
    }
    for (String name : settings.executorNames()) {
      RuleExecutor executor = instantiate(RuleSettings.EXECUTORS, name, RuleExecutor.class);
      String type = executor.type().toUpperCase(Locale.ROOT);
      executor.configure(settings.pluginConfigs(RuleSettings.EXECUTORS, type, name));
      byName.put(name, executor);
      byType.putIfAbsent(type, executor);
    }
    for (String name : settings.actionNames()) {
      RuleAction action = instantiate(RuleSettings.ACTIONS, name, RuleAction.class);
      String type = action.type().toUpperCase(Locale.ROOT);
      action.configure(settings.pluginConfigs(RuleSettings.ACTIONS, type, name));
      actions.put(name.toUpperCase(Locale.ROOT), action);
      actions.putIfAbsent(type, action);
    }
    if (settings.serviceLoader()) {
      ClassLoader loader = RuleEngine.class.getClassLoader();
      for (RuleExecutor executor : ServiceLoader.load(RuleExecutor.class, loader)) {
        String type = executor.type().toUpperCase(Locale.ROOT);
        if (!byType.containsKey(type)) {
          executor.configure(settings.pluginConfigs(RuleSettings.EXECUTORS, type, RuleSettings.DEFAULT));
          byType.put(type, executor);
          owned.add(executor);
        }
      }
      for (RuleAction action : ServiceLoader.load(RuleAction.class, loader)) {
        String type = action.type().toUpperCase(Locale.ROOT);
        if (!actions.containsKey(type)) {
          action.configure(settings.pluginConfigs(RuleSettings.ACTIONS, type, RuleSettings.DEFAULT));
          actions.put(type, action);
          owned.add(action);
        }
      }
    }
  }

  private <T extends AutoCloseable> T instantiate(String group, String name, Class<T> kind) {
    String key = group + "." + name + ".class";
    Object value = settings.get(key);
    if (value == null) {
      throw new ConfigException(key, null, group + " names '" + name + "', which needs " + key);
    }
    try {
      Class<?> type = value instanceof Class<?> c ? c : Class.forName(value.toString().trim(), true,
          RuleEngine.class.getClassLoader());
      T made = kind.cast(type.getDeclaredConstructor().newInstance());
      owned.add(made);
      return made;
    } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
      throw new ConfigException(key, value, "cannot make a " + kind.getSimpleName() + " of it: " + e);
    }
  }

  /** Whether rules are ignored ({@code rules.ignore=true}): schemas are used as if they had none. */
  boolean ignoresRules() {
    return settings.ignore();
  }

  /**
   * With {@code rules.ignore=true}, warns once per rule of the encryption rules of {@code contract} that would run
   * in {@code phase}; a contract or subject that cannot be had (its supplier throws) is left out quietly: rules
   * are ignored anyway.
   */
  void ignoring(Rule.Mode phase, java.util.function.Supplier<String> subject,
      java.util.function.Supplier<DataContract> contract) {
    if (!settings.ignore()) {
      return;
    }
    try {
      bypasses.ignored(contract.get(), subject.get(), phase);
    } catch (RuntimeException e) {
      // no contract to warn of: nothing runs either way
    }
  }

  /**
   * Prepares the rules of {@code rules} that run in {@code phase} against one schema version, in the order they
   * run (reversed on read and downgrade, as Confluent runs them). With rule metrics, the plan also counts, at their
   * places, the rules of the list that do not run (another phase's, or disabled) as skipped, as Confluent's
   * dispatch loop does: so a list whose rules all are skipped still has a plan, without steps, whenever Confluent
   * dispatches it (a domain or encoding list, a migration list with a rule of this phase).
   *
   * @param enableAt the rule set's {@code enableAt}
   * @param record the record, for messages
   * @return the plan, or null when no rule runs and none is counted
   * @throws UnsupportedRulesException when a rule's type has no executor here
   * @throws SerializationException when a rule cannot be prepared (an expression that does not compile)
   */
  RulePlan plan(Rule.Mode phase, String subject, Schema target, DataContract contract, List<Rule> rules,
      String enableAt, String record) {
    if (settings.ignore() || rules.isEmpty()) {
      return null;
    }
    List<Rule> ordered = new ArrayList<>(rules);
    if (phase == Rule.Mode.READ || phase == Rule.Mode.DOWNGRADE) {
      Collections.reverse(ordered);
    }
    List<Rule> running = new ArrayList<>();
    boolean dispatched = phase == Rule.Mode.WRITE || phase == Rule.Mode.READ;
    for (Rule rule : ordered) {
      if (!rule.mode().runsIn(phase)) {
        continue;
      }
      dispatched = true;
      String off = disabledBy(rule, enableAt);
      if (off == null) {
        running.add(rule);
      } else {
        bypasses.disabled(rule, subject, phase, off);
      }
    }
    if (running.isEmpty() && (metrics == null || !dispatched)) {
      return null;
    }
    List<RulePlan.Step> steps = new ArrayList<>();
    List<List<RuleMetrics.Counters>> skips = new ArrayList<>();
    skips.add(new ArrayList<>());
    int next = 0; // running keeps the order of ordered
    for (Rule rule : ordered) {
      RuleMetrics.Counters counters = metrics == null ? null : metrics.of(rule.type(), phase.name(), subject,
          rule.name());
      int at = next < running.size() && running.get(next) == rule ? next++ : -1;
      if (at < 0) {
        if (counters != null) {
          skips.get(skips.size() - 1).add(counters);
        }
        continue;
      }
      RuleExecutor executor = executor(rule, record, subject);
      RuleTarget ruleTarget = new RuleTarget(rule, phase, subject, target, contract, running, at, client);
      PreparedRule prepared;
      try {
        prepared = executor.prepare(ruleTarget);
      } catch (RuleException | IllegalArgumentException e) {
        throw new SerializationException("cannot " + (phase == Rule.Mode.WRITE ? "serialize " : "deserialize ")
            + record + ": " + ruleTarget + " cannot run: " + e.getMessage(), e);
      }
      String onSuccess = actionName(rule, "onSuccess", rule.onSuccess(), phase, null);
      String onFailure = actionName(rule, "onFailure", rule.onFailure(), phase, "ERROR");
      steps.add(new RulePlan.Step(ruleTarget, prepared, action(rule, "onSuccess", onSuccess, record),
          action(rule, "onFailure", onFailure, record), counters == null ? null : new RulePlan.Counted(counters,
              onSuccess == null ? null : counters.action(onSuccess), counters.action(onFailure))));
      skips.add(new ArrayList<>());
    }
    return new RulePlan(steps, metrics == null ? null : skips, bypasses);
  }

  private RuleExecutor executor(Rule rule, String record, String subject) {
    String type = rule.type().toUpperCase(Locale.ROOT);
    RuleExecutor named = byName.get(rule.name());
    if (named != null && named.type().equalsIgnoreCase(type)) {
      return named;
    }
    RuleExecutor executor = byType.get(type);
    if (executor == null) {
      String where = isConfluentType(type) ? "add " + RULES_ARTIFACT + " to the class path (the Connect plugin "
          + "folder, for a worker)" : "configure an executor of that type (rule.executors, "
          + "rule.executors.<name>.class)";
      throw new UnsupportedRulesException(record + ": the schema of subject '" + subject + "' carries " + rule
          + ", and no rule executor of type " + type + " is here: " + where + "; or set rules.ignore=true to use the "
          + "schema as if it had no rules", -1, -1, null,
          new RuleDeploymentException("no rule executor of type " + type + " is here"));
    }
    return executor;
  }

  private static boolean isConfluentType(String type) {
    return List.of("CEL", "CEL_FIELD", "ENCRYPT", "ENCRYPT_PAYLOAD", "JSONATA").contains(type);
  }

  /** The name of a rule's action in {@code phase}: a setting's, else the rule's own, else {@code fallback}. */
  private String actionName(Rule rule, String field, String own, Rule.Mode phase, String fallback) {
    String configured = settings.override(rule.name(), rule.type().toUpperCase(Locale.ROOT), field);
    String name = rule.actionIn(configured != null ? configured : own, phase);
    return name == null || name.isEmpty() ? fallback : name;
  }

  private RuleAction action(Rule rule, String field, String name, String record) {
    if (name == null) {
      return null;
    }
    RuleAction action = actions.get(name.toUpperCase(Locale.ROOT));
    if (action == null) {
      String where = name.equalsIgnoreCase("DLQ") ? "add " + RULES_ARTIFACT + " to the class path"
          : "configure it (rule.actions, rule.actions.<name>.class)";
      throw new UnsupportedRulesException(record + ": " + rule + " names the " + field + " action " + name
          + ", which is not here: " + where, -1, -1, null,
          new RuleDeploymentException("no rule action " + name + " is here"));
    }
    return action;
  }

  /**
   * What turns a rule off, for messages, or null when it runs: a setting, else its rule set's {@code enableAt},
   * else its own flag.
   */
  private String disabledBy(Rule rule, String enableAt) {
    String type = rule.type().toUpperCase(Locale.ROOT);
    String configured = settings.override(rule.name(), type, "disabled");
    if (configured != null) {
      return Boolean.parseBoolean(configured.trim()) ? "disabled by " + RuleSettings.EXECUTORS + "."
          + overrideName(rule.name(), type, "disabled") + ".disabled=true" : null;
    }
    if (enableAt != null && !enableAt.equalsIgnoreCase("ALL")) {
      if (enableAt.equalsIgnoreCase("NONE") || !enableAt.equalsIgnoreCase(settings.environment())) {
        return "its rule set's enableAt is " + enableAt + ", and execution.environment is " + settings.environment();
      }
    }
    return rule.disabled() ? "the rule is registered with \"disabled\": true" : null;
  }

  /** Which of the names {@link RuleSettings#override} tries holds the setting: the rule's, its type's, the default. */
  private String overrideName(String ruleName, String type, String field) {
    for (String name : new String[] {ruleName, "_" + type + "_", RuleSettings.DEFAULT}) {
      if (settings.get(RuleSettings.EXECUTORS + "." + name + "." + field) != null) {
        return name;
      }
    }
    return RuleSettings.DEFAULT;
  }

  /** Closes the executors and actions this engine made. */
  @Override
  public void close() {
    for (AutoCloseable plugin : owned) {
      try {
        plugin.close();
      } catch (Exception e) {
        // a plug-in's own cleanup: nothing of the record path depends on it
      }
    }
  }
}
