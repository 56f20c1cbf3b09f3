package io.kavro.registry;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

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

  /**
   * What to say when a subject was set to {@code set} and the registry applies this level afterwards: "the registry
   * answers level FULL (the subject's own) for subject 's' after setting BACKWARD". Apicurio is named only where
   * its rule explains it: it keeps no subject level {@code NONE}, so setting one removes the subject's own level and
   * the global one applies.
   *
   * @param subject the subject that was set
   * @param set the level it was set to
   * @return the sentence, or empty when the levels agree
   */
  public Optional<String> mismatchAfterSetting(String subject, CompatibilityLevel set) {
    if (level == set) {
      return Optional.empty();
    }
    if (set == CompatibilityLevel.NONE && scope == Scope.GLOBAL) {
      return Optional.of("subject '" + subject + "' was set to NONE, but the registry applies " + this
          + ": Apicurio keeps no subject level NONE, and removes the subject's own level instead");
    }
    return Optional.of("the registry answers level " + this + " for subject '" + subject + "' after setting " + set);
  }

  /** "BACKWARD (global; the subject sets none)", "NONE (the subject's own)". */
  @Override
  public String toString() {
    return level + (scope == Scope.GLOBAL ? " (global; the subject sets none)" : " (the subject's own)");
  }
}
