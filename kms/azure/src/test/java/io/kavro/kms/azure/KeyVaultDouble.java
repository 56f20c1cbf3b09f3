package io.kavro.kms.azure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * A double of Azure Key Vault's REST API and of Entra ID's token endpoint, over HTTPS on 127.0.0.1, answering for
 * the host names of {@code src/test/resources/hosts}. It does what the services do, as far as the driver sees:
 * Key Vault's challenge (an unauthenticated request draws 401 with {@code WWW-Authenticate: Bearer
 * authorization=..., resource="https://vault.azure.net"}), Entra ID's instance discovery and client-credentials
 * token endpoint (a wrong client secret draws 401 {@code invalid_client}), {@code GET keys/{name}[/{version}]}
 * (the JWK of a real RSA key), and {@code encrypt}/{@code decrypt} with real RSA-OAEP-256, so a wrong key or
 * algorithm fails; a disabled key version draws 403. It can be told to throttle (429 with {@code Retry-After}, or
 * 503), logs every request ({@code METHOD host path}, without the query) and every encrypt or decrypt it did
 * ({@link #crypto()}). Thread-safe.
 */
final class KeyVaultDouble extends Dispatcher {
  static final String TENANT = "7f0c5b7e-1d3a-4c1e-9a51-3b1f2f0a9c11";
  static final String CLIENT = "0d2b8d2e-5c4a-4a1e-b7f3-2c7f6d5e4a3b";
  static final String ALGORITHM = "RSA-OAEP-256";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

  private final String clientSecret;
  private final Map<String, List<Version>> keys = new ConcurrentHashMap<>();
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final List<Crypto> crypto = new CopyOnWriteArrayList<>();
  private final AtomicInteger throttles = new AtomicInteger();
  private volatile int throttleStatus = 429;
  private volatile MockWebServer server;

  KeyVaultDouble(String clientSecret) {
    this.clientSecret = clientSecret;
  }

  /** Starts serving HTTPS on {@code server}, and points Azure's authority host at it. */
  KeyVaultDouble serveOn(MockWebServer server) {
    this.server = server;
    server.useHttps(TestTls.SERVER_CERTIFICATES.sslSocketFactory());
    server.setDispatcher(this);
    com.azure.core.util.Configuration.getGlobalConfiguration()
        .put(com.azure.core.util.Configuration.PROPERTY_AZURE_AUTHORITY_HOST, authorityHost());
    return this;
  }

  String authorityHost() {
    return "https://login.microsoftonline.com:" + server.getPort() + "/";
  }

  /** The URL of a key in a vault ({@code kavro} or {@code other}) of the double, without a version. */
  String keyUrl(String vault, String name) {
    return "https://" + vault + ".vault.azure.net:" + server.getPort() + "/keys/" + name;
  }

  /** Adds a new version of a key (a fresh 2048-bit RSA key pair), which becomes its current one; its version. */
  String addVersion(String name) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      String version = UUID.randomUUID().toString().replace("-", "");
      keys.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>())
          .add(new Version(version, generator.generateKeyPair()));
      return version;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Disables (or enables) a key version: Key Vault then refuses every operation with it. */
  void enable(String name, String version, boolean enabled) {
    version(name, version).enabled = enabled;
  }

  /** The next {@code count} Key Vault requests (after authentication) draw {@code status}. */
  void throttle(int count, int status) {
    throttleStatus = status;
    throttles.set(count);
  }

  /** Every request so far: {@code METHOD host path}, oldest first. */
  List<String> requests() {
    return List.copyOf(log);
  }

  /** The Key Vault operations so far ({@code METHOD path}, on any vault), oldest first. */
  List<String> operations() {
    return log.stream().filter(r -> r.contains(".vault.azure.net") && r.contains(" /keys/"))
        .map(r -> r.substring(0, r.indexOf(' ')) + r.substring(r.indexOf(" /keys/"))).toList();
  }

  /** The encrypt and decrypt operations the double did, oldest first. */
  List<Crypto> crypto() {
    return List.copyOf(crypto);
  }

  /** Encrypts with a key version as Key Vault does, for a test to make a DEK as another client would. */
  byte[] encrypt(String name, String version, byte[] plaintext) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance("RSA/ECB/OAEPPadding");
    cipher.init(Cipher.ENCRYPT_MODE, version(name, version).pair.getPublic(), oaep256());
    return cipher.doFinal(plaintext);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String host = request.getHeaders().get("Host");
    String path = request.getUrl().encodedPath();
    log.add(request.getMethod() + " " + (host == null ? "" : host.replaceAll(":\\d+$", "")) + " " + path);
    try {
      if (host != null && host.startsWith("login.microsoftonline.com")) {
        return login(request, path);
      }
      if (host != null && host.contains(".vault.azure.net")) {
        return vault(request, path);
      }
      return json(404, Map.of("error", Map.of("code", "NotFound", "message", "no such host")));
    } catch (Exception e) {
      return json(500, Map.of("error", Map.of("code", "InternalError", "message", String.valueOf(e))));
    }
  }

  private MockResponse login(RecordedRequest request, String path) {
    if (path.equals("/common/discovery/instance")) {
      return json(200, Map.of("tenant_discovery_endpoint", authorityHost() + TENANT + "/v2.0/.well-known/"
          + "openid-configuration", "api-version", "1.1", "metadata", List.of(Map.of("preferred_network",
          "login.microsoftonline.com", "preferred_cache", "login.microsoftonline.com", "aliases",
          List.of("login.microsoftonline.com")))));
    }
    if (path.equals("/" + TENANT + "/oauth2/v2.0/token") && request.getMethod().equals("POST")) {
      Map<String, String> form = form(request.getBody().utf8());
      if (!"client_credentials".equals(form.get("grant_type")) || !CLIENT.equals(form.get("client_id"))
          || !clientSecret.equals(form.get("client_secret"))) {
        return json(401, Map.of("error", "invalid_client", "error_description", "AADSTS7000215: Invalid client "
            + "secret provided. Ensure the secret being sent in the request is the client secret value, not the "
            + "client secret ID, for a secret added to app '" + CLIENT + "'.", "error_codes", List.of(7000215)));
      }
      if (!List.of(form.getOrDefault("scope", "").split(" ")).contains("https://vault.azure.net/.default")) {
        return json(400, Map.of("error", "invalid_scope", "error_description", "AADSTS70011: bad scope "
            + form.get("scope")));
      }
      String token = "tok-" + UUID.randomUUID();
      tokens.add(token);
      return json(200, Map.of("token_type", "Bearer", "expires_in", 3599, "ext_expires_in", 3599,
          "access_token", token));
    }
    return json(404, Map.of("error", "not_found", "error_description", "no such endpoint " + path));
  }

  private MockResponse vault(RecordedRequest request, String path) throws Exception {
    String authorization = request.getHeaders().get("Authorization");
    if (authorization == null || !authorization.startsWith("Bearer ")
        || !tokens.contains(authorization.substring("Bearer ".length()))) {
      return new MockResponse.Builder().code(401)
          .addHeader("WWW-Authenticate", "Bearer authorization=\"https://login.microsoftonline.com/" + TENANT
              + "\", resource=\"https://vault.azure.net\"")
          .addHeader("Content-Type", "application/json")
          .body("{\"error\":{\"code\":\"Unauthorized\",\"message\":\"AKV10000: Request is missing a Bearer or "
              + "PoP token.\"}}").build();
    }
    if (throttles.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      MockResponse.Builder throttled = new MockResponse.Builder().code(throttleStatus)
          .addHeader("Content-Type", "application/json");
      if (throttleStatus == 429) {
        throttled.addHeader("Retry-After", "0").body("{\"error\":{\"code\":\"Throttled\",\"message\":\"Request "
            + "was not processed because too many requests were received. Reason: VaultRequestTypeLimitReached\"}}");
      } else {
        throttled.body("{\"error\":{\"code\":\"ServiceUnavailable\",\"message\":\"The service is unavailable.\"}}");
      }
      return throttled.build();
    }
    String[] segments = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
    if (segments.length < 2 || !segments[0].equals("keys")) {
      return error(404, "NotFound", "no such path " + path);
    }
    List<Version> versions = keys.get(segments[1]);
    if (versions == null || versions.isEmpty()) {
      return error(404, "KeyNotFound", "A key with (name/id) " + segments[1] + " was not found in this key vault.");
    }
    String operation = segments.length == 4 ? segments[3] : segments.length == 3 && isOperation(segments[2])
        ? segments[2] : null;
    String versionId = segments.length >= 3 && !isOperation(segments[2]) ? segments[2] : null;
    Version version = versionId == null ? versions.get(versions.size() - 1)
        : versions.stream().filter(v -> v.id.equals(versionId)).findFirst().orElse(null);
    if (version == null) {
      return error(404, "KeyNotFound", "A key with (name/id) " + segments[1] + "/" + versionId + " was not found "
          + "in this key vault.");
    }
    String kid = "https://" + request.getHeaders().get("Host").replaceAll(":\\d+$", "") + ":" + server.getPort()
        + "/keys/" + segments[1] + "/" + version.id;
    if (operation == null && request.getMethod().equals("GET")) {
      return json(200, Map.of("key", jwk(kid, version), "attributes", Map.of("enabled", version.enabled,
          "created", 1_700_000_000, "updated", 1_700_000_000, "recoveryLevel", "Recoverable")));
    }
    if (operation == null || !request.getMethod().equals("POST")) {
      return error(405, "BadParameter", "unsupported " + request.getMethod() + " " + path);
    }
    if (!version.enabled) {
      return json(403, Map.of("error", Map.of("code", "Forbidden", "message", "Operation " + operation
          + " is not allowed on a disabled key.", "innererror", Map.of("code", "KeyDisabled"))));
    }
    JsonNode body = JSON.readTree(request.getBody().utf8());
    String alg = body.path("alg").asText();
    if (!alg.equals(ALGORITHM)) {
      return error(400, "BadParameter", "The double only does " + ALGORITHM + ", not '" + alg + "'.");
    }
    byte[] value = Base64.getUrlDecoder().decode(body.path("value").asText());
    Cipher cipher = Cipher.getInstance("RSA/ECB/OAEPPadding");
    byte[] result;
    if (operation.equals("encrypt")) {
      cipher.init(Cipher.ENCRYPT_MODE, version.pair.getPublic(), oaep256());
      result = cipher.doFinal(value);
    } else if (operation.equals("decrypt")) {
      cipher.init(Cipher.DECRYPT_MODE, version.pair.getPrivate(), oaep256());
      try {
        result = cipher.doFinal(value);
      } catch (GeneralSecurityException e) {
        return error(400, "BadParameter", "Error while decrypting: the ciphertext is not valid for this key.");
      }
    } else {
      return error(400, "BadParameter", "The double does not do " + operation + ".");
    }
    crypto.add(new Crypto(operation, segments[1], version.id, value, result));
    return json(200, Map.of("kid", kid, "value", B64URL.encodeToString(result)));
  }

  private static boolean isOperation(String segment) {
    return segment.equals("encrypt") || segment.equals("decrypt") || segment.equals("wrapkey")
        || segment.equals("unwrapkey");
  }

  private static Map<String, Object> jwk(String kid, Version version) {
    RSAPublicKey key = (RSAPublicKey) version.pair.getPublic();
    Map<String, Object> jwk = new LinkedHashMap<>();
    jwk.put("kid", kid);
    jwk.put("kty", "RSA");
    jwk.put("key_ops", List.of("encrypt", "decrypt", "wrapKey", "unwrapKey"));
    jwk.put("n", B64URL.encodeToString(unsigned(key.getModulus())));
    jwk.put("e", B64URL.encodeToString(unsigned(key.getPublicExponent())));
    return jwk;
  }

  private static byte[] unsigned(BigInteger value) {
    byte[] bytes = value.toByteArray();
    return bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
  }

  private static OAEPParameterSpec oaep256() {
    return new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);
  }

  private Version version(String name, String id) {
    return keys.getOrDefault(name, List.of()).stream().filter(v -> v.id.equals(id)).findFirst().orElseThrow();
  }

  private static Map<String, String> form(String body) {
    Map<String, String> form = new HashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return form;
  }

  private static MockResponse error(int status, String code, String message) {
    return json(status, Map.of("error", Map.of("code", code, "message", message)));
  }

  private static MockResponse json(int status, Object body) {
    try {
      return new MockResponse.Builder().code(status).addHeader("Content-Type", "application/json; charset=utf-8")
          .body(JSON.writeValueAsString(body)).build();
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * An {@code encrypt} or {@code decrypt} the double did.
   *
   * @param operation {@code encrypt} or {@code decrypt}
   * @param key the key's name
   * @param version the key version used
   * @param sent the value in the request (decoded)
   * @param answered the value in the answer (decoded)
   */
  record Crypto(String operation, String key, String version, byte[] sent, byte[] answered) {
    Crypto {
      sent = sent.clone();
      answered = answered.clone();
    }

    @Override
    public byte[] sent() {
      return sent.clone();
    }

    @Override
    public byte[] answered() {
      return answered.clone();
    }
  }

  private static final class Version {
    final String id;
    final KeyPair pair;
    volatile boolean enabled = true;

    Version(String id, KeyPair pair) {
      this.id = id;
      this.pair = pair;
    }
  }
}
