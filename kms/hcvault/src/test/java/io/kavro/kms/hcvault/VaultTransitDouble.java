package io.kavro.kms.hcvault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A protocol double of HashiCorp Vault's transit engine and AppRole login (Vault's HTTP API v1), for a
 * MockWebServer. It really encrypts: each named key has versions of random AES-256-GCM keys, and a ciphertext is
 * {@code vault:v<N>:base64(nonce(12) ‖ ciphertext ‖ tag(16))}, as Vault's; {@code rotate} adds a version, and older
 * versions still decrypt. Routes: {@code POST /v1/<mount>/encrypt|decrypt/<name>} ({@code {"plaintext"}} or
 * {@code {"ciphertext"}}, an optional {@code "context"}), {@code POST /v1/<mount>/keys/<name>[/rotate]},
 * {@code POST /v1/auth/approle/login}. Errors are Vault's JSON, {@code {"errors":[...]}}: 403 "permission denied"
 * for a missing or unknown {@code X-Vault-Token} or a wrong {@code X-Vault-Namespace}, 400 for an unknown key (it
 * never creates a key on encrypt, as with a policy without {@code create}) or a ciphertext that does not
 * authenticate.
 *
 * <p>Stricter than Vault on purpose: a non-empty {@code context} is bound to the ciphertext (as a derived key binds
 * it), so a driver that sends associated data cannot read what Confluent's clients wrapped without any. Faults:
 * the next {@link #throttle} requests get the given status. Every request is logged in {@link #requests} (without
 * its token). Thread-safe.
 */
final class VaultTransitDouble extends Dispatcher {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CIPHERTEXT = Pattern.compile("vault:v(\\d+):(.+)");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A request as the double saw it. */
  record Seen(String method, String path, boolean token, String namespace, JsonNode body) {
    @Override
    public String toString() {
      return method + " " + path + (namespace != null ? " ns=" + namespace : "");
    }
  }

  final List<Seen> requests = new CopyOnWriteArrayList<>();
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private final Map<String, List<byte[]>> keys = new ConcurrentHashMap<>();
  private final AtomicInteger throttled = new AtomicInteger();
  private final AtomicInteger logins = new AtomicInteger();
  private volatile int throttleStatus = 429;
  private volatile String namespace;
  private volatile String roleId;
  private volatile String secretId;

  /** A Vault that accepts {@code token}. */
  VaultTransitDouble(String token) {
    tokens.add(token);
  }

  /** Requests must carry this namespace. */
  VaultTransitDouble namespace(String required) {
    this.namespace = required;
    return this;
  }

  /** An AppRole whose login issues a new token. */
  VaultTransitDouble appRole(String role, String secret) {
    this.roleId = role;
    this.secretId = secret;
    return this;
  }

  /** Creates key {@code <mount>/<name>} with one version. */
  VaultTransitDouble key(String mount, String name) {
    keys.computeIfAbsent(mount + "/" + name, k -> new CopyOnWriteArrayList<>(List.of(newKey())));
    return this;
  }

  /** Adds a version to a key; encrypt uses the newest. */
  void rotate(String mount, String name) {
    keys.get(mount + "/" + name).add(newKey());
  }

  /** The next {@code count} requests are answered {@code status}. */
  void throttle(int count, int status) {
    throttleStatus = status;
    throttled.set(count);
  }

  /** Revokes every token (AppRole tokens expire so), except {@code keep}. */
  void revokeAllBut(String keep) {
    tokens.retainAll(Set.of(keep));
  }

  /** How many AppRole logins succeeded. */
  int logins() {
    return logins.get();
  }

  /** The transit requests, as {@code "POST /v1/transit/encrypt/k"}. */
  List<String> paths() {
    return requests.stream().map(Seen::toString).toList();
  }

  /**
   * Encrypts as Confluent's JavaScript client has Vault do it (node-vault: {@code {"name", "plaintext"}}, no
   * context), straight into the keys: what such a client stores as a DEK's wrapped key.
   */
  String encryptWithoutContext(String mount, String name, byte[] plaintext) throws GeneralSecurityException {
    List<byte[]> versions = keys.get(mount + "/" + name);
    return seal(versions, plaintext, new byte[0]);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    List<String> path = request.getUrl().pathSegments();
    JsonNode body;
    try {
      String text = request.getBody() == null ? "" : request.getBody().utf8();
      body = text.isEmpty() ? JSON.createObjectNode() : JSON.readTree(text);
    } catch (IOException e) {
      return errors(400, "failed to parse JSON input: " + e.getMessage());
    }
    String ns = request.getHeaders().get("X-Vault-Namespace");
    requests.add(new Seen(request.getMethod(), "/" + String.join("/", path),
        request.getHeaders().get("X-Vault-Token") != null, ns, body));
    if (throttled.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return errors(throttleStatus, throttleStatus == 429 ? "rate limit quota exceeded" : "Vault is sealed");
    }
    if (!"POST".equals(request.getMethod()) && !"PUT".equals(request.getMethod())
        || path.size() < 4 || !path.get(0).equals("v1")) {
      return errors(404, null);
    }
    if (namespace != null && !namespace.equals(ns)) {
      return errors(403, "permission denied");
    }
    if (String.join("/", path).equals("v1/auth/approle/login")) {
      return login(body);
    }
    String token = request.getHeaders().get("X-Vault-Token");
    if (token == null || !tokens.contains(token)) {
      return errors(403, "permission denied");
    }
    try {
      return transit(path.subList(1, path.size()), body);
    } catch (GeneralSecurityException e) {
      return errors(400, "cipher: message authentication failed");
    }
  }

  private MockResponse login(JsonNode body) {
    if (roleId == null || !roleId.equals(body.path("role_id").asText())
        || !secretId.equals(body.path("secret_id").asText())) {
      return errors(400, "invalid role or secret ID");
    }
    String token = "hvs.login-" + logins.incrementAndGet() + "-" + RANDOM.nextInt(1_000_000);
    tokens.add(token);
    ObjectNode answer = JSON.createObjectNode();
    answer.putObject("auth").put("client_token", token).put("renewable", true).put("lease_duration", 3600);
    return json(200, answer);
  }

  /** {@code <mount...>/<operation>/<name>[/rotate]}. */
  private MockResponse transit(List<String> path, JsonNode body) throws GeneralSecurityException {
    boolean rotate = path.get(path.size() - 1).equals("rotate") && path.size() >= 4
        && path.get(path.size() - 3).equals("keys");
    List<String> rest = rotate ? path.subList(0, path.size() - 1) : path;
    String name = rest.get(rest.size() - 1);
    String operation = rest.get(rest.size() - 2);
    String mount = String.join("/", rest.subList(0, rest.size() - 2));
    if (operation.equals("keys")) {
      if (rotate) {
        rotate(mount, name);
      } else {
        key(mount, name);
      }
      return new MockResponse.Builder().code(204).build();
    }
    List<byte[]> versions = keys.get(mount + "/" + name);
    if (!operation.equals("encrypt") && !operation.equals("decrypt")) {
      return errors(404, null);
    }
    if (versions == null) {
      return errors(400, "encryption key not found");
    }
    byte[] context;
    try {
      context = Base64.getDecoder().decode(body.path("context").asText(""));
    } catch (IllegalArgumentException e) {
      return errors(400, "failed to base64-decode context");
    }
    ObjectNode answer = JSON.createObjectNode();
    ObjectNode data = answer.putObject("data");
    if (operation.equals("encrypt")) {
      byte[] plaintext;
      try {
        plaintext = Base64.getDecoder().decode(body.path("plaintext").asText());
      } catch (IllegalArgumentException e) {
        return errors(400, "failed to base64-decode plaintext");
      }
      data.put("ciphertext", seal(versions, plaintext, context)).put("key_version", versions.size());
      return json(200, answer);
    }
    Matcher matcher = CIPHERTEXT.matcher(body.path("ciphertext").asText());
    if (!matcher.matches()) {
      return errors(400, "invalid ciphertext: no prefix");
    }
    int version = Integer.parseInt(matcher.group(1));
    if (version < 1 || version > versions.size()) {
      return errors(400, "invalid ciphertext: unknown key version");
    }
    byte[] sealed = Base64.getDecoder().decode(matcher.group(2));
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(versions.get(version - 1), "AES"),
        new GCMParameterSpec(128, sealed, 0, 12));
    cipher.updateAAD(context);
    byte[] plaintext = cipher.doFinal(sealed, 12, sealed.length - 12);
    data.put("plaintext", Base64.getEncoder().encodeToString(plaintext));
    return json(200, answer);
  }

  private static String seal(List<byte[]> versions, byte[] plaintext, byte[] context)
      throws GeneralSecurityException {
    byte[] nonce = new byte[12];
    RANDOM.nextBytes(nonce);
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(versions.get(versions.size() - 1), "AES"),
        new GCMParameterSpec(128, nonce));
    cipher.updateAAD(context);
    byte[] sealed = cipher.doFinal(plaintext);
    byte[] out = new byte[12 + sealed.length];
    System.arraycopy(nonce, 0, out, 0, 12);
    System.arraycopy(sealed, 0, out, 12, sealed.length);
    return "vault:v" + versions.size() + ":" + Base64.getEncoder().encodeToString(out);
  }

  private static byte[] newKey() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return key;
  }

  private static MockResponse errors(int status, String error) {
    ObjectNode answer = JSON.createObjectNode();
    var list = answer.putArray("errors");
    if (error != null) {
      list.add(error);
    }
    return json(status, answer);
  }

  private static MockResponse json(int status, JsonNode body) {
    return new MockResponse.Builder().code(status).setHeader("Content-Type", "application/json")
        .body(body.toString()).build();
  }
}
