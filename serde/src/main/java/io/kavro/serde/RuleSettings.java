package io.kavro.serde;

import io.kavro.serde.rules.CelRegexEngine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The serde's data contract settings, parsed once: which executors and actions run rules, with which
 * parameters, and which per-rule overrides apply. Confluent's keys:
 * <ul>
 *   <li>{@code rule.executors}, {@code rule.actions}: names, each with {@code .class} and {@code .param.*};
 *   <li>{@code rule.service.loader.enable} (true): executors and actions on the class path run as {@code _default_};
 *   <li>{@code rule.executors.<rule name | _TYPE_ | _default_>.onSuccess|onFailure|disabled}: overrides of a rule's own;
 *   <li>{@code execution.environment} (Kavro: CLIENT): a rule set whose {@code enableAt} names another place is
 *       skipped;
 *   <li>{@code rule.metrics.enable} (true): rules are counted in the client's metrics ({@link RuleMetrics});
 *   <li>{@code cel.regex.engine}, as given or under {@code rule.executors.<name>.param.}: parsed here once
 *       ({@link CelRegexEngine}), warned of once when {@code pcre} (even with {@code rules.ignore=true}), and given
 *       typed to every executor.
 * </ul>
 */
final class RuleSettings {
  static final String EXECUTORS = "rule.executors";
  static final String ACTIONS = "rule.actions";
  static final String SERVICE_LOADER = "rule.service.loader.enable";
  static final String ENVIRONMENT = "execution.environment";
  static final String METRICS = "rule.metrics.enable";
  static final String DEFAULT = "_default_";
  private static final Logger log = LoggerFactory.getLogger(AvroSerdeConfig.class);

  private final Map<String, Object> originals;
  private final boolean serviceLoader;
  private final String environment;
  private final List<String> executorNames;
  private final List<String> actionNames;
  private final boolean ignore;
  private final boolean metrics;
  private final CelRegexEngine regexEngine;

  RuleSettings(Map<String, ?> originals, boolean serviceLoader, String environment, List<String> executorNames,
      List<String> actionNames, boolean ignore, boolean metrics) {
    Map<String, Object> copy = new HashMap<>(originals);
    copy.remove("key.serializer");
    copy.remove("value.serializer");
    copy.remove("key.deserializer");
    copy.remove("value.deserializer");
    // Not Map.copyOf: an application's settings may hold null values, which Kafka passes on as they are.
    this.originals = java.util.Collections.unmodifiableMap(copy);
    this.serviceLoader = serviceLoader;
    this.environment = environment;
    this.executorNames = List.copyOf(executorNames);
    this.actionNames = List.copyOf(actionNames);
    this.ignore = ignore;
    this.metrics = metrics;
    this.regexEngine = regexEngine(this.originals);
  }

  /**
   * Parses every {@code cel.regex.engine} of {@code originals} (as given and under an executor's params): one WARN
   * naming each key that asks for {@code pcre}.
   *
   * @throws ConfigException naming the first key whose value is neither {@code pcre} nor {@code re2}
   */
  private static CelRegexEngine regexEngine(Map<String, Object> originals) {
    List<String> pcre = new java.util.ArrayList<>();
    new TreeMap<>(originals).forEach((key, value) -> {
      boolean param = key.startsWith(EXECUTORS + ".") && key.endsWith(".param." + CelRegexEngine.CONFIG);
      if ((key.equals(CelRegexEngine.CONFIG) || param)
          && CelRegexEngine.parse(key, value) == CelRegexEngine.PCRE) {
        pcre.add(key);
      }
    });
    if (pcre.isEmpty()) {
      return CelRegexEngine.RE2;
    }
    log.warn(CelRegexEngine.warning(pcre));
    return CelRegexEngine.PCRE;
  }

  /** {@code rule.metrics.enable}: rules are counted in the client's metrics. */
  boolean metrics() {
    return metrics;
  }

  boolean serviceLoader() {
    return serviceLoader;
  }

  String environment() {
    return environment;
  }

  List<String> executorNames() {
    return executorNames;
  }

  List<String> actionNames() {
    return actionNames;
  }

  /** {@code rules.ignore}: schemas are used as if they had no rules. */
  boolean ignore() {
    return ignore;
  }

  /** A setting as it was given, or null. */
  Object get(String key) {
    return originals.get(key);
  }

  /**
   * What a plug-in of {@code group} ({@code rule.executors} or {@code rule.actions}) is configured with: the
   * serde's settings, then {@code <group>._default_.param.*}, then {@code <group>._<TYPE>_.param.*}, then
   * {@code <group>.<name>.param.*} when it has a name of its own, each without its prefix; for the CEL runners
   * ({@code CEL}, {@code CEL_FIELD}, and the inline validator, which asks as {@code CEL}), {@code cel.regex.engine}
   * as the parsed {@link CelRegexEngine}.
   */
  Map<String, Object> pluginConfigs(String group, String type, String name) {
    Map<String, Object> configs = new HashMap<>(originals);
    putParams(configs, group + "." + DEFAULT + ".param.");
    putParams(configs, group + "._" + type + "_.param.");
    if (name != null && !name.equals(DEFAULT)) {
      putParams(configs, group + "." + name + ".param.");
    }
    if (group.equals(EXECUTORS) && (type.equals("CEL") || type.equals("CEL_FIELD"))) {
      configs.put(CelRegexEngine.CONFIG, regexEngine); // parsed once, here: never warned of again
    }
    return configs;
  }

  private void putParams(Map<String, Object> configs, String prefix) {
    originals.forEach((key, value) -> {
      if (key.startsWith(prefix) && key.length() > prefix.length()) {
        configs.put(key.substring(prefix.length()), value);
      }
    });
  }

  /**
   * The override of a rule's {@code field} ({@code onSuccess}, {@code onFailure}, {@code disabled}): by its name,
   * then {@code _<TYPE>_}, then {@code _default_}; null when none is set.
   */
  String override(String ruleName, String type, String field) {
    for (String name : new String[] {ruleName, "_" + type + "_", DEFAULT}) {
      Object value = originals.get(EXECUTORS + "." + name + "." + field);
      if (value != null) {
        return value.toString();
      }
    }
    return null;
  }
}
