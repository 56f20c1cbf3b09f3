package io.kavro.registry.internal.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.OAuthTokenRefusedException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.config.BearerTokenProvider;
import io.kavro.registry.config.OAuthSettings;
import io.kavro.registry.internal.http.JsonBodies;
import io.kavro.registry.internal.http.ProxyRefusal;
import io.kavro.registry.internal.http.RestTransport;
import io.kavro.registry.internal.http.RetryPolicy;
import io.kavro.registry.internal.http.Urls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
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
 * when no valid token is left do callers wait, for one fetch, at most the registry request's own timeout, and
 * share its outcome. A failed fetch is remembered with a backoff that doubles with each failure in a row: until
 * it ends, callers get that failure and the issuer gets no request; a failed refresh ahead of expiry likewise, while
 * the valid token serves. A token that arrives expired is a failure. A 401 from the registry drops the token,
 * at most once per {@link #REAUTHORIZE_INTERVAL}. The issuer's answer is read up to 1 MiB.
 *
 * <p>The expiry comes from {@code expires_in}, or else from the JWT's {@code exp} claim. A JWT is checked as
 * Confluent's {@code ClientJwtValidator} checks it: {@code exp} is a number, the subject claim is a non-empty
 * string, and the scope claim, when present, is a string or a list of strings.
 *
 * <p>Neither the client secret nor a token is ever logged or put in an exception: the issuer's refusals are
 * reported by their {@code error} and {@code error_description} only.
 */
public final class OAuthTokenSource implements BearerTokenProvider {
  private static final Logger log = LoggerFactory.getLogger(OAuthTokenSource.class);
  private static final float LIFE_USED_WHEN_BUFFER_DOES_NOT_FIT = 0.8f;

  private final OAuthSettings settings;
  private final HttpUrl issuer;
  private final Call.Factory http;
  private final RetryPolicy retry;
  private final Clock clock;
  /** The issuer's URL for messages: without user info. */
  private final String shown;
  private final Duration waitLimit;
  private final ReentrantLock fetching = new ReentrantLock();
  private volatile Token current;
  /** The last fetch's failure, given to every caller until its backoff ends: no request meanwhile. */
  private volatile Failure failure;
  private int failuresInARow; // guarded by fetching
  /** Until when a 401 from the registry does not drop the token again (a persistent 401 fetches no token). */
  private volatile long keepAfterUnauthorizedUntil = Long.MIN_VALUE;

  /** A token, when to replace it, and when it stops working. */
  private record Token(String value, long refreshAtMillis, long expiresAtMillis) {}

  /** A failed fetch, and until when it stands for the next ones. */
  private record Failure(SchemaRegistryException error, long untilMillis) {}

  /** How long after dropping a token for a registry's 401 another 401 is reported as it is, with no new token. */
  static final Duration REAUTHORIZE_INTERVAL = Duration.ofSeconds(30);

  /**
   * @param waitLimit the longest a caller waits for a token, when none is valid: the registry request's own
   *     timeout
   */
  public OAuthTokenSource(OAuthSettings settings, Call.Factory http, RetryPolicy retry, Clock clock,
      Duration waitLimit) {
    this.settings = settings;
    this.issuer = HttpUrl.parse(settings.issuerEndpoint());
    if (issuer == null) {
      throw new io.kavro.registry.config.RegistryConfigException(
          io.kavro.registry.config.RegistryConfig.BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG, "Invalid value "
          + Urls.redact(settings.issuerEndpoint()) + " for configuration "
          + io.kavro.registry.config.RegistryConfig.BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG + ": not an http(s) URL");
    }
    this.shown = Urls.withoutUserInfo(issuer).toString();
    this.http = http;
    this.retry = retry;
    this.clock = clock;
    this.waitLimit = waitLimit;
  }

  @Override
  public String token() {
    Token token = current;
    long now = clock.millis();
    if (token != null && now < token.refreshAtMillis()) {
      return token.value();
    }
    if (token != null && now < token.expiresAtMillis()) {
      refreshAhead(token, now);
      Token replaced = current;
      return replaced != null ? replaced.value() : token.value();
    }
    return awaitToken();
  }

  /**
   * Refreshes ahead of expiry: one caller at a time, one request and no retry (the current token is still
   * valid), and a failure is remembered with backoff, so that the next callers do not block on the issuer.
   */
  private void refreshAhead(Token token, long now) {
    Failure failed = failure;
    if (failed != null && now < failed.untilMillis() || !fetching.tryLock()) {
      return;
    }
    try {
      if (current == token) {
        succeeded(fetch(false));
      }
    } catch (SchemaRegistryException e) {
      failed(e);
      log.warn("Could not refresh the OAuth token from {} ahead of its expiry; the current one is valid "
          + "for {} ms more: {}", shown, token.expiresAtMillis() - now, e.getMessage());
    } finally {
      fetching.unlock();
    }
  }

  /**
   * With no valid token: one fetch at a time, the others wait for it, at most {@link #waitLimit}, and share its
   * failure, which stands until its backoff ends.
   */
  private String awaitToken() {
    try {
      if (!fetching.tryLock(waitLimit.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new RegistryUnavailableException("no OAuth token from " + shown + " within " + waitLimit.toMillis()
            + " ms: another request for one is still under way", -1, -1, shown, null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryInterruptedException("interrupted while waiting for an OAuth token from " + shown,
          shown, e);
    }
    try {
      long now = clock.millis();
      Token fetched = current;
      if (fetched != null && now < fetched.expiresAtMillis()) {
        return fetched.value();
      }
      Failure failed = failure;
      if (failed != null && now < failed.untilMillis()) {
        throw again(failed);
      }
      try {
        return succeeded(fetch(true)).value();
      } catch (SchemaRegistryException e) {
        failed(e);
        throw e;
      }
    } finally {
      fetching.unlock();
    }
  }

  private Token succeeded(Token token) {
    current = token;
    failure = null;
    failuresInARow = 0;
    return token;
  }

  /** Remembers a failed fetch for a backoff that doubles with each failure in a row (capped). */
  private void failed(SchemaRegistryException e) {
    if (e instanceof RegistryInterruptedException) {
      return;
    }
    failure = new Failure(e, clock.millis() + retry.ceilingMillis(failuresInARow++));
  }

  /** The remembered failure, for another caller: the same type and words, said to be remembered. */
  private SchemaRegistryException again(Failure failed) {
    SchemaRegistryException e = failed.error();
    String message = e.getMessage() + " (the last request for a token failed so; the next one goes out in "
        + Math.max(0, failed.untilMillis() - clock.millis()) + " ms)";
    return e instanceof RegistryUnavailableException
        ? new RegistryUnavailableException(message, e.status(), e.errorCode(), e.url(), null)
        : new OAuthTokenRefusedException(message, e.status(), e.errorCode(), e.url(), null);
  }

  /**
   * The registry refused {@code token}: it is dropped, so that the next request fetches a new one, unless a
   * token was dropped so within {@link #REAUTHORIZE_INTERVAL}: then a registry that refuses every token
   * costs no token fetch per request, and its 401 is reported as it is.
   */
  @Override
  public void unauthorized(String token) {
    Token held = current;
    long now = clock.millis();
    if (held != null && held.value().equals(token) && now >= keepAfterUnauthorizedUntil) {
      keepAfterUnauthorizedUntil = now + REAUTHORIZE_INTERVAL.toMillis();
      current = null;
    }
  }

  /**
   * One token from the issuer; with {@code retries}, the retry policy's retries, as long as the backoff ends
   * within {@link #waitLimit} of the first attempt.
   */
  private Token fetch(boolean retries) {
    long deadline = System.nanoTime() + waitLimit.toNanos();
    for (int attempt = 0; ; attempt++) {
      SchemaRegistryException failure;
      try (Response response = http.newCall(request()).execute()) {
        String body = readBody(response);
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
          throw new RegistryInterruptedException("interrupted while getting an OAuth token from " + issuer, shown, e);
        }
        if (ProxyRefusal.in(e)) {
          throw new OAuthTokenRefusedException("cannot get an OAuth token from " + shown + ": " + ProxyRefusal.WHY,
              ProxyRefusal.STATUS, -1, shown, null);
        }
        failure = new RegistryUnavailableException("cannot get an OAuth token from " + shown + ": "
            + e.getClass().getSimpleName() + ": " + e.getMessage(), -1, -1, shown, null);
      }
      long backoff = retry.backoffMillis(attempt, ThreadLocalRandom.current().nextDouble());
      if (!retries || attempt >= retry.maxRetries()
          || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) > deadline) {
        throw failure;
      }
      try {
        Thread.sleep(backoff);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RegistryInterruptedException("interrupted while getting an OAuth token from " + issuer, shown, e);
      }
    }
  }

  /** The issuer's answer, at most {@link #MAX_BODY_BYTES}: a token response is small. */
  private String readBody(Response response) throws IOException {
    okio.BufferedSource source = response.body().source();
    if (source.request(MAX_BODY_BYTES + 1)) {
      throw new IOException("the OAuth issuer's answer is larger than " + MAX_BODY_BYTES + " bytes");
    }
    return source.getBuffer().readUtf8();
  }

  private static final long MAX_BODY_BYTES = 1 << 20;

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
    JsonNode json = JsonBodies.tryParse(body);
    String why = json == null ? "" : (": " + json.path("error").asText("") + " "
        + json.path("error_description").asText("")).stripTrailing();
    String message = "the OAuth issuer " + shown + " refused the client credentials of client id '"
        + settings.clientId() + "' with HTTP " + status + why;
    if (status == 408 || status == 429 || status >= 500) {
      return new RegistryUnavailableException(message, status, -1, shown, null);
    }
    return new OAuthTokenRefusedException(message, status, -1, shown, null);
  }

  private Token parse(String body) {
    JsonNode json = JsonBodies.tryParse(body);
    if (json == null) {
      // The body is not shown: it may hold a token, before or after what made it not JSON.
      throw new OAuthTokenRefusedException("the OAuth issuer " + shown + " answered a success whose body is not "
          + "one JSON value (not shown: it may hold a token)", 200, -1, shown, null);
    }
    String value = json.path("access_token").asText("");
    if (value.isEmpty()) {
      throw new OAuthTokenRefusedException("the OAuth issuer " + shown + " answered without an access_token",
          200, -1, shown, null);
    }
    JsonNode claims = jwtClaims(value);
    long now = clock.millis();
    long expiresAt;
    if (json.path("expires_in").canConvertToLong() && json.path("expires_in").asLong() > 0) {
      long expiresIn = json.path("expires_in").asLong();
      // A lifetime too long to count in milliseconds is as good as forever.
      expiresAt = expiresIn > (Long.MAX_VALUE - now) / 1000 ? Long.MAX_VALUE : now + expiresIn * 1000;
    } else if (claims != null && claims.path("exp").isNumber()) {
      expiresAt = (long) Math.min(claims.path("exp").asDouble() * 1000, (double) Long.MAX_VALUE);
    } else {
      throw invalidToken("it has neither expires_in nor a JWT exp claim");
    }
    if (expiresAt <= now) {
      throw invalidToken("it expired before it arrived (its exp is " + (now - expiresAt) / 1000 + " s in the past; "
          + "is this machine's clock right?)");
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
      JsonNode claims = JsonBodies.tryParse(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
      return claims != null && claims.isObject() ? claims : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private RegistryAccessDeniedException invalidToken(String why) {
    return new OAuthTokenRefusedException("the OAuth issuer " + shown + " gave a token that cannot be used: "
        + why, 200, -1, shown, null);
  }
}
