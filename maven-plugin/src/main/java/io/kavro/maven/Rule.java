package io.kavro.maven;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One {@code <rule>} of a {@link RuleSet}, in the shape of Confluent's plugin: {@code name} and {@code type} are
 * required; {@code kind} defaults to {@code TRANSFORM} and {@code mode} to {@code WRITEREAD}, as in Confluent's
 * registry.
 */
public class Rule {
  String name;
  String doc;
  String kind;
  String mode;
  String type;
  Set<String> tags;
  Map<String, String> params;
  String expr;
  String onSuccess;
  String onFailure;
  boolean disabled;

  /** For Maven, which sets the fields. */
  public Rule() {}

  /**
   * The client's value.
   *
   * @param where the subject and list it is in, for messages
   * @throws IllegalArgumentException naming the rule and the value when a name, type, kind, mode or param is wrong
   */
  io.kavro.registry.contract.Rule toContract(String where) {
    if (name == null || name.isBlank() || type == null || type.isBlank()) {
      throw new IllegalArgumentException(where + ": a <rule> needs a <name> and a <type>; was name=" + name
          + ", type=" + type);
    }
    if (params != null && params.values().stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException(where + ": rule '" + name + "' has a <params> entry with no value");
    }
    return new io.kavro.registry.contract.Rule(name, doc,
        choice(io.kavro.registry.contract.Rule.Kind.class, kind, io.kavro.registry.contract.Rule.Kind.TRANSFORM,
            where),
        choice(io.kavro.registry.contract.Rule.Mode.class, mode, io.kavro.registry.contract.Rule.Mode.WRITEREAD,
            where),
        type.strip().toUpperCase(Locale.ROOT), tags, params, expr, onSuccess, onFailure, disabled);
  }

  private <E extends Enum<E>> E choice(Class<E> type, String value, E fallback, String where) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": rule '" + name + "' has " + type.getSimpleName().toLowerCase(
          Locale.ROOT) + " '" + value + "'; one of " + Arrays.toString(type.getEnumConstants()));
    }
  }
}
