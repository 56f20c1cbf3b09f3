package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kavro.testkit.Contracts.Contract;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TEST DOUBLE: Confluent's data-contract API as a thin HTTP layer in front of a Confluent-compatible registry that
 * has none (such as Apicurio's {@code ccompat} API, {@link TestStack#registryUrl()}). It listens on 127.0.0.1,
 * forwards every request to the registry, and adds, in memory only:
 *
 * <ul>
 *   <li>Data contracts. {@code POST /subjects/{s}/versions} with {@code metadata} or {@code ruleSet} registers the
 *       schema without them and remembers them for the returned id and for the subject's version; a part left out
 *       is inherited from the subject's latest version, as Confluent's registry does. Rules are normalized as
 *       Confluent stores them ({@code kind} TRANSFORM, {@code mode} WRITEREAD and {@code disabled} false by
 *       default). The answers of {@code GET /schemas/ids/{id}}, {@code GET /subjects/{s}/versions/{v|latest}} and
 *       {@code POST /subjects/{s}} (lookup) carry the remembered parts.
 *   <li>{@code GET /subjects/{s}/metadata?key=k&value=v...}: the latest version whose metadata properties hold
 *       every pair, else 404 with error code 40401.
 *   <li>{@code /associations/...}: always 404 with error code 40401, so that clients that ask for associations
 *       first (Confluent's JavaScript client by default) fall back to the topic name strategy.
 *   <li>A DEK registry ({@code /dek-registry/v1}): create and read KEKs, create DEKs (both paths), read a DEK's
 *       latest version, its version list and a version (a number, {@code -1} or {@code latest}), with Confluent's
 *       JSON, 404 with error code 40470 for a missing key and 409 with 40971 for a key created twice.
 * </ul>
 *
 * <p>Limits, where a real Confluent registry differs:
 *
 * <ul>
 *   <li>Confluent's registry makes the same schema text with a different contract a new version with a new id.
 *       The registry behind this layer sees only the schema text and returns the existing id and version, so the
 *       layer replaces that id's (and version's) contract with the new one: the old contract is gone.
 *   <li>The rules and metadata are stored as given (after the defaults above): no validation of rule names,
 *       modes or actions, no default or override configs, no {@code confluent:version} property, no compatibility
 *       check of rule sets. A register answer carries the id the registry answered and, as Confluent 8's does,
 *       the version's contract.
 *   <li>Contracts of versions registered directly at the registry, not through this layer, are unknown (none).
 *   <li>DEK registry: no shared KEKs (422 with error code 42271), no contexts ({@code ?context=}, 422), no
 *       updates, deletes, undeletes or rewrapping (405); {@code deleted=} is accepted and changes nothing.
 *   <li>Nothing is persisted: everything lives as long as this object.
 * </ul>
 *
 * <p>Thread-safe: requests are served concurrently, and the contracts and keys are guarded. {@link #close()}
 * stops the server.
 */
public final class DataContractLayer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DataContractLayer.class);
  private static final int SUBJECT_NOT_FOUND = 40401;
  private static final int INVALID_SCHEMA = 42201;

  private final String upstream;
  private final HttpServer server;
  private final ExecutorService executor;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Contracts contracts = new Contracts();
  private final DekRegistryDouble dekRegistry;

  private DataContractLayer(String registryUrl, LongSupplier clock) throws IOException {
    String url = registryUrl.endsWith("/") ? registryUrl.substring(0, registryUrl.length() - 1) : registryUrl;
    URI uri = URI.create(url);
    if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException("DataContractLayer needs an http:// registry URL, not '" + registryUrl + "'");
    }
    this.upstream = url;
    this.dekRegistry = new DekRegistryDouble(clock);
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "kavro-data-contract-layer-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::serve);
    server.setExecutor(executor);
    server.start();
  }

  /**
   * Starts a layer in front of {@code registryUrl} (an {@code http://} URL of a Confluent-compatible API, with or
   * without a path).
   *
   * @throws IOException when no port can be opened on 127.0.0.1
   * @throws IllegalArgumentException when the URL is not an {@code http://} URL
   */
  public static DataContractLayer start(String registryUrl) throws IOException {
    return new DataContractLayer(registryUrl, System::currentTimeMillis);
  }

  /** As {@link #start(String)}, with the clock that stamps KEKs and DEKs ({@code ts}), for tests. */
  static DataContractLayer start(String registryUrl, LongSupplier clock) throws IOException {
    return new DataContractLayer(registryUrl, clock);
  }

  /** The layer's URL, for {@code schema.registry.url} or a client's base URL: {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Stops the server; what it remembered is gone. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange; InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readAllBytes();
      Answer answer;
      try {
        answer = route(exchange, body);
      } catch (IOException e) {
        log.warn("DataContractLayer could not reach or read the registry at {}: {}", upstream, e.toString());
        answer = Answer.error(502, 50201, "DataContractLayer could not reach or read the registry: " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        answer = Answer.error(503, 50301, "DataContractLayer was interrupted");
      } catch (RuntimeException e) {
        log.warn("DataContractLayer failed on {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
        answer = Answer.error(500, 50001, "DataContractLayer failed: " + e);
      }
      if (answer.contentType() != null) {
        exchange.getResponseHeaders().set("Content-Type", answer.contentType());
      }
      exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer.body());
      }
    }
  }

  private Answer route(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
    String method = exchange.getRequestMethod();
    URI uri = exchange.getRequestURI();
    List<String> path = segments(uri.getRawPath());
    Map<String, List<String>> query = query(uri.getRawQuery());
    int size = path.size();
    String first = size == 0 ? "" : path.get(0);
    if (first.equals("dek-registry") && size >= 2 && path.get(1).equals("v1")) {
      return dekRegistry.handle(method, path.subList(2, size), single(query), objectOrNull(body));
    } else if (first.equals("associations")) {
      return Answer.error(404, SUBJECT_NOT_FOUND, "DataContractLayer keeps no associations");
    } else if (first.equals("subjects") && size == 3 && method.equals("POST") && path.get(2).equals("versions")) {
      return register(path.get(1), uri.getRawQuery(), body, exchange);
    } else if (first.equals("subjects") && size == 2 && method.equals("POST")) {
      return lookUp(path.get(1), uri, body, exchange);
    } else if (first.equals("subjects") && size == 4 && method.equals("GET") && path.get(2).equals("versions")) {
      return withContract(forward(exchange, body), answer -> contractOfVersion(path.get(1), answer));
    } else if (first.equals("subjects") && size == 3 && method.equals("GET") && path.get(2).equals("metadata")) {
      return latestWithMetadata(path.get(1), query, exchange);
    } else if (first.equals("schemas") && size == 3 && method.equals("GET") && path.get(1).equals("ids")) {
      return withContract(forward(exchange, body), answer -> contracts.ofId(answerId(path.get(2))));
    }
    return forward(exchange, body);
  }

  private Answer register(String subject, String rawQuery, byte[] body, HttpExchange exchange)
      throws IOException, InterruptedException {
    ObjectNode request = objectOrNull(body);
    if (request == null) {
      return forward(exchange, body);
    }
    JsonNode metadata = request.remove("metadata");
    JsonNode ruleSet = request.remove("ruleSet");
    for (JsonNode part : new JsonNode[] {metadata, ruleSet}) {
      if (part != null && !part.isNull() && !part.isObject()) {
        return Answer.error(422, INVALID_SCHEMA, "Invalid schema: metadata and ruleSet must be JSON objects");
      }
    }
    Contract given = new Contract(metadata instanceof ObjectNode m ? m : null,
        ruleSet instanceof ObjectNode r ? Contracts.normalizeRuleSet(r) : null);
    String subjectPath = "/subjects/" + encode(subject);
    Contract previous = Contract.NONE;
    Answer latest = send("GET", subjectPath + "/versions/latest", null, exchange);
    if (latest.ok()) {
      previous = contractOfVersion(subject, latest);
    }
    byte[] stripped = Answer.JSON.writeValueAsBytes(request);
    Answer registered = send("POST", subjectPath + "/versions" + (rawQuery == null ? "" : "?" + rawQuery), stripped,
        exchange);
    if (!registered.ok()) {
      return registered;
    }
    Answer found = send("POST", subjectPath, stripped, exchange);
    JsonNode version = found.ok() ? Answer.JSON.readTree(found.body()).get("version") : null;
    JsonNode id = Answer.JSON.readTree(registered.body()).get("id");
    if (version == null || !version.canConvertToInt() || id == null || !id.canConvertToInt()) {
      return Answer.error(502, 50201, "DataContractLayer could not learn the id and version of the schema just "
          + "registered under subject '" + subject + "' (lookup answered " + found.status() + ")");
    }
    Contract kept = given.orElse(previous);
    contracts.put(subject, version.intValue(), id.intValue(), kept);
    // As Confluent 8 answers a registration: with the version's contract, which a registering serializer runs.
    return withContract(registered, answer -> kept);
  }

  private Answer lookUp(String subject, URI uri, byte[] body, HttpExchange exchange)
      throws IOException, InterruptedException {
    ObjectNode request = objectOrNull(body);
    if (request == null) {
      return forward(exchange, body);
    }
    request.remove("metadata");
    request.remove("ruleSet");
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    Answer found = send("POST", target, Answer.JSON.writeValueAsBytes(request), exchange);
    return withContract(found, answer -> contractOfVersion(subject, answer));
  }

  private Answer latestWithMetadata(String subject, Map<String, List<String>> query, HttpExchange exchange)
      throws IOException, InterruptedException {
    List<String> keys = query.getOrDefault("key", List.of());
    List<String> values = query.getOrDefault("value", List.of());
    if (keys.size() != values.size()) {
      return Answer.error(422, INVALID_SCHEMA, "Each key= needs a value= (" + keys.size() + " keys, "
          + values.size() + " values)");
    }
    Map<String, String> pairs = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      pairs.put(keys.get(i), values.get(i));
    }
    String subjectPath = "/subjects/" + encode(subject);
    Answer listed = send("GET", subjectPath + "/versions", null, exchange);
    if (listed.ok()) {
      List<Integer> versions = new ArrayList<>();
      Answer.JSON.readTree(listed.body()).forEach(v -> versions.add(v.asInt()));
      versions.sort(java.util.Comparator.reverseOrder());
      for (int version : versions) {
        Contract contract = contracts.of(subject, version);
        if (contract.hasProperties(pairs)) {
          return withContract(send("GET", subjectPath + "/versions/" + version, null, exchange), a -> contract);
        }
      }
    }
    return Answer.error(404, SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found: no version has the metadata "
        + "properties " + pairs);
  }

  /** The contract of the subject's version that a registry answer names, or none. */
  private Contract contractOfVersion(String subject, Answer answer) throws IOException {
    JsonNode version = Answer.JSON.readTree(answer.body()).get("version");
    return version != null && version.canConvertToInt() ? contracts.of(subject, version.intValue()) : Contract.NONE;
  }

  private static int answerId(String id) {
    try {
      return Integer.parseInt(id);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private interface ContractOf {
    Contract of(Answer answer) throws IOException;
  }

  /** A successful JSON-object answer with the contract's parts added; any other answer as it is. */
  private static Answer withContract(Answer answer, ContractOf contractOf) throws IOException {
    if (!answer.ok()) {
      return answer;
    }
    JsonNode node;
    try {
      node = Answer.JSON.readTree(answer.body());
    } catch (IOException e) {
      return answer;
    }
    if (!(node instanceof ObjectNode object)) {
      return answer;
    }
    Contract contract = contractOf.of(answer);
    if (contract.metadata() == null && contract.ruleSet() == null) {
      return answer;
    }
    contract.addTo(object);
    return Answer.json(answer.status(), object);
  }

  private Answer forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
    URI uri = exchange.getRequestURI();
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    return send(exchange.getRequestMethod(), target, body, exchange);
  }

  /** Sends a request to the registry, with the client's content type, accept and authorization headers. */
  private Answer send(String method, String pathAndQuery, byte[] body, HttpExchange exchange)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + pathAndQuery))
        .timeout(Duration.ofSeconds(30))
        .method(method, body == null || body.length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    for (String header : new String[] {"Content-Type", "Accept", "Authorization"}) {
      String value = exchange.getRequestHeaders().getFirst(header);
      if (value != null) {
        request.header(header, value);
      }
    }
    if (body != null && body.length > 0 && exchange.getRequestHeaders().getFirst("Content-Type") == null) {
      request.header("Content-Type", "application/vnd.schemaregistry.v1+json");
    }
    HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.body(),
        response.headers().firstValue("Content-Type").orElse(null));
  }

  private static ObjectNode objectOrNull(byte[] body) {
    try {
      return body.length == 0 ? null : Answer.JSON.readTree(body) instanceof ObjectNode object ? object : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static List<String> segments(String rawPath) {
    List<String> segments = new ArrayList<>();
    for (String segment : rawPath.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(decode(segment));
      }
    }
    return segments;
  }

  private static Map<String, List<String>> query(String rawQuery) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int equals = pair.indexOf('=');
        String key = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
        String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
        query.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      }
    }
    return query;
  }

  private static Map<String, String> single(Map<String, List<String>> query) {
    Map<String, String> single = new LinkedHashMap<>();
    query.forEach((key, values) -> single.put(key, values.get(values.size() - 1)));
    return single;
  }

  private static String decode(String segment) {
    return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
