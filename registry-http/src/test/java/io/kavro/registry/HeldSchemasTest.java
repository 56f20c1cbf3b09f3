package io.kavro.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.factory.HeldSchemas;
import org.junit.jupiter.api.Test;

/** Schema texts read as registries hold them: what Avro 1.12.2 refuses and Kavro reads, and how. */
class HeldSchemasTest {
  private static final String OBJECT_REFERENCE = """
      {"type":"record","name":"Visit","namespace":"com.acme","fields":[
        {"name":"home","type":{"type":"record","name":"Place","fields":[{"name":"x","type":"int"}]}},
        {"name":"work","type":{"type":"com.acme.Place"}}]}""";

  @Test
  void parse_aNamedTypeReferencedAsAnObject_readsTheName() {
    assertThat(HeldSchemas.referencesNamesAsObjects(OBJECT_REFERENCE)).isTrue();
    assertThat(HeldSchemas.parse(OBJECT_REFERENCE).getField("work").schema().getFullName())
        .isEqualTo("com.acme.Place");
    assertThat(HeldSchemas.referencesNamesAsObjects("{\"type\":\"record\",\"name\":\"A\",\"fields\":[]}")).isFalse();
  }

  @Test
  void withNamedReferences_writesEachObjectReferenceAsItsName_orIsEmpty() {
    assertThat(HeldSchemas.withNamedReferences(OBJECT_REFERENCE)).get().asString()
        .contains("\"type\":\"com.acme.Place\"").doesNotContain("{\"type\":\"com.acme.Place\"}");
    assertThat(HeldSchemas.withNamedReferences("{\"type\":\"record\",\"name\":\"A\",\"fields\":[]}")).isEmpty();
    assertThat(HeldSchemas.withNamedReferences("not json")).isEmpty();
  }
}
