package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TEST DOUBLE: Confluent's data-contract API as a thin HTTP layer in front of a Confluent-compatible registry that
 * has none (such as Apicurio's {@code ccompat} API). It listens on 127.0.0.1, forwards every request to the
 * registry, and adds, in memory only:
 *
 * <ul>
 *   <li>Data contracts. {@code POST /subjects/{s}/versions} with {@code metadata} or {@code ruleSet} registers the
 *       schema without them and remembers them for the subject's version; a part left out is inherited from the
 *       subject's latest version, as Confluent's registry does. Rules are normalized as Confluent stores them
 *       ({@code kind} TRANSFORM, {@code mode} WRITEREAD and {@code disabled} false by default). The answers of
 *       {@code GET /schemas/ids/{id}}, {@code GET /subjects/{s}/versions/{v|latest}} and {@code POST /subjects/{s}}
 *       (lookup) carry the remembered parts.
 *   <li>Schema ids that stand for a schema and its contract, as Confluent's do. The registry behind gives the same
 *       schema text one id whatever its contract; the layer answers that id for the schema without a contract, and
 *       an id of its own for each schema with one, in every answer that names the version's id (registration,
 *       lookup, versions, {@code GET /schemas}). So the same schema registered under subject A with rules and under
 *       subject B without is two ids, and a record of A's still reads with A's rules. The ids it makes up count
 *       from a base drawn at random in [1,000,000,000, 2<sup>31</sup> - 10,000,000), so that a layer started again
 *       in front of a registry that outlives it does not give an old id another meaning (two layers meet on one
 *       id with a chance of about (a + b) in 1.1 billion, a and b the ids each made up; a layer makes up at most
 *       10,000,000). {@code GET /schemas/ids/{id}/versions} and {@code /subjects} list the versions that
 *       have that id.
 *   <li>{@code GET /subjects/{s}/metadata?key=k&value=v...}: the latest version whose metadata properties hold
 *       every pair, else 404 with error code 40401.
 *   <li>{@code /associations/...}: always an empty list, Confluent's answer for a topic without associations, so
 *       that clients that ask for associations first (Confluent 8.3's default strategy, Confluent's JavaScript
 *       client) fall back to the topic name strategy.
 *   <li>A DEK registry ({@code /dek-registry/v1}): create and read KEKs, create DEKs (both paths), read a DEK's
 *       latest version, its version list and a version (a number, {@code -1} or {@code latest}), with Confluent's
 *       JSON, 404 with error code 40470 for a missing key and 409 with 40971 for a key created twice.
 * </ul>
 *
 * <p>It serves the API at its root ({@link #url()}) and under the registry URL's path ({@link #registryUrl()},
 * {@code .../apis/ccompat/v7} in front of Apicurio, so that clients recognize the registry); the registry's other
 * paths on its host (every path whose first segment is not one of the Confluent API's: Apicurio's own API, its
 * {@code /ui}, its health) pass through unchanged. An answer of the registry passed on keeps its headers, but for
 * those of the connection (hop by hop) and those the layer sets (length, date).
 *
 * <p>Limits, where a real Confluent registry differs:
 *
 * <ul>
 *   <li>Confluent's registry makes the same schema text with another contract a new version of the subject. The
 *       registry behind this layer keeps one version for one schema text, so the layer gives that version the new
 *       contract and a new id; the old id keeps the old contract, for the records written with it.
 *   <li>The rules and metadata are stored as given (after the defaults above): no validation of rule names,
 *       modes or actions, no default or override configs, no {@code confluent:version} property, no compatibility
 *       check of rule sets. A register answer carries the id and, as Confluent 8's does, the version's contract.
 *   <li>Contracts of versions registered directly at the registry, not through this layer, are unknown (none),
 *       and such a version has the registry's id. A version the registry answers another id for than when it was
 *       registered through the layer (its subject deleted and made again at the registry) has no contract either;
 *       one made again with the same text, which Apicurio 3 gives its former id, keeps the contract. Answers that
 *       list ids without versions ({@code referencedby}) carry the registry's ids.
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
  /** The registry URL's path ({@code /apis/ccompat/v7}), or empty: requests under it at the layer are served too. */
  private final String upstreamPath;
  /** The registry's scheme, host and port, where the registry's other paths are passed on. */
  private final String upstreamOrigin;
  private final HttpServer server;
  private final ExecutorService executor;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Contracts contracts = new Contracts();
  private final DekRegistryDouble dekRegistry;

  private DataContractLayer(String registryUrl, int port, LongSupplier clock) throws IOException {
    String url = registryUrl.endsWith("/") ? registryUrl.substring(0, registryUrl.length() - 1) : registryUrl;
    URI uri = URI.create(url);
    if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException("DataContractLayer needs an http:// registry URL, not '" + registryUrl + "'");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("DataContractLayer's port must be from 0 to 65535, was " + port);
    }
    this.upstream = url;
    this.upstreamPath = uri.getRawPath() == null ? "" : uri.getRawPath();
    this.upstreamOrigin = url.substring(0, url.length() - upstreamPath.length());
    this.dekRegistry = new DekRegistryDouble(clock);
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "kavro-data-contract-layer-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
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
    return new DataContractLayer(registryUrl, 0, System::currentTimeMillis);
  }

  /**
   * As {@link #start(String)}, on {@code port} of 127.0.0.1 (0 for any free port).
   *
   * @throws IOException when the port cannot be opened (another process holds it)
   */
  public static DataContractLayer start(String registryUrl, int port) throws IOException {
    return new DataContractLayer(registryUrl, port, System::currentTimeMillis);
  }

  /** As {@link #start(String)}, with the clock that stamps KEKs and DEKs ({@code ts}), for tests. */
  static DataContractLayer start(String registryUrl, LongSupplier clock) throws IOException {
    return new DataContractLayer(registryUrl, 0, clock);
  }

  /** The layer's URL, for {@code schema.registry.url} or a client's base URL: {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * The layer's URL with the registry URL's path ({@code http://127.0.0.1:<port>/apis/ccompat/v7} in front of
   * Apicurio): served as {@link #url()} is, while the registry's other paths on its host (Apicurio's own API
   * beside the Confluent-compatible one) pass through to it unchanged. A client given this URL sees the registry
   * it knows, with data contracts.
   */
  public String registryUrl() {
    return url() + upstreamPath;
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
      answer.headers().forEach(exchange.getResponseHeaders()::put);
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
    String rawPath = uri.getRawPath();
    String rawQuery = uri.getRawQuery();
    String apiPath = rawPath;
    if (!upstreamPath.isEmpty()) {
      if (rawPath.equals(upstreamPath) || rawPath.startsWith(upstreamPath + "/")) {
        apiPath = rawPath.substring(upstreamPath.length());
      } else if (firstSegment(rawPath).equals(firstSegment(upstreamPath))
          || !CONFLUENT_ROOTS.contains(firstSegment(rawPath))) {
        // Another API or page of the registry's host (Apicurio's own API, its /ui, its health): as it is.
        return send(method, upstreamOrigin + rawPath + (rawQuery == null ? "" : "?" + rawQuery), body, exchange);
      }
    }
    Request request = new Request(method, apiPath, rawQuery, body, exchange);
    List<String> path = segments(apiPath);
    Map<String, List<String>> query = query(rawQuery);
    int size = path.size();
    String first = size == 0 ? "" : path.get(0);
    if (first.equals("dek-registry") && size >= 2 && path.get(1).equals("v1")) {
      return dekRegistry.handle(method, path.subList(2, size), single(query), objectOrNull(body));
    } else if (first.equals("associations")) {
      return Answer.json(200, Answer.JSON.createArrayNode()); // Confluent's answer for a topic without any
    } else if (first.equals("subjects") && size == 3 && method.equals("POST") && path.get(2).equals("versions")) {
      return register(path.get(1), request);
    } else if (first.equals("subjects") && size == 2 && method.equals("POST")) {
      return lookUp(path.get(1), request);
    } else if (first.equals("subjects") && size == 4 && method.equals("GET") && path.get(2).equals("versions")) {
      return asVersion(path.get(1), forward(request));
    } else if (first.equals("subjects") && size == 3 && method.equals("GET") && path.get(2).equals("metadata")) {
      return latestWithMetadata(path.get(1), query, request);
    } else if (first.equals("schemas") && size >= 3 && method.equals("GET") && path.get(1).equals("ids")) {
      return schemaById(path, request);
    } else if (first.equals("schemas") && size == 1 && method.equals("GET")) {
      return withLayerIds(forward(request));
    }
    return forward(request);
  }

  /** A request to the Confluent API the layer serves: its path there (raw) and query. */
  private record Request(String method, String apiPath, String rawQuery, byte[] body, HttpExchange exchange) {
    String query() {
      return rawQuery == null ? "" : "?" + rawQuery;
    }
  }

  private Answer register(String subject, Request request) throws IOException, InterruptedException {
    ObjectNode schema = objectOrNull(request.body());
    if (schema == null) {
      return forward(request);
    }
    JsonNode metadata = schema.remove("metadata");
    JsonNode ruleSet = schema.remove("ruleSet");
    for (JsonNode part : new JsonNode[] {metadata, ruleSet}) {
      if (part != null && !part.isNull() && !part.isObject()) {
        return Answer.error(422, INVALID_SCHEMA, "Invalid schema: metadata and ruleSet must be JSON objects");
      }
    }
    Contract given = new Contract(metadata instanceof ObjectNode m ? m : null,
        ruleSet instanceof ObjectNode r ? Contracts.normalizeRuleSet(r) : null);
    String subjectPath = "/subjects/" + encode(subject);
    Contract previous = Contract.NONE;
    Answer latest = toRegistry("GET", subjectPath + "/versions/latest", null, request);
    if (latest.ok()) {
      previous = contractOfVersion(subject, latest);
    }
    byte[] stripped = Answer.JSON.writeValueAsBytes(schema);
    Answer registered = toRegistry("POST", subjectPath + "/versions" + request.query(), stripped, request);
    if (!registered.ok()) {
      return registered;
    }
    Answer found = toRegistry("POST", subjectPath, stripped, request);
    JsonNode version = found.ok() ? Answer.JSON.readTree(found.body()).get("version") : null;
    JsonNode registryId = Answer.JSON.readTree(registered.body()).get("id");
    if (version == null || !version.canConvertToInt() || registryId == null || !registryId.canConvertToInt()) {
      return Answer.error(502, 50201, "DataContractLayer could not learn the id and version of the schema just "
          + "registered under subject '" + subject + "' (lookup answered " + found.status() + ")");
    }
    Contract kept = given.orElse(previous);
    int id = contracts.put(subject, version.intValue(), registryId.intValue(), kept);
    // As Confluent 8 answers a registration: the id of the schema with this contract, and the contract, which a
    // registering serializer runs.
    ObjectNode answer = (ObjectNode) Answer.JSON.readTree(registered.body());
    answer.put("id", id);
    kept.addTo(answer);
    return Answer.json(registered.status(), answer);
  }

  private Answer lookUp(String subject, Request request) throws IOException, InterruptedException {
    ObjectNode schema = objectOrNull(request.body());
    if (schema == null) {
      return forward(request);
    }
    schema.remove("metadata");
    schema.remove("ruleSet");
    Answer found = toRegistry("POST", request.apiPath() + request.query(), Answer.JSON.writeValueAsBytes(schema),
        request);
    return asVersion(subject, found);
  }

  private Answer latestWithMetadata(String subject, Map<String, List<String>> query, Request request)
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
    Answer listed = toRegistry("GET", subjectPath + "/versions", null, request);
    if (listed.ok()) {
      List<Integer> versions = new ArrayList<>();
      Answer.JSON.readTree(listed.body()).forEach(v -> versions.add(v.asInt()));
      versions.sort(java.util.Comparator.reverseOrder());
      for (int version : versions) {
        if (contracts.registered(subject, version).hasProperties(pairs)) {
          Answer found = toRegistry("GET", subjectPath + "/versions/" + version, null, request);
          if (!found.ok() || contractOfVersion(subject, found).hasProperties(pairs)) {
            return asVersion(subject, found);
          }
        }
      }
    }
    return Answer.error(404, SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found: no version has the metadata "
        + "properties " + pairs);
  }

  /**
   * {@code GET /schemas/ids/{id}[/...]}: the registry's answer about the schema that the layer's id stands for,
   * with the id's contract; its versions and subjects are those whose version the layer answers this id for.
   */
  private Answer schemaById(List<String> path, Request request) throws IOException, InterruptedException {
    int id = answerId(path.get(2));
    if (id < 0) {
      return forward(request);
    }
    int registryId = contracts.registryId(id);
    String tail = path.size() == 3 ? "" : path.get(3);
    if (path.size() > 4 || !(tail.isEmpty() || tail.equals("schema") || tail.equals("versions")
        || tail.equals("subjects"))) {
      return forward(request);
    }
    String idPath = "/schemas/ids/" + registryId;
    if (tail.isEmpty()) {
      return withContract(toRegistry("GET", idPath + request.query(), null, request), contracts.ofId(id));
    } else if (tail.equals("schema")) {
      return toRegistry("GET", idPath + "/schema" + request.query(), null, request);
    }
    Answer versions = toRegistry("GET", idPath + "/versions" + request.query(), null, request);
    if (!versions.ok() || !(Answer.JSON.readTree(versions.body()) instanceof ArrayNode all)) {
      return versions;
    }
    ArrayNode kept = Answer.JSON.createArrayNode();
    Set<String> subjects = new LinkedHashSet<>();
    for (JsonNode entry : all) {
      JsonNode subject = entry.get("subject");
      JsonNode version = entry.get("version");
      if (subject != null && version != null && version.canConvertToInt()
          && contracts.idOf(subject.asText(), version.intValue(), registryId) == id) {
        kept.add(entry);
        subjects.add(subject.asText());
      }
    }
    return Answer.json(200, tail.equals("versions") ? kept : Answer.JSON.valueToTree(subjects));
  }

  /** The contract of the subject's version that a registry answer names, or none. */
  private Contract contractOfVersion(String subject, Answer answer) throws IOException {
    JsonNode found = Answer.JSON.readTree(answer.body());
    JsonNode version = found.get("version");
    JsonNode registryId = found.get("id");
    return version != null && version.canConvertToInt() && registryId != null && registryId.canConvertToInt()
        ? contracts.of(subject, version.intValue(), registryId.intValue()) : Contract.NONE;
  }

  private static int answerId(String id) {
    try {
      return Integer.parseInt(id);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** A successful JSON-object answer with the contract's parts added; any other answer as it is. */
  private static Answer withContract(Answer answer, Contract contract) throws IOException {
    ObjectNode object = okObject(answer);
    if (object == null || (contract.metadata() == null && contract.ruleSet() == null)) {
      return answer;
    }
    contract.addTo(object);
    return Answer.json(answer.status(), object);
  }

  /**
   * A successful answer about one of {@code subject}'s versions ({@code subject}, {@code version}, {@code id},
   * {@code schema}) with the id the layer answers for that version and the version's contract; any other answer
   * as it is.
   */
  private Answer asVersion(String subject, Answer answer) throws IOException {
    ObjectNode object = okObject(answer);
    JsonNode version = object == null ? null : object.get("version");
    if (version == null || !version.canConvertToInt()) {
      return answer;
    }
    JsonNode registryId = object.get("id");
    if (registryId == null || !registryId.canConvertToInt()) {
      return answer;
    }
    object.put("id", contracts.idOf(subject, version.intValue(), registryId.intValue()));
    contracts.of(subject, version.intValue(), registryId.intValue()).addTo(object);
    return Answer.json(answer.status(), object);
  }

  /** A successful answer that lists versions ({@code GET /schemas}), each with the id the layer answers for it. */
  private Answer withLayerIds(Answer answer) throws IOException {
    if (!answer.ok() || !(Answer.JSON.readTree(answer.body()) instanceof ArrayNode all)) {
      return answer;
    }
    for (JsonNode entry : all) {
      if (entry instanceof ObjectNode object && object.hasNonNull("subject") && object.path("version")
          .canConvertToInt() && object.path("id").canConvertToInt()) {
        object.put("id", contracts.idOf(object.get("subject").asText(), object.get("version").intValue(),
            object.get("id").intValue()));
      }
    }
    return Answer.json(answer.status(), all);
  }

  private static ObjectNode okObject(Answer answer) {
    if (!answer.ok()) {
      return null;
    }
    try {
      return Answer.JSON.readTree(answer.body()) instanceof ObjectNode object ? object : null;
    } catch (IOException e) {
      return null;
    }
  }

  private Answer forward(Request request) throws IOException, InterruptedException {
    return toRegistry(request.method(), request.apiPath() + request.query(), request.body(), request);
  }

  /** Sends a request to the registry's Confluent API, at {@code pathAndQuery} under its URL. */
  private Answer toRegistry(String method, String pathAndQuery, byte[] body, Request request)
      throws IOException, InterruptedException {
    return send(method, upstream + pathAndQuery, body, request.exchange());
  }

  /**
   * The first segments of the Confluent API's paths, which the layer serves at its root too; a path that starts
   * otherwise under the registry's host goes there as it is.
   */
  private static final Set<String> CONFLUENT_ROOTS = Set.of("", "subjects", "schemas", "config", "mode",
      "compatibility", "contexts", "dek-registry", "associations", "exporters", "v1");

  /**
   * The headers of an answer that are not passed on: those of the registry's connection to the layer (hop by hop)
   * and those the layer sets itself (length, date, content type).
   */
  private static final Set<String> NOT_PASSED_BACK = Set.of("connection", "keep-alive", "proxy-authenticate",
      "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "content-length",
      "date", "content-type");

  /**
   * The headers of a client's request that are not passed on: those of its connection to the layer, and
   * {@code Accept-Encoding}, as the layer reads the registry's answers.
   */
  private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "expect", "host",
      "upgrade", "keep-alive", "te", "trailer", "transfer-encoding", "proxy-authorization", "proxy-connection",
      "http2-settings", "accept-encoding", "date", "from", "origin", "referer", "via", "warning");

  /** Sends a request to {@code url}, with the client's headers (its content type, auth, Apicurio's own). */
  private Answer send(String method, String url, byte[] body, HttpExchange exchange)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(30))
        .method(method, body == null || body.length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    exchange.getRequestHeaders().forEach((header, values) -> {
      if (!NOT_FORWARDED.contains(header.toLowerCase(java.util.Locale.ROOT))) {
        values.forEach(value -> request.header(header, value));
      }
    });
    if (body != null && body.length > 0 && exchange.getRequestHeaders().getFirst("Content-Type") == null) {
      request.header("Content-Type", "application/vnd.schemaregistry.v1+json");
    }
    HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    Map<String, List<String>> headers = new LinkedHashMap<>();
    response.headers().map().forEach((header, values) -> {
      if (!header.startsWith(":") && !NOT_PASSED_BACK.contains(header.toLowerCase(java.util.Locale.ROOT))) {
        headers.put(header, List.copyOf(values));
      }
    });
    return new Answer(response.statusCode(), response.body(),
        response.headers().firstValue("Content-Type").orElse(null), headers);
  }

  private static ObjectNode objectOrNull(byte[] body) {
    try {
      return body.length == 0 ? null : Answer.JSON.readTree(body) instanceof ObjectNode object ? object : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static String firstSegment(String rawPath) {
    for (String segment : rawPath.split("/")) {
      if (!segment.isEmpty()) {
        return segment;
      }
    }
    return "";
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
