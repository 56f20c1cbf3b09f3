package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.OAuthTokenRefusedException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.BearerTokenProvider;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends {@link RestRequest}s to the registry with retries, backoff and failover, and turns the answer into
 * JSON or text, or into the typed exception that its protocol's {@link RegistryDialect} reads it as.
 *
 * <ul>
 *   <li>I/O errors (timeouts included), 5xx and a 404 that is not the registry's own move to the next URL;
 *       the URL that answered last is tried first next time.</li>
 *   <li>Those and 408 and 429 are retried up to {@link RetryPolicy#maxRetries()} times, with a full-jitter
 *       backoff once every URL of a round has failed.</li>
 *   <li>Other 4xx are not retried.</li>
 *   <li>A 404 that is not the registry's own "not found" (no 404xx {@code error_code}) from the core API of a URL
 *       that has never answered as a registry (a 2xx, or its own "not found") says that the URL is wrong: once
 *       every URL has answered so, a {@link WrongRegistryUrlException}, a configuration error, is thrown at once,
 *       without waiting out the retries. From a URL that has answered as a registry before, it is an outage (a
 *       proxy in between, a restart). From an optional API, an answer that may say the registry lacks it (for
 *       Confluent's GUID, metadata and associations APIs only a shape {@link MissingApiAnswers} knows) is a
 *       {@link NoSuchApiAnswerException}, thrown at once, for the client to tell a missing API from a wrong URL;
 *       any other 404 is an outage, retried and failed over like a 5xx, but for those three APIs while no URL has
 *       answered as a registry yet: an {@link UnprovenNotFoundException}, thrown at once for the client to ask the
 *       core API whether the URL is wrong, then to send the call again ({@link RestRequest#coreApiAnswered}), which
 *       never throws it again. The DEK registry's missing is never learned from a 404 ({@link OptionalApi}).</li>
 *   <li>A 2xx without JSON to a call that expects JSON ({@link #send}, from any API: a captive portal's or a load
 *       balancer's {@code 200 text/html}, a proxy's 204, a status line such as {@code 200 OK}) is an outage,
 *       retried and failed over like a 5xx, and neither makes the URL the preferred one nor counts as its answering
 *       as a registry. Whether the body parses as one JSON value decides ({@link JsonBodies#tryParse}), not its
 *       content type (registries answer JSON as {@code application/vnd.schemaregistry.v1+json},
 *       {@code application/json}, {@code application/octet-stream} or with none). The one exception is Apicurio 3's
 *       204 without a body on its URL ({@link MissingApiAnswers#whoseSuccess}), from an optional API but the DEK
 *       registry's (Confluent's GUID, metadata or associations API, Apicurio's own v3 or v2): a
 *       {@link NoSuchApiAnswerException}, which the client checks against the core API. A 2xx page
 *       ({@code text/html}) to {@link #sendText} (schema-repo, which answers text or JSON) is an outage too, and so is
 *       a page or no body to {@link #sendContent} (a schema's content as uploaded, from Apicurio's own API: Avro's
 *       parser reads it, comments included, so JSON does not decide).</li>
 *   <li>An interrupt of the calling thread stops the loop at once and leaves its interrupt flag set.</li>
 *   <li>Bodies larger than {@link #MAX_BODY_BYTES} are refused.</li>
 * </ul>
 *
 * <p>Thread-safe; no lock is held during I/O.
 */
public final class RestTransport {
  static final MediaType CONTENT_TYPE = MediaType.get("application/vnd.schemaregistry.v1+json");
  static final String ACCEPT = "application/vnd.schemaregistry.v1+json, "
      + "application/vnd.schemaregistry+json; q=0.9, application/json; q=0.5";
  /** A registry answer is a schema or a short list; anything this large is a misbehaving server. */
  public static final long MAX_BODY_BYTES = 16L * 1024 * 1024;

  private static final Logger log = LoggerFactory.getLogger(RestTransport.class);

  private final List<Endpoint> endpoints;
  private final Call.Factory http;
  private final RetryPolicy retry;
  private final BearerTokenProvider bearer;
  private final Map<String, String> headers;
  private final RegistryDialect dialect;
  private final AtomicInteger preferred = new AtomicInteger();
  /** Per endpoint, 1 once it has answered as a registry (a 2xx, or its own "not found"): see {@link #attempt}. */
  private final AtomicIntegerArray proven;
  private final LongAdder requests = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder failovers = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder requestNanos = new LongAdder();
  private final java.util.concurrent.atomic.AtomicLong maxRequestNanos = new java.util.concurrent.atomic.AtomicLong();

  public RestTransport(List<Endpoint> endpoints, Call.Factory http, RetryPolicy retry) {
    this(endpoints, http, retry, null, Map.of(), RegistryDialect.CONFLUENT);
  }

  /**
   * With a source of bearer tokens (or {@code null}: each endpoint's own basic auth, if any), headers sent
   * with every request, and the dialect of the registry's protocol.
   */
  public RestTransport(List<Endpoint> endpoints, Call.Factory http, RetryPolicy retry, BearerTokenProvider bearer,
      Map<String, String> headers, RegistryDialect dialect) {
    if (endpoints.isEmpty()) {
      throw new IllegalArgumentException("at least one registry endpoint is required");
    }
    this.endpoints = List.copyOf(endpoints);
    this.proven = new AtomicIntegerArray(this.endpoints.size());
    this.http = http;
    this.retry = retry;
    this.bearer = bearer;
    this.headers = Map.copyOf(headers);
    this.dialect = dialect;
  }

  /**
   * Sends the request and returns the parsed JSON body of a 2xx answer; a 2xx without JSON is an outage (see the
   * class comment), retried and failed over.
   *
   * @throws SchemaRegistryException the mapped failure; {@link RegistryUnavailableException} once retries
   *     are exhausted; {@link WrongRegistryUrlException} at once when every URL, never a registry's so far,
   *     answers the core API a 404 that is not the registry's own; {@link NoSuchApiAnswerException} at once when
   *     an optional API answers what may say that the registry lacks it: a 404, or from an optional API but the DEK
   *     registry's also Apicurio 3's 204 without a body, on its URL ({@link MissingApiAnswers#whoseSuccess});
   *     {@link RegistryInterruptedException} on interrupt
   */
  public JsonNode send(RestRequest request) {
    return sendForAnswer(request, Expected.JSON).json();
  }

  /**
   * Sends the request and returns the body of a 2xx answer as text, whatever its content type but a page
   * ({@code text/html}, a captive portal's or a load balancer's: an outage, retried and failed over): for a
   * registry whose answers are not all JSON (schema-repo's {@code id<TAB>schema}, as {@code text/plain}). Fails as
   * {@link #send} does.
   */
  public String sendText(RestRequest request) {
    return sendForAnswer(request, Expected.TEXT).body();
  }

  /**
   * Sends the request for a schema's content, its text as uploaded (Apicurio's own API's answer by id, which may
   * hold comments, as Avro's parser reads them, and so need not be strict JSON), and returns the body of a 2xx
   * answer with the URL that gave it; a page ({@code text/html}, {@code application/xhtml+xml}: a captive portal)
   * or no body is an outage, retried and failed over. Whether the text is a schema is the caller's to judge. Fails
   * as {@link #send} does.
   */
  public Content sendContent(RestRequest request) {
    Answer answer = sendForAnswer(request, Expected.CONTENT);
    return new Content(answer.body(), answer.url());
  }

  /** A schema's content as the registry answered it, and the URL that answered it (for messages). */
  public record Content(String text, String url) {}

  /** What a 2xx must carry to be the registry's answer; anything else is an outage. */
  private enum Expected {
    /** One JSON value ({@link JsonBodies#tryParse}). */
    JSON("a body that is not JSON", "the JSON of "),
    /** Any text but a page. */
    TEXT("a page, not the registry's text", "the text of "),
    /** A schema's text: neither a page nor blank. */
    CONTENT("a page or no body, not a schema's text", "a schema's text from ");

    final String got;
    final String wanted;

    Expected(String got, String wanted) {
      this.got = got;
      this.wanted = wanted;
    }
  }

  /**
   * Asks the registry whether it answers at all: the client's own check of the core API, which no caller asked
   * for. An answer of the registry's own, a 2xx with JSON, a refusal (401 or 403) or an error with the registry's
   * error code (its own "not found" included), returns normally, and is no failed call: it is not counted in
   * {@link RegistryStats#errors()}. Anything else fails as the caller's call would (counted: the call the client
   * checks for fails with it).
   *
   * @throws RegistryUnavailableException when it does not answer, after retries and failover
   * @throws WrongRegistryUrlException when every URL answers a 404 that is not the registry's own
   * @throws RegistryInterruptedException on interrupt
   * @throws io.kavro.registry.RegistryAccessDeniedException when an HTTP proxy answers 407 ({@link ProxyRefusal}),
   *     not retried
   * @throws SchemaRegistryException any other failure without the registry's error code, not retried (a redirect,
   *     say to a single sign-on page; an answer larger than {@link #MAX_BODY_BYTES}; a header value that cannot be
   *     sent)
   */
  public void probe(RestRequest request) {
    try {
      attempt(request, Expected.JSON);
    } catch (SchemaRegistryException e) {
      if (!registrysRefusalOrError(e)) {
        errors.increment();
        throw e;
      }
    }
  }

  /**
   * The bearer token: a provider's refusal (its issuer's, whatever the status) is an {@link OAuthTokenRefusedException},
   * never read as the registry's own 401 or 403.
   */
  private String token() {
    try {
      return bearer.token();
    } catch (OAuthTokenRefusedException e) {
      throw e;
    } catch (RegistryAccessDeniedException e) {
      throw new OAuthTokenRefusedException(e.getMessage(), e.status(), e.errorCode(), e.url(), e);
    }
  }

  /** Whether a failure of {@link #probe} is the registry's own answer: a 401, a 403, or its error code. */
  private static boolean registrysRefusalOrError(SchemaRegistryException e) {
    if (e instanceof RegistryUnavailableException || e instanceof WrongRegistryUrlException
        || e instanceof RegistryInterruptedException || e instanceof OAuthTokenRefusedException) {
      return false;
    }
    return e.status() == 401 || e.status() == 403 || e.errorCode() > 0 || e instanceof SchemaNotFoundException;
  }

  private Answer sendForAnswer(RestRequest request, Expected expected) {
    try {
      return attempt(request, expected);
    } catch (NoSuchApiAnswerException | UnsupportedRegistryApiException e) {
      throw e; // the registry's own answer that it lacks an optional API: what it can do, not a failure
    } catch (UnprovenNotFoundException e) {
      throw e; // not a failure yet: the client asks the core API, then sends the call again, counted then
    } catch (SchemaRegistryException e) {
      errors.increment();
      throw e;
    }
  }

  /**
   * A 2xx answer of the registry's: its body, that body parsed when JSON was expected (else {@code null}), and the
   * URL that answered.
   */
  private record Answer(String body, JsonNode json, String url) {}

  /** Whether a content type is a page's ({@code text/html}, {@code application/xhtml+xml}): no registry's answer. */
  private static boolean page(String contentType) {
    if (contentType == null) {
      return false;
    }
    String type = contentType.strip().toLowerCase(Locale.ROOT);
    return type.startsWith("text/html") || type.startsWith("application/xhtml+xml");
  }

  private Answer attempt(RestRequest request, Expected expected) {
    int index = Math.floorMod(preferred.get(), endpoints.size());
    boolean reauthorized = false;
    BitSet wrongUrls = null; // the endpoints whose last answer was no registry's API: all of them, and it is thrown
    for (int attempt = 0; ; attempt++) {
      Endpoint endpoint = endpoints.get(index);
      HttpUrl url = url(endpoint, request);
      if (Thread.currentThread().isInterrupted()) {
        throw interrupted(request, url, null);
      }
      SchemaRegistryException failure;
      boolean moveOn;
      requests.increment();
      String authorization = bearer != null ? "Bearer " + token() : endpoint.authorization();
      long started = System.nanoTime();
      try (Response response = timed(http.newCall(httpRequest(authorization, url, request)), started)) {
        String body = readBody(response.body(), request, url);
        int status = response.code();
        String contentType = response.header("Content-Type");
        OptionalApi api = request.optionalApi();
        if (status >= 200 && status < 300) {
          JsonNode json = null;
          if (api != null && api.learnedFromBare404) {
            // Only JSON, or Apicurio 3's 204 on its URL (its answer for a path it does not serve), is a registry's
            // answer, for Confluent's optional APIs and Apicurio's own alike; any other success (a login page's
            // 200, a proxy's 204) is an outage, retried and failed over like a 5xx, and does not make the URL the
            // preferred one. (The DEK registry's missing is never learned from an answer of this kind.)
            String whose = MissingApiAnswers.whoseSuccess(endpoint.base(), status, body);
            if (whose != null) {
              preferred.set(index);
              proveRegistry(index);
              throw new NoSuchApiAnswerException(request.operation() + " failed: HTTP " + status + " without a body ("
                  + whose + ") (" + url + ")", status, -1, url.toString());
            }
          }
          if (expected == Expected.JSON) {
            json = JsonBodies.tryParse(body);
          }
          boolean registrys = switch (expected) {
            case JSON -> json != null;
            case TEXT -> !page(contentType);
            case CONTENT -> !page(contentType) && !body.isBlank();
          };
          if (registrys) {
            preferred.set(index);
            proveRegistry(index);
            return new Answer(body, json, url.toString());
          }
          // A success without JSON (a captive portal's or a load balancer's page, a proxy's 204) is no answer of the
          // registry's: an outage, retried and failed over like a 5xx; the URL is neither preferred nor proven.
          failure = new RegistryUnavailableException(notJson(request, status, expected.got, body, contentType, url)
              + "; a success without " + expected.wanted + (api == null ? "the registry's API" : api.description)
              + " is not the registry's answer (a captive portal, a login page, a load balancer, a proxy): treated "
              + "as an outage, retried and failed over" + (api != null ? ", never a missing API" : "")
              + "; if this persists, check that schema.registry.url is the registry's own address, not a page's "
              + "such as an ingress's default backend", status, -1, url.toString(), null);
          forget(wrongUrls, index);
          moveOn = true;
        } else {
          if (status == 401 && bearer != null && !reauthorized) {
            // The token may have been revoked or expired early: once, with a new one.
            bearer.unauthorized(authorization.substring("Bearer ".length()));
            reauthorized = true;
            attempt--;
            continue;
          }
          if (status >= 300 && status < 400) {
            String location = response.header("Location");
            throw new SchemaRegistryException(request.operation() + " failed: HTTP " + status + ": the registry "
                + "redirects to " + (location == null ? "(no Location)" : Urls.redact(location)) + "; Kavro follows "
                + "no redirects, which would take its headers and credentials along: set schema.registry.url to "
                + "the registry's own address (" + url + ")", status, -1, url.toString(), null);
          }
          // A 404 that is not the registry's own "not found": from the core API of a URL that never answered as a
          // registry, a wrong URL (a WrongRegistryUrlException); from an optional API, the registry's answer or a
          // wrong URL, which the client tells apart.
          boolean unproven = api == null && proven.get(index) == 0;
          failure = dialect.toException(request, status, body, contentType, url.toString(),
              unproven ? endpoint.base() : null, endpoint.base());
          if (failure instanceof SchemaNotFoundException) {
            proveRegistry(index);
          }
          if (failure instanceof WrongRegistryUrlException wrong) {
            // Thrown at once when every URL's last answer was so; else the next URL is tried, which may be right.
            wrongUrls = wrongUrls != null ? wrongUrls : new BitSet(endpoints.size());
            wrongUrls.set(index);
            if (wrongUrls.cardinality() == endpoints.size()) {
              throw wrong;
            }
          } else {
            forget(wrongUrls, index);
            if (!(failure instanceof RegistryUnavailableException) || failure instanceof NoSuchApiAnswerException) {
              throw failure;
            }
            if (status == 404 && api != null && api.knownAnswersOnly() && noneProven()
                && !request.coreApiAnswered()) {
              // The serde's first call may be this one (the default subject name strategy's, a GUID-framed
              // record's reader): the client asks the core API at once whether the URL is wrong, as that first
              // call used to, and once it answers, sends this call again, which goes on as an outage (even when
              // the core API's answer, a 401 or a 403, proved no URL).
              throw new UnprovenNotFoundException(failure);
            }
          }
          moveOn = ErrorMapping.failover(failure);
        }
      } catch (IOException e) {
        if (isInterrupt(e)) {
          Thread.currentThread().interrupt();
          throw interrupted(request, url, e);
        }
        if (ProxyRefusal.in(e)) {
          // every call and URL meets it through that proxy: the deployment's refusal, as a 401, not an outage
          throw new RegistryAccessDeniedException(request.operation() + " failed: " + ProxyRefusal.WHY + " (" + url
              + ")", ProxyRefusal.STATUS, -1, url.toString(), null);
        }
        failure = new RegistryUnavailableException(request.operation() + " failed: " + describe(e) + " ("
            + url + ")", -1, -1, url.toString(), e);
        moveOn = true;
        forget(wrongUrls, index);
      }
      if (attempt >= retry.maxRetries()) {
        throw new RegistryUnavailableException(failure.getMessage() + "; gave up after " + (attempt + 1)
            + " attempt(s) on " + endpoints, failure.status(), failure.errorCode(), failure.url(), failure);
      }
      log.debug("retrying after: {}", failure.getMessage());
      retries.increment();
      boolean untriedUrlLeft = moveOn && (attempt + 1) % endpoints.size() != 0;
      if (moveOn && endpoints.size() > 1) {
        index = (index + 1) % endpoints.size();
        preferred.set(index);
        failovers.increment();
      }
      if (!untriedUrlLeft) {
        pause(retry.backoffMillis(attempt / endpoints.size(), ThreadLocalRandom.current().nextDouble()),
            request, url);
      }
    }
  }

  /** The endpoint answered otherwise than as no registry's (an outage, say): it no longer counts as a wrong URL. */
  private static void forget(BitSet wrongUrls, int index) {
    if (wrongUrls != null) {
      wrongUrls.clear(index);
    }
  }

  /** Whether no endpoint has answered as a registry yet: this transport's first answers. */
  private boolean noneProven() {
    for (int i = 0; i < proven.length(); i++) {
      if (proven.get(i) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Marks an endpoint as a registry's: from then on, a 404 without its error code is an outage, not a wrong URL. */
  private void proveRegistry(int index) {
    if (proven.get(index) == 0) {
      proven.set(index, 1);
    }
  }

  /** Executes the call, counting its time until the answer's headers (the body is read right after). */
  private Response timed(Call call, long started) throws IOException {
    try {
      return call.execute();
    } finally {
      long took = System.nanoTime() - started;
      requestNanos.add(took);
      maxRequestNanos.accumulateAndGet(took, Math::max);
    }
  }

  public RegistryStats stats() {
    return new RegistryStats(requests.sum(), errors.sum(), retries.sum(), failovers.sum(), requestNanos.sum(),
        maxRequestNanos.get(), java.util.Map.of());
  }

  private static HttpUrl url(Endpoint endpoint, RestRequest request) {
    HttpUrl base = endpoint.base();
    if (request.fromRoot()) {
      base = Urls.root(endpoint.base());
      if (base == null) {
        throw new UnsupportedRegistryApiException(request.operation() + " failed: the registry URL "
            + endpoint.base() + " does not end in Apicurio's /apis/ccompat/v<n>, beside which its own API is "
            + "found", -1, -1, endpoint.base().toString(), null);
      }
    }
    // Encoded here, not by OkHttp, which leaves ';' (and others) as they are in a path: see Urls.encode.
    HttpUrl.Builder builder = base.newBuilder();
    for (String segment : request.path()) {
      builder.addEncodedPathSegment(Urls.encode(segment));
    }
    request.query().forEach(param -> builder.addEncodedQueryParameter(Urls.encode(param.getKey()),
        Urls.encode(param.getValue())));
    return builder.build();
  }

  /**
   * The HTTP request. OkHttp refuses a header value it cannot send (a bearer token from a provider with a line
   * break, say) with an exception that quotes the value: that becomes a typed failure that does not.
   */
  private Request httpRequest(String authorization, HttpUrl url, RestRequest request) {
    RequestBody body = request.body() == null ? null
        : RequestBody.create(request.body().text(), request.body().type());
    Request.Builder builder = new Request.Builder().url(url);
    try {
      headers.forEach(builder::header);
      builder.header("Accept", dialect.accept()).method(request.method(), body);
      if (authorization != null) {
        builder.header("Authorization", authorization);
      }
    } catch (IllegalArgumentException e) {
      throw new SchemaRegistryException(request.operation() + " failed: a header value cannot be sent (a line "
          + "break, a control or a non-ASCII character); the value is not shown (" + url + ")", -1, -1,
          url.toString(), null);
    }
    return builder.build();
  }

  private static String readBody(ResponseBody body, RestRequest request, HttpUrl url) throws IOException {
    BufferedSource source = body.source();
    if (source.request(MAX_BODY_BYTES + 1)) {
      throw new SchemaRegistryException(request.operation() + " failed: the registry's answer is larger than "
          + MAX_BODY_BYTES + " bytes (" + url + ")", -1, -1, url.toString(), null);
    }
    return source.getBuffer().readUtf8();
  }

  /** The message for a 2xx whose body is not the registry's: the status, what it is, the content type and the body. */
  private static String notJson(RestRequest request, int status, String what, String body, String contentType,
      HttpUrl url) {
    return request.operation() + " failed: HTTP " + status + " with " + what + " ("
        + (contentType == null ? "no content type" : contentType) + "): "
        + ErrorMapping.shorten(body.isBlank() ? "(empty body)" : body.strip()) + " (" + url + ")";
  }

  private static void pause(long millis, RestRequest request, HttpUrl url) {
    if (millis <= 0) {
      return;
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(request, url, e);
    }
  }

  /**
   * Whether an I/O failure is this thread's interrupt: its flag is set, or Okio cleared it and said
   * "interrupted". A timeout (OkHttp's call timeout is an {@link InterruptedIOException} too) is not.
   */
  public static boolean isInterrupt(IOException e) {
    return Thread.currentThread().isInterrupted()
        || e instanceof InterruptedIOException && !(e instanceof java.net.SocketTimeoutException)
            && "interrupted".equals(e.getMessage());
  }

  private static RegistryInterruptedException interrupted(RestRequest request, HttpUrl url, Exception cause) {
    return new RegistryInterruptedException(request.operation() + " interrupted (" + url + ")", url.toString(),
        cause);
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
