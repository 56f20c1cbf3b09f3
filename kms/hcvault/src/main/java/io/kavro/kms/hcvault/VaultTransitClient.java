package io.kavro.kms.hcvault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsResources;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleDeploymentException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * One transit key of a Vault as a {@link KmsClient}, byte for byte as Confluent's drivers use it: a DEK is sent to
 * {@code POST /v1/<mount>/encrypt/<name>} as {@code {"plaintext": base64, "context": ""}} (empty associated data)
 * and stored as the UTF-8 bytes of Vault's {@code vault:v<N>:...} ciphertext, which goes back to
 * {@code /v1/<mount>/decrypt/<name>} as it is. Headers: {@code X-Vault-Token}, and {@code X-Vault-Namespace} when
 * a namespace is set. With an AppRole, the token comes from {@code POST /v1/auth/approle/login} on the first call,
 * and again once when Vault refuses it (403: it expired).
 *
 * <p>Failures: an I/O error or timeout, HTTP 408, 412, 429 and 5xx, a 404 that is not Vault's JSON (a proxy), and
 * a 307 or 308 redirect (a standby node, a proxy) are {@link KmsUnavailableException}s; any other answer is a
 * {@link GeneralSecurityException} that names the key URI, the HTTP status and Vault's {@code errors}, but for an
 * AppRole login that Vault refuses (400 or 403, or its own 404: no AppRole there): a
 * {@link RuleDeploymentException}, thrown (the deployment's credentials, which every key and record meets; a
 * refused token stays a refusal, as Vault's 403 does not tell a bad token from a policy that leaves out this key). A redirect is never followed (the {@code OkHttpClient} must
 * not follow redirects: it would send {@code X-Vault-Token} to another host); its message names the
 * {@code Location}'s scheme, host and port only. No message holds a token, a secret id or key material.
 * Thread-safe. {@link #close()} releases its share of the driver's HTTP client.
 */
final class VaultTransitClient implements KmsClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final MediaType JSON_TYPE = MediaType.get("application/json");
  private static final String CIPHERTEXT_PREFIX = "vault:";
  /** Vault's own reasons are short; a longer one is cut. */
  private static final int MAX_REASON = 300;
  /** Vault's standby nodes redirect with 307; a proxy may with 308. */
  private static final int TEMPORARY_REDIRECT = 307;
  private static final int PERMANENT_REDIRECT = 308;
  private static final int BAD_REQUEST = 400;
  private static final int FORBIDDEN = 403;
  /** Vault's own 404 (its JSON; a proxy's is an outage): no AppRole mounted at the login path. */
  private static final int NOT_FOUND = 404;

  private final OkHttpClient http;
  /** Its share of the driver's HTTP client, released on close. */
  private final KmsResources.Lease<VaultHttp> share;
  private final VaultKey key;
  private final VaultCredentials credentials;
  private volatile String loginToken;

  VaultTransitClient(KmsResources.Lease<VaultHttp> http, VaultKey key, VaultCredentials credentials) {
    this.http = http.get().client();
    this.share = http;
    this.key = key;
    this.credentials = credentials;
  }

  VaultKey key() {
    return key;
  }

  OkHttpClient http() {
    return http;
  }

  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    ObjectNode body = JSON.createObjectNode().put("plaintext", Base64.getEncoder().encodeToString(plaintext))
        .put("context", "");
    JsonNode ciphertext = transit("encrypt", body).path("data").path("ciphertext");
    if (!ciphertext.isTextual() || !ciphertext.asText().startsWith(CIPHERTEXT_PREFIX)) {
      throw new GeneralSecurityException("Vault answered an encrypt with the key " + key
          + " without a vault: ciphertext in data.ciphertext");
    }
    return ciphertext.asText().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    String text = new String(ciphertext, StandardCharsets.UTF_8);
    if (!text.startsWith(CIPHERTEXT_PREFIX)) {
      throw new GeneralSecurityException("the DEK was not wrapped by Vault (no vault: prefix), so the key " + key
          + " cannot decrypt it");
    }
    ObjectNode body = JSON.createObjectNode().put("ciphertext", text).put("context", "");
    JsonNode plaintext = transit("decrypt", body).path("data").path("plaintext");
    if (!plaintext.isTextual()) {
      throw new GeneralSecurityException("Vault answered a decrypt with the key " + key
          + " without data.plaintext");
    }
    try {
      return Base64.getDecoder().decode(plaintext.asText());
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException("Vault answered a decrypt with the key " + key
          + " with a data.plaintext that is not base64");
    }
  }

  private JsonNode transit(String operation, ObjectNode body) throws GeneralSecurityException {
    String what = operation + " with the key " + key;
    String token = token();
    try {
      return post(key.operation(operation), body, token, what);
    } catch (VaultRefusedException e) {
      if (e.status != 403 || !credentials.appRole()) {
        throw e;
      }
      forget(token);
      return post(key.operation(operation), body, token(), what);
    }
  }

  private String token() throws GeneralSecurityException {
    if (!credentials.appRole()) {
      return credentials.token();
    }
    String token = loginToken;
    if (token == null) {
      synchronized (this) {
        token = loginToken;
        if (token == null) {
          token = login();
          loginToken = token;
        }
      }
    }
    return token;
  }

  private synchronized void forget(String stale) {
    if (stale.equals(loginToken)) {
      loginToken = null;
    }
  }

  private String login() throws GeneralSecurityException {
    ObjectNode body = JSON.createObjectNode().put("role_id", credentials.roleId())
        .put("secret_id", credentials.secretId());
    HttpUrl url = key.address().newBuilder().addPathSegments("v1/auth/approle/login").build();
    JsonNode token;
    try {
      token = post(url, body, null, "log in with the AppRole for the key " + key).path("auth").path("client_token");
    } catch (VaultRefusedException e) {
      if (e.status != BAD_REQUEST && e.status != FORBIDDEN && e.status != NOT_FOUND) {
        throw e; // not a refusal of the AppRole's settings: a redirect, ...
      }
      // the AppRole itself refused: the deployment's credentials, which every key and record meets
      throw new RuleDeploymentException(e.getMessage() + " (the AppRole's credentials are refused)");
    }
    if (!token.isTextual() || token.asText().isEmpty()) {
      throw new GeneralSecurityException("Vault answered the AppRole login for the key " + key
          + " without auth.client_token");
    }
    return token.asText();
  }

  private JsonNode post(HttpUrl url, ObjectNode body, String token, String what) throws GeneralSecurityException {
    Request.Builder request = new Request.Builder().url(url).post(RequestBody.create(body.toString(), JSON_TYPE))
        .header("X-Vault-Request", "true");
    if (token != null) {
      request.header("X-Vault-Token", token);
    }
    if (credentials.namespace() != null) {
      request.header("X-Vault-Namespace", credentials.namespace());
    }
    int status;
    JsonNode json;
    String location;
    try (Response response = http.newCall(request.build()).execute()) {
      status = response.code();
      location = response.isRedirect() ? redirectTarget(url, response.header("Location")) : null;
      ResponseBody responseBody = response.body();
      json = parse(responseBody == null ? "" : responseBody.string());
    } catch (IOException e) {
      throw new KmsUnavailableException("cannot " + what + " for now: Vault at " + key.address()
          + " did not answer (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
    }
    if (status >= 200 && status < 300 && json != null) {
      return json;
    }
    if (location != null) {
      String redirect = "Vault answered HTTP " + status + ", a redirect to " + location + ", which the driver does "
          + "not follow (it would send the token to another host): point the key URI at the active node or at a "
          + "load balancer that forwards to it";
      if (status == TEMPORARY_REDIRECT || status == PERMANENT_REDIRECT) {
        throw new KmsUnavailableException("cannot " + what + " for now: " + redirect
            + " (a standby node or a proxy)");
      }
      throw new VaultRefusedException(status, "cannot " + what + ": " + redirect);
    }
    boolean vaults = json != null && json.has("errors");
    String answer = "Vault answered HTTP " + status + (vaults ? ": " + reason(json.get("errors"))
        : json == null ? " (not Vault's JSON)" : "");
    if (status == 408 || status == 412 || status == 429 || status >= 500 || (status == 404 && !vaults)) {
      throw new KmsUnavailableException("cannot " + what + " for now: " + answer);
    }
    throw new VaultRefusedException(status, "cannot " + what + ": " + answer);
  }

  /**
   * Where a redirect points, as {@code scheme://host:port} only: a {@code Location} may carry user info, a path or a
   * query with secrets in them, which no message shows.
   */
  private static String redirectTarget(HttpUrl from, String location) {
    if (location == null) {
      return "nowhere (no Location)";
    }
    HttpUrl target = from.resolve(location);
    return target == null ? "an unreadable Location" : target.scheme() + "://" + target.host() + ":" + target.port();
  }

  private static JsonNode parse(String text) {
    if (text.isBlank()) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(text);
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Vault's {@code errors}, joined and cut to {@link #MAX_REASON}, on one line. */
  private static String reason(JsonNode errors) {
    StringBuilder reason = new StringBuilder();
    for (JsonNode error : errors) {
      reason.append(reason.length() == 0 ? "" : "; ").append(error.asText());
    }
    String line = reason.length() == 0 ? "(no errors given)" : reason.toString().replaceAll("\\s+", " ");
    return line.length() > MAX_REASON ? line.substring(0, MAX_REASON) + "..." : line;
  }

  /** Releases its share of the HTTP client; the last share closes its connections. A second call does nothing. */
  @Override
  public void close() {
    share.close();
  }

  /** The key URI only. */
  @Override
  public String toString() {
    return "Vault transit client of " + key;
  }

  /** Vault's final refusal, with its HTTP status. */
  static final class VaultRefusedException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;
    final int status;

    VaultRefusedException(int status, String message) {
      super(message);
      this.status = status;
    }
  }
}
