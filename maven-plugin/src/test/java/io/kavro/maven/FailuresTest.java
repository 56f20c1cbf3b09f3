package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import org.junit.jupiter.api.Test;

/** A failure's words: a registry's message as it is, an '@' in a subject kept, user info never shown. */
class FailuresTest {
  @Test
  void describe_registryMessageWithASubjectHoldingAnAt_isKeptWhole() {
    SchemaNotFoundException e = new SchemaNotFoundException("Subject 'team@corp-value' not found (GET "
        + "http://registry:8081/subjects/team@corp-value/versions/latest)");

    assertThat(Failures.describe((RuntimeException) e)).isEqualTo("Subject 'team@corp-value' not found (GET "
        + "http://registry:8081/subjects/team@corp-value/versions/latest)");
  }

  @Test
  void describe_incompatibleSchemaOfASubjectWithAnAt_keepsTheReason() {
    IncompatibleSchemaException e = new IncompatibleSchemaException("Schema being registered is incompatible with"
        + " an earlier schema for subject \"team@corp-value\": reader field 'owner@corp' has no default", 409,
        409, null, null);

    assertThat(Failures.describe(e)).contains("subject \"team@corp-value\"").contains("'owner@corp'");
  }

  @Test
  void describe_unreachableRegistry_urlWithoutUserInfo() {
    RegistryUnavailableException e = new RegistryUnavailableException("connection refused", -1, -1,
        "https://alice:s3cret@registry:8081", null);

    assertThat(Failures.describe(e)).isEqualTo("cannot reach the schema registry at https://registry:8081: "
        + "connection refused");
  }

  @Test
  void describe_otherException_redactsOnlyTheUrlWords() {
    IllegalStateException e = new IllegalStateException("cannot read https://alice:s3cret@registry:8081/x for "
        + "team@corp-value");

    assertThat(Failures.describe(e)).isEqualTo("cannot read https://registry:8081/x for team@corp-value");
  }

  @Test
  void describe_noMessage_isTheClassName() {
    assertThat(Failures.describe(new IllegalStateException())).isEqualTo("IllegalStateException");
  }
}
