package io.kavro.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A TEST DOUBLE of a Confluent schema registry, a {@link Dispatcher} of a {@code MockWebServer}: as much of it as
 * Kavro's serde and Confluent's JavaScript client call with an ENCRYPT rule. One subject with one version (id 1)
 * and its rule set, {@code /config}, and the DEK registry (KEKs and DEKs kept in memory, Confluent's JSON and
 * "not found" codes; a DEK posted to {@code /deks/{subject}} or {@code /deks}); anything else is 404 with error
 * code 40401 (so the JavaScript client's association lookup falls back to the topic name strategy). Faults: the
 * next {@link #dekFaults} DEK registry requests are answered 404 with {@link #faultBody}, as a proxy or a node
 * without the API would. Shared with the KMS driver modules through kavro-rules' test-jar. Thread-safe.
 */
public final class ConfluentRegistryDouble extends Dispatcher {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY_NOT_FOUND = "{\"error_code\":40470,\"message\":\"Key not found.\"}";
  private static final String DEFAULT_ALGORITHM = "AES256_GCM";

  final AtomicInteger dekFaults = new AtomicInteger();
  volatile String faultBody = "<html><body><h1>404 Not Found</h1></body></html>";
  final List<String> targets = new CopyOnWriteArrayList<>();

  private final String subject;
  private final String version;
  private final Map<String, JsonNode> keks = new ConcurrentHashMap<>();
  private final Map<String, JsonNode> deks = new ConcurrentHashMap<>();

  /**
   * @param subject the subject of the one version
   * @param schema the Avro schema of the subject's version 1 (id 1), as JSON text
   * @param ruleSet its rule set, as Confluent's JSON
   * @throws IllegalArgumentException when the rule set is not JSON
   */
  public ConfluentRegistryDouble(String subject, String schema, String ruleSet) {
    this.subject = subject;
    ObjectNode answer = JSON.createObjectNode().put("subject", subject).put("version", 1).put("id", 1)
        .put("schemaType", "AVRO").put("schema", schema);
    try {
      answer.set("ruleSet", JSON.readTree(ruleSet));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(e);
    }
    this.version = answer.toString();
  }

  /** The wrapped key material (base64) of the subject's latest DEK of a KEK and algorithm, or null. */
  public String encryptedKeyMaterial(String kek, String algorithm) {
    JsonNode dek = deks.get(kek + "/" + subject + "/" + algorithm + "/latest");
    return dek == null ? null : dek.path("encryptedKeyMaterial").asText();
  }

  /** The KEK as stored, or null. */
  public JsonNode kek(String name) {
    return keks.get(name);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    targets.add(request.getMethod() + " " + request.getTarget());
    List<String> path = request.getUrl().pathSegments();
    if (path.get(0).equals("dek-registry")) {
      if (dekFaults.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return new MockResponse.Builder().code(404)
            .setHeader("Content-Type", faultBody.startsWith("<") ? "text/html" : "application/json")
            .body(faultBody).build();
      }
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
        dek.put("algorithm", DEFAULT_ALGORITHM);
      }
      String key = rest.get(1) + "/" + dek.path("subject").asText() + "/" + dek.path("algorithm").asText();
      deks.putIfAbsent(key + "/" + dek.path("version").asInt(), dek);
      deks.put(key + "/latest", deks.get(key + "/" + dek.path("version").asInt()));
      return json(200, deks.get(key + "/" + dek.path("version").asInt()).toString());
    }
    if (rest.size() == 6 && method.equals("GET")) { // keks/{name}/deks/{subject}/versions/{version}
      String algorithm = request.getUrl().queryParameter("algorithm");
      String version = rest.get(5).equals("-1") ? "latest" : rest.get(5);
      JsonNode dek = deks.get(rest.get(1) + "/" + rest.get(3) + "/"
          + (algorithm == null ? DEFAULT_ALGORITHM : algorithm) + "/" + version);
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
