package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.http.JsonBodies;
import io.kavro.registry.internal.http.RegisteredSchemaParser;
import io.kavro.registry.internal.http.RestRequest;
import io.kavro.registry.internal.schema.SchemaTextLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Schemas that name types registered under other subjects: Confluent's schema references. */
class SchemaReferencesTest {
  private static final String ZIP = "{\"type\":\"fixed\",\"name\":\"Zip\",\"namespace\":\"io.x\",\"size\":5}";
  private static final String ADDRESS = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"io.x\",\"fields\":"
      + "[{\"name\":\"street\",\"type\":\"string\"},{\"name\":\"zip\",\"type\":\"io.x.Zip\"}]}";
  private static final String CUSTOMER = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"io.x\","
      + "\"fields\":[{\"name\":\"home\",\"type\":\"io.x.Address\"},{\"name\":\"work\",\"type\":[\"null\","
      + "\"io.x.Address\"],\"default\":null},{\"name\":\"postbox\",\"type\":\"io.x.Zip\"}]}";

  @StartStop
  final MockWebServer server = new MockWebServer();

  /** Path (after the base URL) to answer body; anything else is a 404 with Confluent's error code. */
  private final Map<String, String> answers = new ConcurrentHashMap<>();
  private final List<String> asked = new ArrayList<>();

  @BeforeEach
  void dispatch() {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getTarget().substring("/apis/ccompat/v7".length());
        synchronized (asked) {
          asked.add(path);
        }
        String body = answers.get(path);
        return body != null ? new MockResponse.Builder().body(body).build()
            : new MockResponse.Builder().code(404).body("{\"error_code\":40402,\"message\":\"Version not found\"}")
                .build();
      }
    });
  }

  private HttpSchemaRegistryClient client() {
    return new HttpSchemaRegistryClient(RegistryConfig.from(Map.of(
        "schema.registry.url", server.url("/apis/ccompat/v7").toString(), "max.retries", 0)));
  }

  private static ObjectNode schema(String text, ObjectNode... references) {
    ObjectNode node = JsonBodies.object().put("schema", text);
    ArrayNode array = node.putArray("references");
    for (ObjectNode reference : references) {
      array.add(reference);
    }
    return node;
  }

  private static ObjectNode reference(String name, String subject, int version) {
    return JsonBodies.object().put("name", name).put("subject", subject).put("version", version);
  }

  private void version(String subject, int version, ObjectNode answer) {
    answers.put("/subjects/" + subject + "/versions/" + version,
        answer.deepCopy().put("subject", subject).put("version", version).put("id", 100 + version).toString());
  }

  @Test
  void schemaById_nestedAndSharedReferences_resolvedIntoOneSchemaEachFetchedOnce() {
    // Customer -> Address -> Zip, and Customer -> Zip directly: Zip is fetched and defined once.
    version("zip", 1, schema(ZIP));
    version("address", 3, schema(ADDRESS, reference("io.x.Zip", "zip", 1)));
    answers.put("/schemas/ids/9", schema(CUSTOMER, reference("io.x.Address", "address", 3),
        reference("io.x.Zip", "zip", 1)).toString());

    Schema customer = client().schemaById(9);

    Schema address = customer.getField("home").schema();
    assertThat(address.getFullName()).isEqualTo("io.x.Address");
    assertThat(address.getField("zip").schema().getFixedSize()).isEqualTo(5);
    assertThat(customer.getField("work").schema().getTypes().get(1)).isSameAs(address);
    assertThat(customer.getField("postbox").schema()).isSameAs(address.getField("zip").schema());
    // The result stands alone: its text parses with no registry and no other types.
    assertThat(new Schema.Parser().parse(customer.toString())).isEqualTo(customer);
    assertThat(asked).containsExactly("/schemas/ids/9", "/subjects/address/versions/3", "/subjects/zip/versions/1");
  }

  @Test
  void latestVersion_withReferences_resolved() {
    version("zip", 1, schema(ZIP));
    answers.put("/subjects/addresses-value/versions/latest", schema(ADDRESS, reference("io.x.Zip", "zip", 1))
        .put("subject", "addresses-value").put("version", 2).put("id", 12).toString());

    SubjectVersion latest = client().latestVersion("addresses-value");

    assertThat(latest.id()).isEqualTo(12);
    assertThat(latest.schema().getField("zip").schema().getFullName()).isEqualTo("io.x.Zip");
  }

  @Test
  void referenceVersionMinusOne_readsTheLatestVersion() {
    answers.put("/subjects/zip/versions/latest", schema(ZIP).put("version", 4).put("id", 3).toString());
    answers.put("/schemas/ids/9", schema(ADDRESS, reference("io.x.Zip", "zip", -1)).toString());

    assertThat(client().schemaById(9).getField("zip").schema().getFixedSize()).isEqualTo(5);
    assertThat(asked).contains("/subjects/zip/versions/latest");
  }

  @Test
  void missingReferencedVersion_invalidSchemaNamingTheReference() {
    answers.put("/schemas/ids/9", schema(ADDRESS, reference("io.x.Zip", "zip", 7)).toString());

    assertThatThrownBy(() -> client().schemaById(9))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("version 7 of subject 'zip', referenced as 'io.x.Zip' by get schema by id 9")
        .hasMessageContaining("the registry does not have it");
  }

  @Test
  void referencesInALoop_typedErrorNotAHang() {
    // a -> b -> a: each subject version is fetched once, then a name is left undefined.
    String a = "{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"b\",\"type\":[\"null\",\"B\"]}]}";
    String b = "{\"type\":\"record\",\"name\":\"B\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",\"A\"]}]}";
    version("a", 1, schema(a, reference("B", "b", 1)));
    version("b", 1, schema(b, reference("A", "a", 1)));
    answers.put("/schemas/ids/9", schema(a, reference("B", "b", 1)).toString());

    assertThatThrownBy(() -> client().schemaById(9))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("Avro cannot parse");
    assertThat(asked).hasSizeLessThanOrEqualTo(3);
  }

  @Test
  void chainDeeperThanTheLimit_refused() {
    for (int i = 1; i <= RegisteredSchemaParser.MAX_DEPTH + 1; i++) {
      String text = "{\"type\":\"fixed\",\"name\":\"F" + i + "\",\"size\":1}";
      version("s" + i, 1, schema(text, reference("F" + (i + 1), "s" + (i + 1), 1)));
    }
    answers.put("/schemas/ids/9", schema("\"string\"", reference("F1", "s1", 1)).toString());

    assertThatThrownBy(() -> client().schemaById(9))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("nest deeper than " + RegisteredSchemaParser.MAX_DEPTH);
  }

  /**
   * Issue 33, item 4: a named type referenced as an object, {"type":"io.x.Zip"}, which Avro up to 1.12.1 reads and
   * 1.12.2 refuses (AVRO-4176), is read as the type it names: in the schema itself, in a referenced version's own
   * text, and by a version that follows one read so.
   */
  @Test
  void schemaById_namedTypesReferencedAsObjects_readAsAvro1121ReadsThem() {
    version("zip", 1, schema(ZIP));
    version("address", 3, schema(ADDRESS.replace("\"type\":\"io.x.Zip\"", "\"type\":{\"type\":\"io.x.Zip\"}"),
        reference("io.x.Zip", "zip", 1)));
    version("kind", 2, schema("{\"type\":\"enum\",\"name\":\"Kind\",\"namespace\":\"io.x\",\"symbols\":[\"A\"]}"));
    answers.put("/schemas/ids/11", schema("{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"io.x\","
        + "\"fields\":[{\"name\":\"home\",\"type\":{\"type\":\"Address\"}},{\"name\":\"kind\",\"type\":"
        + "[\"null\",{\"type\":\"io.x.Kind\",\"doc\":\"ignored\"}]}]}", reference("io.x.Address", "address", 3),
        reference("io.x.Kind", "kind", 2)).toString());

    Schema customer = client().schemaById(11);

    assertThat(customer.toString()).isEqualTo("{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":"
        + "\"io.x\",\"fields\":[{\"name\":\"home\",\"type\":{\"type\":\"record\",\"name\":\"Address\","
        + "\"fields\":[{\"name\":\"street\",\"type\":\"string\"},{\"name\":\"zip\",\"type\":{\"type\":"
        + "\"fixed\",\"name\":\"Zip\",\"size\":5}}]}},{\"name\":\"kind\",\"type\":[\"null\",{\"type\":"
        + "\"enum\",\"name\":\"Kind\",\"symbols\":[\"A\"]}]}]}");
    assertThat(asked).containsExactly("/schemas/ids/11", "/subjects/address/versions/3",
        "/subjects/zip/versions/1", "/subjects/kind/versions/2");
  }

  /** Issue 33, item 4: what Avro 1.12.1 refuses too is still refused, typed, naming the id. */
  @Test
  void schemaById_objectReferenceToAnUndefinedName_invalidSchema() {
    answers.put("/schemas/ids/11", schema("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\","
        + "\"type\":{\"type\":\"io.x.Nope\"}}]}").toString());

    assertThatThrownBy(() -> client().schemaById(11))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("get schema by id 11: the registry returned a schema that Avro cannot parse")
        .hasMessageContaining("io.x.Nope");
  }

  @Test
  void undefinedNameWithoutReferences_invalidSchemaNotAnAvroException() {
    answers.put("/schemas/ids/9", schema(ADDRESS).toString());

    assertThatThrownBy(() -> client().schemaById(9))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("get schema by id 9: the registry returned a schema that Avro cannot parse")
        .hasMessageContaining("io.x.Zip");
  }

  @Test
  void malformedReference_clearError() {
    answers.put("/schemas/ids/9", schema(ADDRESS, JsonBodies.object().put("name", "io.x.Zip")).toString());

    assertThatThrownBy(() -> client().schemaById(9))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("a reference without a valid 'subject' and 'version'");
  }

  @Test
  void emptyOrAbsentReferences_noExtraRequest() {
    answers.put("/schemas/ids/1", schema(ZIP).toString());
    answers.put("/schemas/ids/2", JsonBodies.object().put("schema", ZIP).toString());

    client().schemaById(1);
    client().schemaById(2);

    assertThat(asked).containsExactly("/schemas/ids/1", "/schemas/ids/2");
  }

  /** Issue 13, item 15: the references one schema may pull in are bounded, with a typed error. */
  @Test
  void moreReferencesThanTheCap_typedError() {
    int cap = 20;
    List<String> fetched = new ArrayList<>();
    ObjectNode[] references = new ObjectNode[cap + 1];
    for (int i = 0; i <= cap; i++) {
      references[i] = reference("io.x.F" + i, "f" + i, 1);
    }
    RegisteredSchemaParser parser = new RegisteredSchemaParser(request -> {
      String subject = request.path().get(1);
      fetched.add(subject);
      return JsonBodies.object().put("schema", "{\"type\":\"fixed\",\"name\":\"" + subject.toUpperCase()
          + "\",\"namespace\":\"io.x\",\"size\":1}");
    }, cap);

    assertThatThrownBy(() -> parser.parse(schema("\"string\"", references), RestRequest.get("get schema by id 1",
        "schemas", "ids", "1"))).isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("more than " + cap + " referenced");
    assertThat(fetched).hasSize(cap);
    assertThat(RegisteredSchemaParser.MAX_REFERENCES).isEqualTo(1000);
  }

  /** Issue 13, item 15: a schema from the registry nesting deeper than the cap is refused before Avro parses it. */
  @Test
  void schemaNestingDeeperThanTheCap_typedError() {
    int depth = SchemaTextLimits.MAX_JSON_DEPTH + 1;
    String deep = "{\"type\":\"array\",\"items\":".repeat(depth) + "\"int\"" + "}".repeat(depth);
    answers.put("/schemas/ids/1", JsonBodies.object().put("schema", deep).toString());

    assertThatThrownBy(() -> client().schemaById(1)).isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("nests " + depth + " levels deep");
  }

  /** A schema nesting as deep as the cap allows is read. */
  @Test
  void schemaNestingUpToTheCap_read() {
    int depth = SchemaTextLimits.MAX_JSON_DEPTH;
    String deep = "{\"type\":\"array\",\"items\":".repeat(depth) + "\"int\"" + "}".repeat(depth);
    answers.put("/schemas/ids/1", JsonBodies.object().put("schema", deep).toString());

    assertThat(client().schemaById(1).getType()).isEqualTo(Schema.Type.ARRAY);
  }

  /** Issue 13, item 15: a schema text over the size cap is refused with a typed error. */
  @Test
  void schemaLargerThanTheCap_typedError() {
    String huge = "{\"type\":\"string\",\"doc\":\"" + "x".repeat(SchemaTextLimits.MAX_SCHEMA_CHARS) + "\"}";
    answers.put("/schemas/ids/1", JsonBodies.object().put("schema", huge).toString());

    assertThatThrownBy(() -> client().schemaById(1)).isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("more than the " + SchemaTextLimits.MAX_SCHEMA_CHARS);
  }

  @Test
  void jsonDepth_ignoresBracketsInStrings() {
    assertThat(SchemaTextLimits.jsonDepth("{\"doc\":\"[[[{{\\\"\",\"a\":[1,{\"b\":[]}]}")).isEqualTo(4);
  }
}
