package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.InvalidSubjectException;
import org.junit.jupiter.api.Test;

/** How a registry failure while writing a record reads. */
class WriteFailuresTest {
  /** A subject no URL carries is refused before any request: not "the registry failed", which it never saw. */
  @Test
  void aRefusedSubject_saysTheSubjectIsRefused_namingIt_notThatTheRegistryFailed() {
    InvalidSubjectException refused = new InvalidSubjectException("register schema failed: the subject '..' cannot "
        + "be a name in a URL path; nothing was sent", "..");

    RuntimeException e = Failures.whileWriting("a record of topic 't'", "..", refused);

    assertThat(e).isInstanceOf(SchemaRegistrationException.class).hasCause(refused)
        .hasMessageStartingWith("cannot serialize a record of topic 't' under subject '..': the subject name is "
            + "refused, so nothing was sent to the registry")
        .hasMessageNotContaining("the registry failed");
  }
}
