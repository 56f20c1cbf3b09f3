package io.kavro.testkit.schemarepo;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.schemarepo.SchemaEntry;
import org.schemarepo.SchemaValidationException;

/**
 * Kavro's full-compatibility validator for the schema-repo server, on its own: every version, newest first, both
 * ways, the first failure naming the version and the field.
 */
class FullCompatibilityValidatorTest {
  private static final String V0 = record("{\"name\":\"a\",\"type\":\"int\"}");
  private static final String V1 = record("{\"name\":\"a\",\"type\":\"int\",\"default\":0},"
      + "{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"}");

  private final FullCompatibilityValidator validator = new FullCompatibilityValidator();

  private static String record(String fields) {
    return "{\"type\":\"record\",\"name\":\"R\",\"fields\":[" + fields + "]}";
  }

  /** Newest first, as the server gives them. */
  private static List<SchemaEntry> history() {
    return List.of(new SchemaEntry("1", V1), new SchemaEntry("0", V0));
  }

  @Test
  void validate_compatibleBothWaysWithEveryVersion_passes() {
    String v2 = record("{\"name\":\"a\",\"type\":\"int\",\"default\":0},"
        + "{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"},{\"name\":\"c\",\"type\":\"long\",\"default\":1}");

    assertThatCode(() -> validator.validate(v2, history())).doesNotThrowAnyException();
    assertThatCode(() -> validator.validate(V0, List.of())).doesNotThrowAnyException();
  }

  @Test
  void validate_newSchemaCannotReadOldData_refusedNamingVersionAndField() {
    String v2 = record("{\"name\":\"a\",\"type\":\"int\",\"default\":0},"
        + "{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"},{\"name\":\"c\",\"type\":\"long\"}");

    assertThatThrownBy(() -> validator.validate(v2, history())).isInstanceOf(SchemaValidationException.class)
        .hasMessageStartingWith("not fully compatible with version 1: the new schema cannot read data written "
            + "with version 1: READER_FIELD_MISSING_DEFAULT_VALUE at /fields/2")
        .hasMessageContaining("c");
  }

  /** Compatible with the newest version both ways, but version 0 cannot read it: a has no default there. */
  @Test
  void validate_oldestVersionCannotReadNewData_refusedNamingTheOldestVersion() {
    String v2 = record("{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"}");

    assertThatThrownBy(() -> validator.validate(v2, history())).isInstanceOf(SchemaValidationException.class)
        .hasMessageStartingWith("not fully compatible with version 0: version 0 cannot read data written with "
            + "the new schema: READER_FIELD_MISSING_DEFAULT_VALUE at /fields/0")
        .hasMessageContaining("a");
  }

  @Test
  void validate_notAvro_refusedSayingWhich() {
    assertThatThrownBy(() -> validator.validate("{\"type\":\"recrod\"}", history()))
        .isInstanceOf(SchemaValidationException.class)
        .hasMessageStartingWith("the new schema is not a valid Avro schema: ");
    assertThatThrownBy(() -> validator.validate(V0, List.of(new SchemaEntry("7", "nope"))))
        .isInstanceOf(SchemaValidationException.class)
        .hasMessageStartingWith("version 7 is not a valid Avro schema: ");
  }
}
