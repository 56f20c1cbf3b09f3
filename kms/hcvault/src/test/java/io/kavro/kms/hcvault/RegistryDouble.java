package io.kavro.kms.hcvault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A Confluent schema registry over HTTP, as much of it as Kavro's serde and Confluent's JavaScript client call
 * with an ENCRYPT rule: one subject with one version (id 1) and its rule set, and the DEK registry (KEKs and DEKs
 * in memory, Confluent's JSON and "not found" codes; a DEK posted to {@code /deks/{subject}} or {@code /deks}).
 * Adapted from kavro-rules' test double of the same name's job. Thread-safe.
 */
final class RegistryDouble extends Dispatcher {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY_NOT_FOUND = "{\"error_code\":40470,\"message\":\"Key not found.\"}";

  private final String subject;
  private final String version;
  private final Map<String, JsonNode> keks = new ConcurrentHashMap<>();
  private final Map<String, JsonNode> deks = new ConcurrentHashMap<>();

  /**
   * @param schema the Avro schema of the subject's version 1 (id 1), as JSON text
   * @param ruleSet its rule set, as Confluent's JSON
   */
  RegistryDouble(String subject, String schema, String ruleSet) throws java.io.IOException {
    this.subject = subject;
    ObjectNode answer = JSON.createObjectNode().put("subject", subject).put("version", 1).put("id", 1)
        .put("schemaType", "AVRO").put("schema", schema);
    answer.set("ruleSet", JSON.readTree(ruleSet));
    this.version = answer.toString();
  }

  /** The DEK's wrapped key material (base64) of a KEK, subject and algorithm, latest version, or null. */
  String encryptedKeyMaterial(String kek, String algorithm) {
    JsonNode dek = deks.get(kek + "/" + subject + "/" + algorithm + "/latest");
    return dek == null ? null : dek.path("encryptedKeyMaterial").asText();
  }

  /** The KEK as stored, or null. */
  JsonNode kek(String name) {
    return keks.get(name);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    List<String> path = request.getUrl().pathSegments();
    if (path.get(0).equals("dek-registry")) {
      return dek(request, path.subList(2, path.size()));
    }
    String joined = String.join("/", path);
    if (joined.equals("subjects/" + subject + "/versions/latest") || joined.equals("subjects/" + subject
        + "/versions/1") || joined.equals("schemas/ids/1")) {
      return json(200, version);
    }
    if (joined.startsWith("config")) {
      return json(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
    }
    return json(404, "{\"error_code\":40401,\"message\":\"Subject not found.\"}");
  }

  /** {@code /dek-registry/v1/<rest>}. */
  private MockResponse dek(RecordedRequest request, List<String> rest) {
    String method = request.getMethod();
    if (rest.size() == 1 && method.equals("POST")) { // keks
      ObjectNode kek = body(request).put("deleted", false).put("ts", 1L);
      if (!kek.has("kmsProps")) {
        kek.putObject("kmsProps");
      }
      keks.putIfAbsent(kek.path("name").asText(), kek);
      return json(200, keks.get(kek.path("name").asText()).toString());
    }
    if (rest.size() == 2 && method.equals("GET")) { // keks/{name}
      JsonNode kek = keks.get(rest.get(1));
      return kek == null ? json(404, KEY_NOT_FOUND) : json(200, kek.toString());
    }
    if ((rest.size() == 3 || rest.size() == 4) && method.equals("POST")) { // keks/{name}/deks[/{subject}]
      ObjectNode dek = body(request).put("kekName", rest.get(1)).put("deleted", false)
          .put("ts", System.currentTimeMillis());
      if (rest.size() == 4 && !dek.has("subject")) {
        dek.put("subject", rest.get(3));
      }
      if (!dek.has("version")) {
        dek.put("version", 1);
      }
      if (!dek.has("algorithm")) {
        dek.put("algorithm", "AES256_GCM");
      }
      String key = rest.get(1) + "/" + dek.path("subject").asText() + "/" + dek.path("algorithm").asText();
      deks.putIfAbsent(key + "/" + dek.path("version").asInt(), dek);
      deks.put(key + "/latest", deks.get(key + "/" + dek.path("version").asInt()));
      return json(200, deks.get(key + "/" + dek.path("version").asInt()).toString());
    }
    if (rest.size() == 6 && method.equals("GET")) { // keks/{name}/deks/{subject}/versions/{version}
      String algorithm = request.getUrl().queryParameter("algorithm");
      String version = rest.get(5).equals("-1") ? "latest" : rest.get(5);
      JsonNode dek = deks.get(rest.get(1) + "/" + rest.get(3) + "/" + (algorithm == null ? "AES256_GCM" : algorithm)
          + "/" + version);
      return dek == null ? json(404, KEY_NOT_FOUND) : json(200, dek.toString());
    }
    return json(405, "{\"error_code\":405,\"message\":\"HTTP 405 Method Not Allowed\"}");
  }

  private static ObjectNode body(RecordedRequest request) {
    try {
      return (ObjectNode) JSON.readTree(request.getBody().utf8());
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
        .body(body).build();
  }
}
