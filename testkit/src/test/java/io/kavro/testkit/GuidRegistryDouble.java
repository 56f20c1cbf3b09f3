package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;

/**
 * A TEST DOUBLE of a Confluent 8 schema registry, a {@link Dispatcher} of a {@code MockWebServer}: one subject whose
 * versions carry an id and a GUID, answered as Confluent 8 answers them ({@code guid} beside {@code id} in a
 * version, a lookup and {@code GET /schemas/ids/{id}}; {@code GET /schemas/guids/{guid}}), as much of it as Kavro's
 * serde and Confluent's JavaScript client call without rules; no association for any topic ({@code []} from
 * {@code GET /associations/resources/...}, as Confluent 8.3 answers, which the default subject name strategy
 * asks first). Anything else is 404 with error code 40401, and is
 * recorded in {@link #unexpected}. Thread-safe.
 */
final class GuidRegistryDouble extends Dispatcher {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A version of the subject. */
  record Version(int version, int id, UUID guid, Schema schema) {}

  final List<String> unexpected = new CopyOnWriteArrayList<>();
  private final String subject;
  private final List<Version> versions;

  /** {@code subject}'s versions, oldest first (the last is the latest). */
  GuidRegistryDouble(String subject, List<Version> versions) {
    this.subject = subject;
    this.versions = List.copyOf(versions);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    List<String> path = request.getUrl().pathSegments();
    String method = request.getMethod();
    if (method.equals("GET") && path.get(0).equals("config")) {
      return ok(JSON.createObjectNode().put("compatibilityLevel", "BACKWARD"));
    }
    if (method.equals("GET") && path.size() == 4 && path.get(0).equals("associations")
        && path.get(1).equals("resources")) {
      return ok(JSON.createArrayNode()); // the topic has no association: Confluent 8.3's answer, an empty list
    }
    if (path.size() >= 2 && path.get(0).equals("subjects") && path.get(1).equals(subject)) {
      if (method.equals("POST") && path.size() == 2) {
        Schema asked = new Schema.Parser().parse(body(request).path("schema").asText());
        return versions.stream().filter(v -> v.schema().equals(asked)).findFirst().map(v -> ok(version(v)))
            .orElse(error(40403, "Schema not found"));
      }
      if (method.equals("GET") && path.size() == 4 && path.get(2).equals("versions")) {
        Version v = path.get(3).equals("latest") ? versions.get(versions.size() - 1)
            : versions.stream().filter(x -> Integer.toString(x.version()).equals(path.get(3))).findFirst()
                .orElse(null);
        return v == null ? error(40402, "Version not found") : ok(version(v));
      }
    }
    if (method.equals("GET") && path.size() == 3 && path.get(0).equals("schemas")) {
      for (Version v : versions) {
        if (path.get(1).equals("ids") && path.get(2).equals(Integer.toString(v.id()))) {
          return ok(JSON.createObjectNode().put("schema", v.schema().toString()).put("guid", v.guid().toString()));
        }
        if (path.get(1).equals("guids") && path.get(2).equals(v.guid().toString())) {
          return ok(JSON.createObjectNode().put("schema", v.schema().toString()));
        }
      }
      return error(40403, "Schema not found");
    }
    unexpected.add(method + " " + request.getTarget());
    return error(40401, "Subject not found");
  }

  private ObjectNode version(Version v) {
    return JSON.createObjectNode().put("subject", subject).put("version", v.version()).put("id", v.id())
        .put("guid", v.guid().toString()).put("schema", v.schema().toString());
  }

  private static JsonNode body(RecordedRequest request) {
    try {
      return JSON.readTree(request.getBody().utf8());
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static MockResponse ok(JsonNode json) {
    return new MockResponse.Builder().setHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
        .body(json.toString()).build();
  }

  private static MockResponse error(int code, String message) {
    return new MockResponse.Builder().code(404).setHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
        .body(JSON.createObjectNode().put("error_code", code).put("message", message).toString()).build();
  }
}
