package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.BearerTokenProvider;
import io.kavro.registry.OAuthSettings;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import okhttp3.Call;
import okhttp3.Credentials;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer tokens from an OAuth 2 issuer by the client credentials grant (RFC 6749, section 4.4), as
 * Confluent's {@code OauthCredentialProvider} gets them.
 *
 * <p>A token is kept until {@link OAuthSettings#expiryBuffer()} before it expires (80 % of its life when it
 * lives shorter than that). From then on, the first caller fetches a new one while the others keep sending the
 * old one, which is still valid: the token is refreshed ahead of its expiry and no request waits for it. Only
 * when no valid token is left do callers wait, for one fetch. A 401 from the registry drops the token.
 *
 * <p>The expiry comes from {@code expires_in}, or else from the JWT's {@code exp} claim. A JWT is checked as
 * Confluent's {@code ClientJwtValidator} checks it: {@code exp} is a number, the subject claim is a non-empty
 * string, and the scope claim, when present, is a string or a list of strings.
 *
 * <p>Neither the client secret nor a token is ever logged or put in an exception: the issuer's refusals are
 * reported by their {@code error} and {@code error_description} only.
 */
final class OAuthTokenSource implements BearerTokenProvider {
  private static final Logger log = LoggerFactory.getLogger(OAuthTokenSource.class);
  private static final float LIFE_USED_WHEN_BUFFER_DOES_NOT_FIT = 0.8f;

  private final OAuthSettings settings;
  private final HttpUrl issuer;
  private final Call.Factory http;
  private final RetryPolicy retry;
  private final Clock clock;
  private final ReentrantLock fetching = new ReentrantLock();
  private volatile Token current;

  /** A token, when to replace it, and when it stops working. */
  private record Token(String value, long refreshAtMillis, long expiresAtMillis) {}

  OAuthTokenSource(OAuthSettings settings, Call.Factory http, RetryPolicy retry, Clock clock) {
    this.settings = settings;
    this.issuer = HttpUrl.parse(settings.issuerEndpoint());
    if (issuer == null) {
      throw new io.kavro.registry.RegistryConfigException(
          io.kavro.registry.RegistryConfig.BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG, "Invalid value "
          + Urls.redact(settings.issuerEndpoint()) + " for configuration "
          + io.kavro.registry.RegistryConfig.BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG + ": not an http(s) URL");
    }
    this.http = http;
    this.retry = retry;
    this.clock = clock;
  }

  @Override
  public String token() {
    Token token = current;
    long now = clock.millis();
    if (token != null && now < token.refreshAtMillis()) {
      return token.value();
    }
    if (token != null && now < token.expiresAtMillis()) {
      if (fetching.tryLock()) { // refresh ahead: this caller fetches, the others keep the valid token
        try {
          if (current == token) {
            current = fetch();
          }
        } catch (SchemaRegistryException e) {
          log.warn("Could not refresh the OAuth token from {} ahead of its expiry; the current one is valid "
              + "for {} ms more: {}", issuer, token.expiresAtMillis() - now, e.getMessage());
        } finally {
          fetching.unlock();
        }
      }
      return current != null ? current.value() : token.value();
    }
    fetching.lock();
    try {
      Token again = current;
      if (again != null && clock.millis() < again.expiresAtMillis()) {
        return again.value();
      }
      Token fresh = fetch();
      current = fresh;
      return fresh.value();
    } finally {
      fetching.unlock();
    }
  }

  @Override
  public void unauthorized(String token) {
    Token held = current;
    if (held != null && held.value().equals(token)) {
      current = null;
    }
  }

  private Token fetch() {
    for (int attempt = 0; ; attempt++) {
      SchemaRegistryException failure;
      try (Response response = http.newCall(request()).execute()) {
        String body = response.body().string();
        if (response.isSuccessful()) {
          return parse(body);
        }
        failure = refusal(response.code(), body);
        if (!(failure instanceof RegistryUnavailableException)) {
          throw failure;
        }
      } catch (IOException e) {
        if (RestTransport.isInterrupt(e)) {
          Thread.currentThread().interrupt();
          throw new RegistryInterruptedException("interrupted while getting an OAuth token from " + issuer, issuer.toString(), e);
        }
        failure = new RegistryUnavailableException("cannot get an OAuth token from " + issuer + ": "
            + e.getClass().getSimpleName() + ": " + e.getMessage(), -1, -1, issuer.toString(), null);
      }
      if (attempt >= retry.maxRetries()) {
        throw failure;
      }
      try {
        Thread.sleep(retry.backoffMillis(attempt, ThreadLocalRandom.current().nextDouble()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RegistryInterruptedException("interrupted while getting an OAuth token from " + issuer, issuer.toString(), e);
      }
    }
  }

  private Request request() {
    FormBody.Builder form = new FormBody.Builder().add("grant_type", "client_credentials");
    if (settings.scope() != null && !settings.scope().isBlank()) {
      form.add("scope", settings.scope());
    }
    return new Request.Builder().url(issuer)
        .header("Authorization", Credentials.basic(settings.clientId(), settings.clientSecret().value(),
            StandardCharsets.UTF_8))
        .header("Accept", "application/json")
        .post(form.build())
        .build();
  }

  /** The issuer's refusal, by its {@code error} and {@code error_description}: never the whole body. */
  private SchemaRegistryException refusal(int status, String body) {
    JsonNode json = Json.tryParse(body);
    String why = json == null ? "" : (": " + json.path("error").asText("") + " "
        + json.path("error_description").asText("")).stripTrailing();
    String message = "the OAuth issuer " + issuer + " refused the client credentials of client id '"
        + settings.clientId() + "' with HTTP " + status + why;
    if (status == 408 || status == 429 || status >= 500) {
      return new RegistryUnavailableException(message, status, -1, issuer.toString(), null);
    }
    return new RegistryAccessDeniedException(message, status, -1, issuer.toString(), null);
  }

  private Token parse(String body) {
    JsonNode json = Json.tryParse(body);
    String value = json == null ? "" : json.path("access_token").asText("");
    if (value.isEmpty()) {
      throw new RegistryAccessDeniedException("the OAuth issuer " + issuer + " answered without an access_token",
          200, -1, issuer.toString(), null);
    }
    JsonNode claims = jwtClaims(value);
    long now = clock.millis();
    long expiresAt;
    if (json.path("expires_in").canConvertToLong() && json.path("expires_in").asLong() > 0) {
      expiresAt = now + json.path("expires_in").asLong() * 1000;
    } else if (claims != null && claims.path("exp").isNumber()) {
      expiresAt = (long) (claims.path("exp").asDouble() * 1000);
    } else {
      throw invalidToken("it has neither expires_in nor a JWT exp claim");
    }
    if (claims != null) {
      validate(claims);
    }
    long buffer = settings.expiryBuffer().toMillis();
    long refreshAt = now + buffer <= expiresAt ? expiresAt - buffer
        : now + (long) Math.floor((expiresAt - now) * LIFE_USED_WHEN_BUFFER_DOES_NOT_FIT);
    return new Token(value, refreshAt, expiresAt);
  }

  /** Confluent's ClientJwtValidator's checks of a JWT's claims. */
  private void validate(JsonNode claims) {
    if (!claims.path("exp").isNumber()) {
      throw invalidToken("its exp claim is not a number");
    }
    JsonNode sub = claims.path(settings.subClaimName());
    if (!sub.isTextual() || sub.asText().isBlank()) {
      throw invalidToken("its subject claim '" + settings.subClaimName() + "' is missing or empty");
    }
    JsonNode scope = claims.path(settings.scopeClaimName());
    boolean validScope = scope.isMissingNode() || scope.isNull() || scope.isTextual()
        || scope.isArray() && java.util.stream.StreamSupport.stream(scope.spliterator(), false)
            .allMatch(JsonNode::isTextual);
    if (!validScope) {
      throw invalidToken("its scope claim '" + settings.scopeClaimName() + "' is neither a string nor a list "
          + "of strings");
    }
  }

  /** The payload of a JWT ({@code header.payload.signature}), or {@code null} for an opaque token. */
  private static JsonNode jwtClaims(String token) {
    String[] parts = token.split("\\.");
    if (parts.length != 3) {
      return null;
    }
    try {
      JsonNode claims = Json.tryParse(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
      return claims != null && claims.isObject() ? claims : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private RegistryAccessDeniedException invalidToken(String why) {
    return new RegistryAccessDeniedException("the OAuth issuer " + issuer + " gave a token that cannot be used: "
        + why, 200, -1, issuer.toString(), null);
  }
}
