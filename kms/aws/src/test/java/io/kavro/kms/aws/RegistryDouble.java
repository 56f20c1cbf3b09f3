package io.kavro.kms.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Confluent schema registry on 127.0.0.1, as much of it as a serde with an ENCRYPT rule calls, for Kavro and
 * Confluent's JavaScript client alike: one subject whose version 1 (id 1) has a rule set, and the DEK registry
 * (KEKs and DEKs in memory, created by either path, Confluent's JSON and error codes). Anything else is 404 with
 * error code 40401 (so the JavaScript client's association lookup falls back to the topic name strategy).
 */
final class RegistryDouble implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY_NOT_FOUND = "{\"error_code\":40470,\"message\":\"Key not found.\"}";

  private final HttpServer server;
  private final String subject;
  private final String version;
  private final Map<String, JsonNode> keks = new ConcurrentHashMap<>();
  private final Map<String, JsonNode> deks = new ConcurrentHashMap<>();

  /**
   * @param schema the Avro schema of the subject's version 1 (id 1), as JSON text
   * @param ruleSet its rule set, as Confluent's JSON
   */
  RegistryDouble(String subject, String schema, String ruleSet) throws IOException {
    this.subject = subject;
    ObjectNode answer = JSON.createObjectNode().put("subject", subject).put("version", 1).put("id", 1)
        .put("schema", schema);
    answer.set("ruleSet", JSON.readTree(ruleSet));
    this.version = answer.toString();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The DEK of a KEK and subject, version 1, AES256_GCM, as the registry holds it. */
  JsonNode dek(String kekName) {
    return deks.get(kekName + "/" + subject + "/AES256_GCM/1");
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String[] answer = answer(exchange);
      byte[] out = answer[1].getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
      exchange.sendResponseHeaders(Integer.parseInt(answer[0]), out.length);
      try (OutputStream stream = exchange.getResponseBody()) {
        stream.write(out);
      }
    }
  }

  private String[] answer(HttpExchange exchange) throws IOException {
    List<String> path = List.of(exchange.getRequestURI().getPath().substring(1).split("/"));
    String method = exchange.getRequestMethod();
    if (path.get(0).equals("dek-registry")) {
      return dek(method, path.subList(2, path.size()), exchange);
    }
    String joined = String.join("/", path);
    if (joined.equals("subjects/" + subject + "/versions/latest") || joined.equals("subjects/" + subject
        + "/versions/1") || joined.equals("schemas/ids/1")) {
      return new String[] {"200", version};
    }
    if (joined.equals("config")) {
      return new String[] {"200", "{\"compatibilityLevel\":\"BACKWARD\"}"};
    }
    return new String[] {"404", "{\"error_code\":40401,\"message\":\"Subject not found.\"}"};
  }

  /** {@code /dek-registry/v1/<rest>}. */
  private String[] dek(String method, List<String> rest, HttpExchange exchange) throws IOException {
    if (rest.size() == 1 && method.equals("POST")) { // keks
      ObjectNode kek = body(exchange).put("deleted", false).put("ts", System.currentTimeMillis());
      keks.putIfAbsent(kek.path("name").asText(), kek);
      return new String[] {"200", keks.get(kek.path("name").asText()).toString()};
    }
    if (rest.size() == 2 && method.equals("GET")) { // keks/{name}
      JsonNode kek = keks.get(rest.get(1));
      return kek == null ? new String[] {"404", KEY_NOT_FOUND} : new String[] {"200", kek.toString()};
    }
    if ((rest.size() == 3 || rest.size() == 4) && method.equals("POST")) { // keks/{name}/deks[/{subject}]
      ObjectNode dek = body(exchange).put("kekName", rest.get(1)).put("deleted", false)
          .put("ts", System.currentTimeMillis());
      if (rest.size() == 4) {
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
      return new String[] {"200", dek.toString()};
    }
    if (rest.size() == 6 && method.equals("GET")) { // keks/{name}/deks/{subject}/versions/{version}
      String query = String.valueOf(exchange.getRequestURI().getQuery());
      String algorithm = query.contains("algorithm=")
          ? query.replaceFirst("^.*algorithm=([A-Z0-9_]+).*$", "$1") : "AES256_GCM";
      String version = rest.get(5).equals("-1") ? "latest" : rest.get(5);
      JsonNode dek = deks.get(rest.get(1) + "/" + rest.get(3) + "/" + algorithm + "/" + version);
      return dek == null ? new String[] {"404", KEY_NOT_FOUND} : new String[] {"200", dek.toString()};
    }
    return new String[] {"405", "{\"error_code\":405,\"message\":\"HTTP 405 Method Not Allowed\"}"};
  }

  private static ObjectNode body(HttpExchange exchange) throws IOException {
    return (ObjectNode) JSON.readTree(exchange.getRequestBody().readAllBytes());
  }
}
