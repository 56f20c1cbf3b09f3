package io.kavro.schematools;

import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import java.util.Optional;

/**
 * What a tool says when it set a subject's compatibility level and the registry then applies another one, as the
 * console tool's {@code schema compatibility --level} and the Maven plugin's {@code set-compatibility} read it back.
 */
public final class LevelMismatch {
  private LevelMismatch() {}

  /**
   * "the registry answers level FULL (the subject's own) for subject 's' after setting BACKWARD". Apicurio is named
   * only where its rule explains it: it keeps no subject level {@code NONE}, so setting one removes the subject's
   * own level and the global one applies.
   *
   * @param subject the subject that was set
   * @param set the level it was set to
   * @param inForce the level the registry applies afterwards
   * @return the sentence, or empty when the levels agree
   */
  public static Optional<String> afterSetting(String subject, CompatibilityLevel set, CompatibilityInForce inForce) {
    if (inForce.level() == set) {
      return Optional.empty();
    }
    if (set == CompatibilityLevel.NONE && inForce.scope() == CompatibilityInForce.Scope.GLOBAL) {
      return Optional.of("subject '" + subject + "' was set to NONE, but the registry applies " + inForce
          + ": Apicurio keeps no subject level NONE, and removes the subject's own level instead");
    }
    return Optional.of("the registry answers level " + inForce + " for subject '" + subject + "' after setting "
        + set);
  }
}
