package io.kavro.serde.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link RuleException#withoutMessages}: a failure's stand-in on a route whose rules may protect its values keeps
 * class names and stack traces, no message; and a {@code LinkageError} stays one, so that a deployment fault is
 * still found among the causes (Kavro's Connect converter fails the task for it instead of skipping the record).
 */
class RuleExceptionTest {
  @Test
  void withoutMessages_keepsClassNamesTracesAndALinkageErrorsType_noMessage() {
    NoClassDefFoundError missing = new NoClassDefFoundError("com/acme/Missing");
    Throwable original = new IllegalStateException("card 4111-1111-1111-1111", missing);

    Throwable standIn = RuleException.withoutMessages(original);

    assertThat(standIn).isExactlyInstanceOf(RuleException.class)
        .hasMessage("java.lang.IllegalStateException (its message is left out: it may quote field values)");
    assertThat(standIn.getStackTrace()).isEqualTo(original.getStackTrace());
    assertThat(standIn.getCause()).isExactlyInstanceOf(LinkageError.class)
        .hasMessage("java.lang.NoClassDefFoundError (its message is left out: it may quote field values)")
        .hasNoCause();
    assertThat(standIn.getCause().getStackTrace()).isEqualTo(missing.getStackTrace());
    assertThat(Causes.find(RuleException.hidingValues("a rule failed", original), LinkageError.class)).isPresent();
    assertThat(RuleException.withoutMessages(null)).isNull();
  }

  /** A deployment fault's stand-in stays one too: a host finds it among the causes and stops instead of skipping. */
  @Test
  void withoutMessages_keepsARuleDeploymentExceptionsType() {
    Throwable original = new IllegalStateException("card 4111-1111-1111-1111",
        new RuleDeploymentException("no KMS driver for KMS type 'aws-kms'"));

    Throwable standIn = RuleException.withoutMessages(original);

    assertThat(standIn.getCause()).isExactlyInstanceOf(RuleDeploymentException.class)
        .hasMessage("io.kavro.serde.rules.RuleDeploymentException (its message is left out: it may quote field "
            + "values)");
    assertThat(Causes.find(RuleException.hidingValues("a rule failed", original), RuleDeploymentException.class))
        .isPresent();
  }
}
