package io.kavro.schematools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Issue 49, item 10: the reasons of a schema file that cannot be used were cut at their first colon or quote ("is
 * not an Avro schema: Undefined schema", without the name). They are whole now, but for what they quote of a file
 * that may be a secret given by mistake (issue 33, item D).
 */
class SchemaFilesTest {
  private static String problemOf(String text) {
    try {
      new Schema.Parser().parse(text);
    } catch (RuntimeException e) {
      return SchemaFiles.problem(e);
    }
    throw new AssertionError("parsed: " + text);
  }

  @Test
  void problem_avrosReason_isWhole_namingTheType() {
    assertThat(problemOf("""
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "to", "type": "com.acme.Nowhere"}]}"""))
        .startsWith(" is not an Avro schema: Undefined ").contains("com.acme.Nowhere");
  }

  @Test
  void problem_invalidDefault_namesTheFieldTheValueAndTheType() {
    assertThat(problemOf("""
        {"type": "record", "name": "Order", "fields": [{"name": "count", "type": "int", "default": "x"}]}"""))
        .isEqualTo(" is not an Avro schema: Invalid default for field count: \"x\" not a \"int\"");
  }

  @Test
  void problem_jsonAvroQuotesInTheMiddle_isShownAsBraces_theRestWhole() {
    assertThat(problemOf("""
        {"type": "record", "name": "Order", "fields": [{"name": "to", "default": "home",
         "type": {"type": "record", "name": "Place", "fields": [{"name": "x", "type": "int"}]}}]}"""))
        .startsWith(" is not an Avro schema: Invalid default for field to: \"home\" not a {...}");
  }

  @Test
  void problem_jsonThatIsNoSchema_quotesNothingOfIt() {
    assertThat(problemOf("{\"password\": \"hunter2-s3cret\"}")).isEqualTo(" is not an Avro schema: No type");
  }

  @Test
  void problem_notJson_jacksonsWholeReason_withoutTheToken() {
    String problem = problemOf("ghp_S3cretT0ken\nsecond-s3cret\n");

    assertThat(problem).startsWith(" is not JSON (line 1, column 1): Unrecognized token '\u2026': was expecting")
        .contains("'null', 'true' or 'false'").doesNotContain("S3cret").doesNotContain("s3cret")
        .doesNotContain("Source");
  }

  /** Review of issue 49, item 10: the closing quote of 'x' was taken for an opening one, garbling the rest. */
  @Test
  void problem_oneCharacterToken_isKept_andTheReasonWhole() {
    assertThat(problemOf("x")).endsWith(": Unrecognized token 'x': was expecting (JSON String, Number, Array, "
        + "Object or token 'null', 'true' or 'false')");
  }

  /** Review of issue 49, item 10: "expected" was lost between the two one-character quotes. */
  @Test
  void problem_wrongCloseMarker_namesBothMarkers() {
    assertThat(problemOf("[1}")).endsWith(": Unexpected close marker '}': expected ']' (for Array starting at "
        + "[line: 1, column: 1])");
  }

  /** Jackson quotes an apostrophe as ''': one character, kept, and the quotes after it pair as they should. */
  @Test
  void problem_singleQuotedString_namesTheApostrophe_notTheString() {
    assertThat(problemOf("'s3cret-value'")).endsWith(": Unexpected character (''' (code 39)): expected a valid "
        + "value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')").doesNotContain("s3cret");
  }

  /** A quoted token of two characters or more is still left out, beside kept one-character quotes. */
  @Test
  void problem_longerTokenBesideShortQuotes_isLeftOut() {
    assertThat(problemOf("{\"a\": s3cret}")).contains("Unrecognized token '\u2026': was expecting")
        .contains("'null', 'true' or 'false'").doesNotContain("s3cret");
  }

  @Test
  void problem_unfinishedJson_saysWhereWithoutQuotingTheText() {
    String problem = problemOf("{\"type\": \"record\", \"name\": \"s3cret\"");

    assertThat(problem).startsWith(" is not JSON (line 1, column ").contains("end-of-input")
        .doesNotContain("s3cret").doesNotContain("Source");
  }

  @Test
  void problem_urlsLoseTheirUserInfo() {
    assertThat(SchemaFiles.problem(new AvroRuntimeException("cannot load http://alice:pw@host/x: refused")))
        .isEqualTo(" is not an Avro schema: cannot load http://host/x: refused").doesNotContain("pw");
  }

  @Test
  void problem_jsonAfterALineBreak_isLeftOutWithItsColon() {
    assertThat(SchemaFiles.problem(new AvroRuntimeException("No type:\n  {\"password\": \"s3cret\"}\n")))
        .isEqualTo(" is not an Avro schema: No type");
  }

  @Test
  void parse_namesTheFile_withTheWholeReason() {
    assertThatThrownBy(() -> SchemaFiles.parse(new Schema.Parser(), "subject s: x.avsc", """
        {"type": "record", "name": "Order", "fields": [{"name": "to", "type": "Nowhere"}]}"""))
        .isInstanceOf(SchemaFileException.class).hasMessageStartingWith("subject s: x.avsc is not an Avro schema: ")
        .hasMessageContaining("Nowhere");
  }
}
