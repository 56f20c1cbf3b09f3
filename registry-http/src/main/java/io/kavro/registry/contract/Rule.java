package io.kavro.registry.contract;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One data contract rule of a schema version, as Confluent's registry holds it ({@code ruleSet.domainRules[]},
 * {@code migrationRules[]}, {@code encodingRules[]}). A value: the registry's JSON with Confluent's defaults
 * applied ({@code kind} TRANSFORM, {@code mode} WRITEREAD), never null components but {@code doc}, {@code expr},
 * {@code onSuccess} and {@code onFailure}.
 *
 * @param name the rule's name, unique in its rule set
 * @param doc what the rule is for, or null; a failed condition says it
 * @param kind a condition (checks) or a transform (changes the message)
 * @param mode when the rule runs
 * @param type the executor's type, upper case: {@code CEL}, {@code CEL_FIELD}, {@code ENCRYPT}, ...
 * @param tags the field tags it applies to (field rules); empty: every field
 * @param params the rule's parameters, such as {@code encrypt.kek.name}
 * @param expr the executor's expression, or null
 * @param onSuccess the action after success ({@code NONE}, {@code ERROR}, {@code DLQ}, or {@code "A,B"} for write,
 *     read), or null for none
 * @param onFailure the action after failure, or null for {@code ERROR}
 * @param disabled whether the rule is off
 */
public record Rule(String name, String doc, Kind kind, Mode mode, String type, Set<String> tags,
    Map<String, String> params, String expr, String onSuccess, String onFailure, boolean disabled) {

  /** What a rule does to a message. */
  public enum Kind {
    /** Changes the message (or a field), and passes the result on. */
    TRANSFORM,
    /** Checks the message: {@code false} fails. */
    CONDITION
  }

  /** When a rule runs; the first four are also the phases in which rules run. */
  public enum Mode {
    /** A migration from an older version to a newer one, on read. */
    UPGRADE,
    /** A migration from a newer version to an older one, on read. */
    DOWNGRADE,
    /** Both migrations: {@code "A,B"} actions mean A on upgrade, B on downgrade. */
    UPDOWN,
    /** Producing. */
    WRITE,
    /** Consuming. */
    READ,
    /** Producing and consuming: {@code "A,B"} actions mean A on write, B on read. */
    WRITEREAD;

    /** Whether a rule of this mode runs in {@code phase} (one of UPGRADE, DOWNGRADE, WRITE, READ). */
    public boolean runsIn(Mode phase) {
      return switch (this) {
        case WRITEREAD -> phase == WRITE || phase == READ;
        case UPDOWN -> phase == UPGRADE || phase == DOWNGRADE;
        default -> this == phase;
      };
    }

    /** Whether this phase is the first of a pair: write of WRITEREAD, upgrade of UPDOWN. */
    public boolean isForward() {
      return this == WRITE || this == UPGRADE;
    }
  }

  /** Checks the components and copies the collections. */
  public Rule {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(type, "type");
    tags = Set.copyOf(tags == null ? Set.of() : tags);
    params = Map.copyOf(params == null ? Map.of() : params);
  }

  /**
   * The action named by {@code action} in {@code phase}: for a WRITEREAD or UPDOWN rule, {@code "A,B"} means A in
   * the forward phase (write, upgrade) and B in the other.
   */
  public String actionIn(String action, Mode phase) {
    if (action == null) {
      return null;
    }
    int comma = action.indexOf(',');
    if (comma < 0 || mode != Mode.WRITEREAD && mode != Mode.UPDOWN) {
      return action.trim();
    }
    return (phase.isForward() ? action.substring(0, comma) : action.substring(comma + 1)).trim();
  }

  /** Name and type only: a rule's params may hold secrets. */
  @Override
  public String toString() {
    return "rule '" + name + "' (" + type + ", " + kind + ", " + mode + ")";
  }
}
