package io.kavro.kms.gcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A protocol double of Google Cloud KMS's REST API v1 and of Google's OAuth token endpoint, for a MockWebServer.
 *
 * <p>Token endpoint, {@code POST /token}: the service-account flow ({@code grant_type=urn:ietf:params:oauth:
 * grant-type:jwt-bearer}, an RS256 {@code assertion} whose {@code iss} is a known account, signature verified with
 * its public key, {@code aud} this endpoint, a Cloud KMS scope); it issues an opaque bearer token, else answers 400
 * {@code invalid_grant} as Google does.
 *
 * <p>Cloud KMS, {@code POST /v1/{cryptoKey}:encrypt} and {@code :decrypt}, bearer token required (401
 * {@code UNAUTHENTICATED}). It really encrypts: each CryptoKey has versions of random AES-256-GCM keys; a ciphertext
 * is {@code version(4, big-endian) ‖ nonce(12) ‖ ciphertext ‖ tag(16)}, bound to the request's
 * {@code additionalAuthenticatedData} (as Cloud KMS binds it), so a client that sends other associated data than
 * Confluent's cannot read what it wrapped. {@link #rotate} adds a primary version; older ones still decrypt;
 * {@link #disable} disables the primary. Errors are Google's JSON ({@code {"error":{"code","message","status"}}}):
 * 403 {@code PERMISSION_DENIED} for an account not granted the key, 404 {@code NOT_FOUND}, 400
 * {@code FAILED_PRECONDITION} for a disabled version, 400 {@code INVALID_ARGUMENT} for a ciphertext that does not
 * authenticate. Base64 is read in either alphabet and written in the standard one, as Google does.
 *
 * <p>Faults: the next {@link #throttle} Cloud KMS requests get 429 {@code RESOURCE_EXHAUSTED} or 503
 * {@code UNAVAILABLE}; the next {@link #throttleTokens} token requests get 503. Every Cloud KMS request is logged in {@link #requests}. Thread-safe.
 */
final class CloudKmsDouble extends Dispatcher {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

  /** A Cloud KMS request as the double saw it. */
  record Seen(String method, String path, String host, String authorization, JsonNode body) {
    @Override
    public String toString() {
      return method + " " + path;
    }
  }

  final List<Seen> requests = new CopyOnWriteArrayList<>();
  private final Map<String, PublicKey> accounts = new ConcurrentHashMap<>();
  private final Map<String, String> tokens = new ConcurrentHashMap<>();
  private volatile boolean refusingTokens;
  private final Map<String, Set<String>> grants = new ConcurrentHashMap<>();
  private final Map<String, List<byte[]>> keys = new ConcurrentHashMap<>();
  private final Set<String> disabled = ConcurrentHashMap.newKeySet();
  private final AtomicInteger throttled = new AtomicInteger();
  private final AtomicInteger tokenThrottled = new AtomicInteger();
  private volatile int tokenStatus = 503;
  private final AtomicInteger tokensIssued = new AtomicInteger();
  private volatile int throttleStatus = 429;

  /** A service account, with the public key of its private key. */
  CloudKmsDouble account(String email, PublicKey publicKey) {
    accounts.put(email, publicKey);
    return this;
  }

  /** Creates CryptoKey {@code name} with one version, and grants it to {@code emails}. */
  CloudKmsDouble key(String name, String... emails) {
    keys.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>(List.of(newKey())));
    grants.computeIfAbsent(name, k -> ConcurrentHashMap.newKeySet()).addAll(List.of(emails));
    return this;
  }

  /** Adds a version to a key; encrypt uses the newest. */
  void rotate(String name) {
    keys.get(name).add(newKey());
  }

  /** Every token is refused from now on (401 UNAUTHENTICATED), even one just issued. */
  void refuseTokens() {
    refusingTokens = true;
  }

  /** Disables the key's primary version. */
  void disable(String name) {
    disabled.add(name);
  }

  /** The next {@code count} Cloud KMS requests are answered {@code status} (429 or 503). */
  void throttle(int count, int status) {
    throttleStatus = status;
    throttled.set(count);
  }

  /** The next {@code count} token requests are answered 503, as a token endpoint that cannot answer for now. */
  void throttleTokens(int count) {
    throttleTokens(count, 503);
  }

  /** The next {@code count} token requests are answered {@code status} (a gateway's 502 or 504, say). */
  void throttleTokens(int count, int status) {
    tokenStatus = status;
    tokenThrottled.set(count);
  }

  /** How many tokens the token endpoint issued. */
  int tokensIssued() {
    return tokensIssued.get();
  }

  /** The Cloud KMS requests, as {@code "POST /v1/projects/...:encrypt"}. */
  List<String> paths() {
    return requests.stream().map(Seen::toString).toList();
  }

  /** The key version a ciphertext of this double names. */
  static int versionOf(byte[] ciphertext) {
    return ByteBuffer.wrap(ciphertext, 0, 4).getInt();
  }

  /** Encrypts straight into the key, with empty associated data: what Confluent's driver stores for a DEK. */
  byte[] encryptAsConfluent(String name, byte[] plaintext) throws GeneralSecurityException {
    return seal(keys.get(name), plaintext, new byte[0]);
  }

  /** Decrypts straight from the key, with empty associated data: what Confluent's driver reads. */
  byte[] decryptAsConfluent(String name, byte[] ciphertext) throws GeneralSecurityException {
    return open(keys.get(name), ciphertext, new byte[0]);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getUrl().encodedPath();
    String text;
    try {
      text = body(request);
    } catch (IOException e) {
      return error(400, "INVALID_ARGUMENT", "Invalid gzip payload received.");
    }
    if (path.equals("/token")) {
      if (tokenThrottled.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return json(tokenStatus, JSON.createObjectNode().put("error", "temporarily_unavailable"));
      }
      return token(text);
    }
    JsonNode body;
    try {
      body = text.isEmpty() ? JSON.createObjectNode() : JSON.readTree(text);
    } catch (IOException e) {
      return error(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
    }
    String authorization = request.getHeaders().get("Authorization");
    requests.add(new Seen(request.getMethod(), path, request.getHeaders().get("Host"), authorization, body));
    if (throttled.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return throttleStatus == 429
          ? error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Cryptographic requests' and limit "
              + "'Cryptographic requests per minute' of service 'cloudkms.googleapis.com'.")
          : error(throttleStatus, "UNAVAILABLE", "The service is currently unavailable.");
    }
    int colon = path.lastIndexOf(':');
    if (!"POST".equals(request.getMethod()) || !path.startsWith("/v1/") || colon < 0) {
      return error(404, "NOT_FOUND", "Requested entity was not found.");
    }
    String name = path.substring("/v1/".length(), colon);
    String operation = path.substring(colon + 1);
    String email = authorization != null && authorization.startsWith("Bearer ")
        ? tokens.get(authorization.substring("Bearer ".length())) : null;
    if (email == null || refusingTokens) {
      return error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 "
          + "access token, login cookie or other valid authentication credential.");
    }
    List<byte[]> versions = keys.get(name);
    String permission = "cloudkms.cryptoKeyVersions.useTo" + (operation.equals("encrypt") ? "Encrypt" : "Decrypt");
    if (versions != null && !grants.get(name).contains(email)) {
      return error(403, "PERMISSION_DENIED", "Permission '" + permission + "' denied on resource '" + name
          + "' (or it may not exist).");
    }
    if (versions == null) {
      return error(404, "NOT_FOUND", name + " not found.");
    }
    try {
      byte[] aad = decode(body.path("additionalAuthenticatedData").asText(""));
      ObjectNode answer = JSON.createObjectNode();
      if (operation.equals("encrypt")) {
        if (disabled.contains(name)) {
          return error(400, "FAILED_PRECONDITION", name + "/cryptoKeyVersions/" + versions.size()
              + " is not enabled, current state is: DISABLED.");
        }
        byte[] ciphertext = seal(versions, decode(body.path("plaintext").asText()), aad);
        answer.put("name", name + "/cryptoKeyVersions/" + versions.size())
            .put("ciphertext", Base64.getEncoder().encodeToString(ciphertext)).put("protectionLevel", "SOFTWARE");
        return json(200, answer);
      }
      if (operation.equals("decrypt")) {
        byte[] plaintext = open(versions, decode(body.path("ciphertext").asText()), aad);
        answer.put("plaintext", Base64.getEncoder().encodeToString(plaintext)).put("protectionLevel", "SOFTWARE");
        return json(200, answer);
      }
      return error(404, "NOT_FOUND", "Requested entity was not found.");
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return error(400, "INVALID_ARGUMENT", "Decryption failed: the ciphertext is invalid.");
    }
  }

  /** The body, gunzipped when sent so (google-api-client gzips its requests). */
  private static String body(RecordedRequest request) throws IOException {
    if (request.getBody() == null) {
      return "";
    }
    byte[] bytes = request.getBody().toByteArray();
    if ("gzip".equalsIgnoreCase(request.getHeaders().get("Content-Encoding"))) {
      try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
        bytes = in.readAllBytes();
      }
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private MockResponse token(String form) {
    Map<String, String> fields = new HashMap<>();
    for (String pair : form.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        fields.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    String[] jwt = fields.getOrDefault("assertion", "").split("\\.");
    if (!JWT_BEARER.equals(fields.get("grant_type")) || jwt.length != 3) {
      return tokenError("unsupported_grant_type", "Invalid grant_type.");
    }
    try {
      JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(jwt[1]));
      PublicKey key = accounts.get(claims.path("iss").asText());
      Signature signature = Signature.getInstance("SHA256withRSA");
      if (key == null) {
        return tokenError("invalid_grant", "Invalid grant: account not found");
      }
      signature.initVerify(key);
      signature.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
      if (!signature.verify(Base64.getUrlDecoder().decode(jwt[2]))) {
        return tokenError("invalid_grant", "Invalid JWT Signature.");
      }
      if (!claims.path("aud").asText().endsWith("/token") || !claims.path("scope").asText().contains("cloud")
          || claims.path("exp").asLong() * 1000 < System.currentTimeMillis()) {
        return tokenError("invalid_grant", "Invalid JWT: audience, scope or expiry.");
      }
      String token = "ya29.double-" + tokensIssued.incrementAndGet() + "-" + RANDOM.nextInt(1_000_000);
      tokens.put(token, claims.path("iss").asText());
      ObjectNode answer = JSON.createObjectNode().put("access_token", token).put("expires_in", 3599)
          .put("token_type", "Bearer");
      return json(200, answer);
    } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
      return tokenError("invalid_grant", "Invalid JWT.");
    }
  }

  private static byte[] decode(String base64) {
    return base64.indexOf('-') >= 0 || base64.indexOf('_') >= 0
        ? Base64.getUrlDecoder().decode(base64) : Base64.getDecoder().decode(base64);
  }

  private static byte[] seal(List<byte[]> versions, byte[] plaintext, byte[] aad) throws GeneralSecurityException {
    byte[] nonce = new byte[12];
    RANDOM.nextBytes(nonce);
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(versions.get(versions.size() - 1), "AES"),
        new GCMParameterSpec(128, nonce));
    cipher.updateAAD(aad);
    byte[] sealed = cipher.doFinal(plaintext);
    return ByteBuffer.allocate(4 + 12 + sealed.length).putInt(versions.size()).put(nonce).put(sealed).array();
  }

  private static byte[] open(List<byte[]> versions, byte[] ciphertext, byte[] aad) throws GeneralSecurityException {
    if (ciphertext.length < 4 + 12 + 16) {
      throw new GeneralSecurityException("too short");
    }
    int version = versionOf(ciphertext);
    if (version < 1 || version > versions.size()) {
      throw new GeneralSecurityException("unknown version");
    }
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(versions.get(version - 1), "AES"),
        new GCMParameterSpec(128, ciphertext, 4, 12));
    cipher.updateAAD(aad);
    return cipher.doFinal(ciphertext, 16, ciphertext.length - 16);
  }

  private static byte[] newKey() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return key;
  }

  private static MockResponse error(int code, String status, String message) {
    ObjectNode answer = JSON.createObjectNode();
    answer.putObject("error").put("code", code).put("message", message).put("status", status);
    return json(code, answer);
  }

  private static MockResponse tokenError(String error, String description) {
    return json(400, JSON.createObjectNode().put("error", error).put("error_description", description));
  }

  private static MockResponse json(int status, JsonNode body) {
    return new MockResponse.Builder().code(status).setHeader("Content-Type", "application/json; charset=UTF-8")
        .body(body.toString()).build();
  }
}
