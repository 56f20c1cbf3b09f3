package io.kavro.registry;

import java.util.Locale;
import java.util.Objects;

/**
 * The compatibility level a registry applies to a subject, and where that level is set: the subject's own, or the
 * registry's global one when the subject sets none.
 *
 * @param level the level that new schemas under the subject are checked against
 * @param scope where it is set
 */
public record CompatibilityInForce(CompatibilityLevel level, Scope scope) {
  /** Checks that no component is null. */
  public CompatibilityInForce {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(scope, "scope");
  }

  /** Where a level in force is set. */
  public enum Scope {
    /** The subject has a level of its own. */
    SUBJECT,
    /** The subject sets none: the registry's global level applies. */
    GLOBAL;

    /** {@code "subject"} or {@code "global"}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** "BACKWARD (global; the subject sets none)", "NONE (the subject's own)". */
  @Override
  public String toString() {
    return level + (scope == Scope.GLOBAL ? " (global; the subject sets none)" : " (the subject's own)");
  }
}
