package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code derive-schema} writes what Confluent's goal writes. The expected schemas are Confluent's own, copied from
 * the expectations of its tests (confluentinc/schema-registry, commit 794611bd, maven-plugin/src/test/java/io/
 * confluent/kafka/schemaregistry/maven/DeriveSchemaMojoTest.java and .../derive/schema/DeriveAvroSchemaTest.java):
 * the messages of each test case are the lines of the file here, and each case names the test it comes from.
 * Where Confluent's test names the top-level record "Record" (its testUnion helper), the goal names it "Schema".
 */
class DeriveSchemaMojoTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode derive(Path dir, String... lines) throws Exception {
    Files.writeString(dir.resolve("messages.json"), String.join("\n", lines) + "\n");
    mojo(dir).run();
    JsonNode document = JSON.readTree(Files.readString(dir.resolve("target/schemas.json")));
    for (JsonNode entry : document.get("schemas")) { // every schema written is one Avro's parser takes
      new Schema.Parser().parse(entry.get("schema").toString());
    }
    return document.get("schemas");
  }

  private static DeriveSchemaMojo mojo(Path dir) {
    DeriveSchemaMojo mojo = new DeriveSchemaMojo();
    mojo.basedir = dir.toFile();
    mojo.messagePath = new File("messages.json");
    mojo.outputPath = new File("target/schemas.json");
    mojo.schemaType = "AVRO";
    return mojo;
  }

  /** The schemas, in order, as compact JSON; and the indexes each matched. */
  private static List<String> schemas(JsonNode entries) {
    List<String> schemas = new ArrayList<>();
    entries.forEach(entry -> schemas.add(entry.get("schema").toString()));
    return schemas;
  }

  private static List<String> matched(JsonNode entries) {
    List<String> matched = new ArrayList<>();
    entries.forEach(entry -> matched.add(entry.get("messagesMatched").toString()));
    return matched;
  }

  private static String only(JsonNode entries) {
    assertThat(entries).hasSize(1);
    return entries.get(0).get("schema").toString();
  }

  /** Confluent's DeriveSchemaMojoTest.testAvro; the whole file, as Jackson's pretty printer writes it. */
  @Test
  void oneMessage_writesConfluentsDocument(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"F1\": 1}");
    DeriveSchemaMojo mojo = mojo(dir);
    mojo.schemaType = "avro";
    mojo.run();

    assertThat(Files.readString(dir.resolve("target/schemas.json"))).isEqualTo("""
        {
          "schemas" : [ {
            "schema" : {
              "type" : "record",
              "name" : "Schema",
              "fields" : [ {
                "name" : "F1",
                "type" : "int"
              } ]
            },
            "messagesMatched" : [ 0 ]
          } ]
        }""");
  }

  /** Confluent's testDerivePrimitive: int, long, double (a decimal, or an integer beyond 64 bits), and the rest. */
  @Test
  void numbers_areIntLongOrDouble(@TempDir Path dir) throws Exception {
    JsonNode entries = derive(dir, "{\"i\": 12, \"l\": 12232323322323, \"d\": 12.5,"
        + " \"big\": 12020210222344343333333333120202102223443, \"b\": true, \"s\": \"Test\", \"n\": null}");
    assertThat(only(entries)).isEqualTo("{\"type\":\"record\",\"name\":\"Schema\",\"fields\":["
        + "{\"name\":\"b\",\"type\":\"boolean\"},{\"name\":\"big\",\"type\":\"double\"},"
        + "{\"name\":\"d\",\"type\":\"double\"},{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"l\",\"type\":\"long\"},"
        + "{\"name\":\"n\",\"type\":\"null\"},{\"name\":\"s\",\"type\":\"string\"}]}");
  }

  /** int, long and double together are doubles, in an array and across messages. */
  @Test
  void intLongAndDouble_areDoubles(@TempDir Path dir) throws Exception {
    JsonNode entries = derive(dir, "{\"a\": [1, 5000000000, 2.5], \"n\": 1}", "{\"a\": [], \"n\": 5000000000}",
        "{\"a\": [], \"n\": 0.5}");
    assertThat(schemas(entries)).containsExactly("{\"type\":\"record\",\"name\":\"Schema\",\"fields\":["
            + "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"double\"}},{\"name\":\"n\",\"type\":\"double\"}]}",
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":["
            + "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"null\"}},{\"name\":\"n\",\"type\":\"double\"}]}");
    assertThat(matched(entries)).containsExactly("[0]", "[1,2]");
  }

  /** A union branch that is itself a union: Avro has no nested unions, and the goal fails saying so. */
  @Test
  void unionInUnion_failsNamingAvrosRule(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"F\": {\"R1\": {\"int\": 5}}}\n{\"F\": null}\n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("messages.json: the schema derived from the message(s) [0, 1] (indexes from 0) is no"
            + " Avro schema: Nested union");
  }

  /** Confluent's testDeriveRecordPrimitive. */
  @Test
  void recordOfPrimitives(@TempDir Path dir) throws Exception {
    assertThat(only(derive(dir, "{\"Long\": 1202021212121009,\"Bool\": true}"))).isEqualTo(
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"Bool\",\"type\":\"boolean\"},"
            + "{\"name\":\"Long\",\"type\":\"long\"}]}");
  }

  /** Confluent's testDeriveRecordComplexTypesWithPrimitiveValues: a nested record named for its field; []. */
  @Test
  void nestedRecordAndEmptyArray(@TempDir Path dir) throws Exception {
    assertThat(only(derive(dir, "{\"MixedRecord\": {\"Double1\": 1.221, \"name\" : \"T\"},\"emptyArray\":[]}")))
        .isEqualTo("{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"MixedRecord\",\"type\":"
            + "{\"type\":\"record\",\"name\":\"MixedRecord\",\"fields\":[{\"name\":\"Double1\",\"type\":\"double\"},"
            + "{\"name\":\"name\",\"type\":\"string\"}]}},{\"name\":\"emptyArray\",\"type\":{\"type\":\"array\","
            + "\"items\":\"null\"}}]}");
  }

  /** Confluent's testDeriveArrayOfUnions: union branches in Avro's JSON encoding, inside an array. */
  @Test
  void arrayOfUnions(@TempDir Path dir) throws Exception {
    assertThat(only(derive(dir, "{\"arrayOfUnions\":[{\"int\":12}, {\"double\":1.2}, null, {\"array\":[12,13]}]}")))
        .isEqualTo("{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"arrayOfUnions\",\"type\":"
            + "{\"type\":\"array\",\"items\":[{\"type\":\"array\",\"items\":\"int\"},\"double\",\"int\",\"null\"]}}]}");
  }

  /** Confluent's testDeriveArrayOfUnionsRecursive: records in an array named for the array's field. */
  @Test
  void arrayOfRecordsOfUnions(@TempDir Path dir) throws Exception {
    assertThat(only(derive(dir,
        "{\"arr\":[{\"F1\":[null, {\"boolean\":true}]}, {\"F1\":[{\"int\":12}]}, {\"F1\":[null, null]}]}")))
        .isEqualTo("{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"arr\",\"type\":{\"type\":"
            + "\"array\",\"items\":{\"type\":\"record\",\"name\":\"arr\",\"fields\":[{\"name\":\"F1\",\"type\":"
            + "{\"type\":\"array\",\"items\":[\"boolean\",\"int\",\"null\"]}}]}}}]}");
  }

  /** Confluent's testDeriveMergeUnionsPrimitive: null, a tagged int and a tagged array make one union. */
  @Test
  void unionAcrossMessages(@TempDir Path dir) throws Exception {
    JsonNode entries = derive(dir, "{\"UnionPrimitive\": null}", "{\"UnionPrimitive\": {\"int\":12}}",
        "{\"UnionPrimitive\": {\"array\": [true,false]}}");
    assertThat(only(entries)).isEqualTo("{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":"
        + "\"UnionPrimitive\",\"type\":[{\"type\":\"array\",\"items\":\"boolean\"},\"int\",\"null\"]}]}");
    assertThat(matched(entries)).containsExactly("[0,1,2]");
  }

  /** Confluent's testDeriveMergeUnionsPrimitiveSingleBranch. */
  @Test
  void unionOfOneBranch(@TempDir Path dir) throws Exception {
    assertThat(only(derive(dir, "{\"UnionPrimitive\": {\"string\": \"12\"}}"))).isEqualTo(
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"UnionPrimitive\",\"type\":[\"string\"]}]}");
  }

  /**
   * Confluent's testDeriveMergeUnionsRecursive: unions inside records merged across messages, and two records as
   * branches, named by their tags, in Confluent's order (R2 before R1).
   */
  @Test
  void unionOfRecords_mergedRecursively(@TempDir Path dir) throws Exception {
    JsonNode entries = derive(dir,
        "{\"value\": {\"length\": {\"R1\": {\"new\": {\"int\": 5}, \"old\": {\"long\": 523233232333}}}}}",
        "{\"value\": {\"length\": {\"R1\": {\"new\": {\"long\": 12121276767225}, \"old\": null}}}}",
        "{\"value\": {\"length\": {\"R2\": {\"first\": \"J\", \"second\": \"S\"}}}}");
    assertThat(only(entries)).isEqualTo("{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"value\","
        + "\"type\":{\"type\":\"record\",\"name\":\"value\",\"fields\":[{\"name\":\"length\",\"type\":[{\"type\":"
        + "\"record\",\"name\":\"R2\",\"fields\":[{\"name\":\"first\",\"type\":\"string\"},{\"name\":\"second\","
        + "\"type\":\"string\"}]},{\"type\":\"record\",\"name\":\"R1\",\"fields\":[{\"name\":\"new\",\"type\":"
        + "[\"int\",\"long\"]},{\"name\":\"old\",\"type\":[\"long\",\"null\"]}]}]}]}}]}");
  }

  /**
   * Confluent's testDeriveMultipleMessages: F1 merges (int widened to double in both schemas), F2 does not, so
   * messages 0, 1, 5, 6 and 2, 3 keep two schemas; message 4 has a field of its own.
   */
  @Test
  void multipleMessages_mergeWhatMerges(@TempDir Path dir) throws Exception {
    String m1 = "{\"F1\": 1.5, \"F2\": true}";
    String m2 = "{\"F1\": 1, \"F2\": 1}";
    String m3 = "{\"F3\": [1, 1.5, 3]}";
    JsonNode entries = derive(dir, m1, m1, m2, m2, m3, m1, m1);
    assertThat(schemas(entries)).containsExactly(
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F1\",\"type\":\"double\"},"
            + "{\"name\":\"F2\",\"type\":\"boolean\"}]}",
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F1\",\"type\":\"double\"},"
            + "{\"name\":\"F2\",\"type\":\"int\"}]}",
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F3\",\"type\":{\"type\":\"array\","
            + "\"items\":\"double\"}}]}");
    assertThat(matched(entries)).containsExactly("[0,1,5,6]", "[2,3]", "[4]");
  }

  /** Confluent's testDeriveMultipleMessagesWithUnion: F1's union takes the null of message 2 in both schemas. */
  @Test
  void multipleMessages_unionsMergeAcrossSchemas(@TempDir Path dir) throws Exception {
    String m3 = "{\"F3\": {\"string\":\"1\"}, \"F1\": null}";
    JsonNode entries = derive(dir, "{\"F1\": {\"int\":12}, \"F2\": null}",
        "{\"F1\": {\"long\":12}, \"F2\": {\"array\":[12]}}", m3, m3);
    assertThat(schemas(entries)).containsExactly(
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F1\",\"type\":[\"int\",\"long\",\"null\"]},"
            + "{\"name\":\"F2\",\"type\":[{\"type\":\"array\",\"items\":\"int\"},\"null\"]}]}",
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F1\",\"type\":[\"int\",\"long\",\"null\"]},"
            + "{\"name\":\"F3\",\"type\":[\"string\"]}]}");
    assertThat(matched(entries)).containsExactly("[0,1]", "[2,3]");
  }

  /** Confluent's testDeriveMultipleMessagesWithUnionAndOtherTypes: a union, an int and an array stay apart. */
  @Test
  void multipleMessages_unionIntAndArrayStayApart(@TempDir Path dir) throws Exception {
    JsonNode entries = derive(dir, "{\"F1\": {\"int\":12}}", "{\"F1\": {\"long\":12}}", "{\"F1\": 12}",
        "{\"F1\": [12, 23]}");
    assertThat(schemas(entries)).containsExactly(
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F1\",\"type\":[\"int\",\"long\"]}]}",
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F1\",\"type\":\"int\"}]}",
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F1\",\"type\":{\"type\":\"array\","
            + "\"items\":\"int\"}}]}");
    assertThat(matched(entries)).containsExactly("[0,1]", "[2]", "[3]");
  }

  /** int then long across messages: one schema, the field a long. Blank lines are neither messages nor errors. */
  @Test
  void intAndLong_mergeToLong_blankLinesSkipped(@TempDir Path dir) throws Exception {
    JsonNode entries = derive(dir, "{\"n\": 1}", "", "   ", "{\"n\": 5000000000}");
    assertThat(only(entries)).isEqualTo(
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"n\",\"type\":\"long\"}]}");
    assertThat(matched(entries)).containsExactly("[0,1]");
  }

  private static String nested(int depth) {
    StringBuilder message = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      message.append("{\"l").append(i).append("\": ");
    }
    return message.append("[1, 2.5]").append("}".repeat(depth)).toString();
  }

  /** 16 records and arrays below the message, the most it takes: each record named for its field. */
  @Test
  void deepNesting_eachRecordNamedForItsField(@TempDir Path dir) throws Exception {
    int depth = 16;
    Schema schema = new Schema.Parser().parse(only(derive(dir, nested(depth))));
    for (int i = 0; i < depth; i++) {
      assertThat(schema.getType()).isEqualTo(Schema.Type.RECORD);
      assertThat(schema.getName()).isEqualTo(i == 0 ? "Schema" : "l" + (i - 1));
      schema = schema.getField("l" + i).schema();
    }
    assertThat(schema.toString()).isEqualTo("{\"type\":\"array\",\"items\":\"double\"}");
  }

  /** Deeper, merging would take time exponential in the nesting (Confluent's goal does not return at 60). */
  @Test
  void nestingDeeperThan16_failsNamingLineAndField(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{}\n" + nested(60) + "\n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessage("messages.json: the message on line 2 has no Avro schema: l0.l1.l2.l3.l4.l5.l6.l7.l8.l9.l10.l11"
            + ".l12.l13.l14.l15.l16 nests records and arrays more than 16 levels deep, the most derive-schema takes"
            + " (merging takes time exponential in the nesting)");
  }

  /** The example of docs/maven-plugin.md: id int and long is a long, total double and int a double. */
  @Test
  void docsExample(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"id\": 1, \"total\": 9.5}\n"
        + "{\"id\": 5000000000, \"total\": 12}\n");
    mojo(dir).run();
    assertThat(Files.readString(dir.resolve("target/schemas.json"))).isEqualTo("""
        {
          "schemas" : [ {
            "schema" : {
              "type" : "record",
              "name" : "Schema",
              "fields" : [ {
                "name" : "id",
                "type" : "long"
              }, {
                "name" : "total",
                "type" : "double"
              } ]
            },
            "messagesMatched" : [ 0, 1 ]
          } ]
        }""");
  }

  /** A union branch that is an array of records: the records are named for the field (Confluent's goal fails). */
  @Test
  void unionBranchArrayOfRecords(@TempDir Path dir) throws Exception {
    assertThat(only(derive(dir, "{\"F\": {\"array\": [{\"a\": 1}]}}", "{\"F\": null}"))).isEqualTo(
        "{\"type\":\"record\",\"name\":\"Schema\",\"fields\":[{\"name\":\"F\",\"type\":[{\"type\":\"array\","
            + "\"items\":{\"type\":\"record\",\"name\":\"F\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}},"
            + "\"null\"]}]}");
  }

  @Test
  void emptyFile_writesNoSchema(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "");
    mojo(dir).run();
    assertThat(Files.readString(dir.resolve("target/schemas.json"))).isEqualTo("{\n  \"schemas\" : [ ]\n}");
  }

  @Test
  void lineThatIsNoObject_failsNamingTheLine(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"a\": 1}\n\n[1, 2]\n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessage("Message on line 3 of messages.json is an invalid JSON message: a JSON array, where each line"
            + " must be one JSON object");
    assertThat(dir.resolve("target/schemas.json")).doesNotExist();
  }

  @Test
  void lineThatIsNoJson_orTwoObjects_failsNamingTheLine(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"a\": 1}\n{\"a\": \n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("Message on line 2 of messages.json is an invalid JSON message: ");
    Files.writeString(dir.resolve("messages.json"), "{\"a\": 1} {\"a\": 2}\n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("Message on line 1 of messages.json is an invalid JSON message: ");
  }

  @Test
  void arrayOfStringsAndNumbers_failsNamingLineAndField(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"a\": 1}\n{\"a\": {\"b\": [1, \"x\"]}}\n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("messages.json: the message on line 2 has no Avro schema: the values of a.b[] have"
            + " no one Avro type: found several types: ")
        .hasMessageContaining("{\"type\":\"int\"}").hasMessageContaining("{\"type\":\"string\"}");
  }

  @Test
  void fieldNameThatIsNoAvroName_failsNamingIt(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"first-name\": \"J\"}\n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("no Avro schema").hasMessageContaining("first-name");
  }

  /** Two different records named x (for their fields): Avro's parser refuses the second; one same record is named. */
  @Test
  void oneNameForTwoDifferentRecords_failsAsAvroDoes(@TempDir Path dir) throws Exception {
    assertThat(only(derive(dir, "{\"a\": {\"x\": {\"p\": 1}}, \"b\": {\"x\": {\"p\": 2}}}"))).endsWith(
        "{\"name\":\"b\",\"type\":{\"type\":\"record\",\"name\":\"b\",\"fields\":[{\"name\":\"x\",\"type\":\"x\"}]}}]}");
    Files.writeString(dir.resolve("messages.json"), "{\"a\": {\"x\": {\"p\": 1}}, \"b\": {\"x\": {\"q\": \"s\"}}}\n");
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("messages.json: the schema derived from the message(s) [0] (indexes from 0) is no"
            + " Avro schema: Can't redefine: x (field and record names must be Avro names");
  }

  @Test
  void schemaTypeJsonOrProtobuf_failsNamingTheParameter(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages.json"), "{\"F1\": 1}");
    for (String type : List.of("json", "PROTOBUF")) {
      DeriveSchemaMojo mojo = mojo(dir);
      mojo.schemaType = type;
      assertThatThrownBy(mojo::run).isInstanceOf(MojoExecutionException.class)
          .hasMessage("schemaType " + type + " is not supported: Kavro derives Avro schemas only (Confluent's plugin"
              + " also derives JSON and PROTOBUF); remove <schemaType> or set it to AVRO");
    }
    DeriveSchemaMojo mojo = mojo(dir);
    mojo.schemaType = "xml";
    assertThatThrownBy(mojo::run).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("schemaType xml is none of AVRO, JSON, PROTOBUF");
    assertThat(dir.resolve("target/schemas.json")).doesNotExist();
  }

  @Test
  void missingMessageFile_failsNamingIt(@TempDir Path dir) {
    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("messagePath messages.json cannot be read");
  }
}
