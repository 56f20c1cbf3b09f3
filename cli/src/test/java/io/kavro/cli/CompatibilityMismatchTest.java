package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityInForce.Scope;
import io.kavro.registry.CompatibilityLevel;
import org.junit.jupiter.api.Test;

/** What {@code schema compatibility --subject S --level L} says when the registry then applies another level. */
class CompatibilityMismatchTest {
  @Test
  void mismatch_sameLevel_saysNothing() {
    assertThat(SchemaCommand.mismatch("s", CompatibilityLevel.FULL,
        new CompatibilityInForce(CompatibilityLevel.FULL, Scope.SUBJECT))).isEmpty();
  }

  /** Any registry may answer another level: a neutral mismatch, blaming no one. */
  @Test
  void mismatch_otherLevel_isNeutral() {
    assertThat(SchemaCommand.mismatch("s", CompatibilityLevel.BACKWARD,
        new CompatibilityInForce(CompatibilityLevel.FULL, Scope.SUBJECT)))
        .contains("kavro: the registry answers level FULL (the subject's own) for subject 's' after setting "
            + "BACKWARD");
    assertThat(SchemaCommand.mismatch("s", CompatibilityLevel.FULL,
        new CompatibilityInForce(CompatibilityLevel.BACKWARD, Scope.GLOBAL))).get().asString()
        .doesNotContain("Apicurio").contains("after setting FULL");
  }

  /** Only NONE read back as the global level is Apicurio's rule: it keeps no subject level NONE. */
  @Test
  void mismatch_noneReadAsGlobal_namesApicuriosRule() {
    assertThat(SchemaCommand.mismatch("s", CompatibilityLevel.NONE,
        new CompatibilityInForce(CompatibilityLevel.BACKWARD, Scope.GLOBAL)))
        .contains("kavro: subject 's' was set to NONE, but the registry applies BACKWARD (global; the subject sets "
            + "none): Apicurio keeps no subject level NONE, and removes the subject's own level instead");
  }
}
