package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.WrongRegistryUrlException;
import okhttp3.HttpUrl;

/**
 * The one place where a registry's non-2xx answer becomes a typed {@link SchemaRegistryException}.
 *
 * <p>Only the registry's own "not found" ({@code error_code} 404xx in its JSON) means not found. Any other 404
 * from the core API of a URL that has never answered as a registry means the URL does not lead to the registry's
 * API: a {@link WrongRegistryUrlException}, a configuration error. From a URL that has answered, it means the
 * registry was not reached (a proxy in between, a restart): a {@link RegistryUnavailableException}, retried and
 * failed over like a 5xx. From an optional API it may mean that the registry lacks that API: for an API whose
 * missing is learned only from a registry's own answer (Confluent's GUID, metadata and associations APIs:
 * {@link OptionalApi#knownAnswersOnly}), only a body of a shape {@link MissingApiAnswers} knows for the kind of
 * registry the URL leads to says so (a {@link NoSuchApiAnswerException}, which the transport throws at once and the
 * client makes sure of by asking the core API), any other 404 is an outage; for Apicurio's own APIs, a
 * {@link NoSuchApiAnswerException} when its body is JSON or empty (Apicurio 3 answers a path it does not route so),
 * and a 404 with a page of text (a proxy's HTML) is an outage;
 * and for an API whose missing is never learned from such a 404 (the DEK registry:
 * {@link OptionalApi#learnedFromBare404}), any 404 but the API's own "not found" is an outage.
 */
public final class ErrorMapping {
  private static final int MAX_MESSAGE_CHARS = 300;

  private ErrorMapping() {}

  /** Whether a status is worth another attempt: 408, 429 and 5xx. */
  static boolean retriable(int status) {
    return status == 408 || status == 429 || status >= 500;
  }

  /** Whether an answer should move the next attempt to the next URL: 5xx, and a 404 that is not the registry's. */
  static boolean failover(SchemaRegistryException failure) {
    return failure.status() >= 500 || failure.status() == 404;
  }

  /**
   * Whether a 404 is the registry's own "not found": its JSON {@code error_code} is one of the 404xx codes
   * (Confluent's 40401 subject, 40402 version, 40403 schema, and the like). A 404 without one comes from
   * something else: a wrong base path, a proxy's page, a load balancer.
   */
  static boolean registryNotFound(int status, int errorCode) {
    return status == 404 && errorCode >= 40400 && errorCode <= 40499;
  }

  /** Whether {@code endpoint}, the configured base URL that answered, is Apicurio's ({@code .../apis/ccompat/v<n>}). */
  static boolean apicurio(HttpUrl endpoint) {
    return endpoint != null && Urls.root(endpoint) != null;
  }

  /**
   * Whether a 404 is Apicurio's own "not found" in its own API, which has no 404xx codes: its JSON names the
   * registry's exception ({@code "name": "ArtifactNotFoundException"}, {@code "ContentNotFoundException"}...).
   * A path it does not serve (Apicurio 2 asked for its v3 API) answers as JAX-RS's plain
   * {@code NotFoundException} ({@code RESTEASY003210}), which is no such answer. Counted only from Apicurio's URL
   * ({@link #apicurio}): from another, such JSON is no registry's (Confluent's "not found" has its 404xx code).
   */
  static boolean apicurioNotFound(int status, JsonNode json) {
    String name = json == null ? "" : json.path("name").asText("");
    return status == 404 && name.endsWith("NotFoundException") && !name.equals("NotFoundException");
  }

  /**
   * Maps a non-2xx answer to an exception. The body is read as Confluent's {@code {"error_code", "message"}}
   * when it is such JSON; anything else (an HTML page from a proxy, say) is quoted, shortened.
   *
   * @param url the request URL, without user info
   * @param base the configured base URL (without user info) of a call of the core API to a URL that has never
   *     answered as a registry, for which a 404 that is not the registry's own is a {@link
   *     WrongRegistryUrlException}; {@code null} otherwise, for which it is a {@link RegistryUnavailableException}
   *     with status 404
   */
  public static SchemaRegistryException toException(String operation, int status, String body, String contentType,
      String url, HttpUrl base) {
    return toException(operation, null, status, body, contentType, url, base, null);
  }

  /**
   * As {@link #toException(String, int, String, String, String, HttpUrl)}, for a call of {@code api} (or of the
   * core API when {@code null}): a 404 from an API whose missing is not learned from a bare 404 (the DEK registry)
   * is its own "not found" only with its own error code ({@link OptionalApi#dekRegistryNotFound}); any other 404 is a
   * {@link RegistryUnavailableException}, retried and failed over like a 503. For an API whose missing is learned
   * only from the registry's own answer ({@link OptionalApi#knownAnswersOnly}: Confluent's GUID, metadata and
   * associations APIs), a 404 says it
   * is missing only in a shape {@link MissingApiAnswers} knows for the kind of registry {@code endpoint} leads to;
   * any other 404 is a {@link RegistryUnavailableException} too.
   *
   * @param endpoint the configured base URL that answered (without user info), or {@code null} when unknown
   */
  public static SchemaRegistryException toException(String operation, OptionalApi api, int status, String body,
      String contentType, String url, HttpUrl base, HttpUrl endpoint) {
    int errorCode = -1;
    String detail;
    JsonNode json = JsonBodies.tryParse(body);
    if (json != null && json.isObject() && (json.has("error_code") || json.has("message"))) {
      errorCode = json.path("error_code").asInt(-1);
      detail = json.path("message").asText("");
    } else if (json != null && json.isObject() && json.has("name") && (json.has("title") || json.has("detail"))) {
      // Apicurio 3's problem details.
      detail = json.path("name").asText() + ": " + json.path(json.has("detail") ? "detail" : "title").asText("");
    } else {
      detail = body.isBlank() ? "(empty body)"
          : "non-JSON body (" + (contentType == null ? "no content type" : contentType) + "): " + body.strip();
    }
    String message = operation + " failed: HTTP " + status
        + (errorCode >= 0 ? ", error_code " + errorCode : "") + ": " + shorten(detail) + " (" + url + ")";
    if (status == 401 || status == 403) {
      return new RegistryAccessDeniedException(message, status, errorCode, url, null);
    }
    if (status == ProxyRefusal.STATUS) {
      // A proxy's refusal that reached the call as an answer (a shared OkHttp client's proxy authenticator gave up;
      // Kavro's own throws a ProxyRefusal first): every call meets it alike, as a registry's 401.
      return new RegistryAccessDeniedException(operation + " failed: " + ProxyRefusal.WHY + " (" + url + ")", status,
          errorCode, url, null);
    }
    if (status == 404 && api != null && !api.learnedFromBare404
        && !OptionalApi.dekRegistryNotFound(errorCode)) {
      return new RegistryUnavailableException(message + "; a 404 that is not the registry's own answer of "
          + api.description + " (its error codes " + OptionalApi.DEK_REGISTRY_CODES + "): a proxy, a load "
          + "balancer or a node without the API answered, or the registry lacks the API; treated as an outage, and "
          + "retried",
          status, errorCode, url, null);
    }
    if (registryNotFound(status, errorCode) || apicurioNotFound(status, json) && apicurio(endpoint)) {
      return new SchemaNotFoundException(message, status, errorCode, url, null);
    }
    if (status == 404 && base != null) {
      return wrongBaseUrl(message, "HTTP " + status + (errorCode >= 0 ? ", error_code " + errorCode : "") + ": "
          + shorten(detail), errorCode, url, base);
    }
    if (status == 404 && api != null && api.knownAnswersOnly) {
      String whose = MissingApiAnswers.whose(endpoint, body, contentType);
      if (whose != null) {
        return new NoSuchApiAnswerException(message + " (" + whose + ")", status, errorCode, url);
      }
      return new RegistryUnavailableException(message + "; a 404 that is not a registry's own answer that it lacks "
          + api.description + " (Kavro knows " + MissingApiAnswers.KNOWN + "): a proxy, a load balancer or a node "
          + "that is not the registry answered; treated as an outage, retried and failed over, never a fallback",
          status, errorCode, url, null);
    }
    if (status == 404 && api != null && (json != null || body.isBlank())) {
      // Apicurio's own APIs, asked from its URL only: JSON or nothing (Apicurio 3, Quarkus's default for a path it
      // does not route) is the registry's own answer for a path it does not serve, maybe; a page of text is not.
      return new NoSuchApiAnswerException(message, status, errorCode, url);
    }
    if (status == 404) {
      return new RegistryUnavailableException(message + "; a 404 without a registry error_code: is the URL the "
          + "registry's base URL, and does nothing in between answer for it?", status, errorCode, url, null);
    }
    if (status == 409) {
      return new IncompatibleSchemaException(message, shorten(detail), status, errorCode, url, null);
    }
    if (status == 422 && (errorCode == 42201 || errorCode == -1 || errorCode == 422)) {
      return new InvalidSchemaException(message, status, errorCode, url, null);
    }
    if (retriable(status)) {
      return new RegistryUnavailableException(message, status, errorCode, url, null);
    }
    return new SchemaRegistryException(message, status, errorCode, url, null);
  }

  /**
   * A core endpoint's 404 that is not the registry's own "not found": the configured base URL is not a schema
   * registry's (Apicurio's root instead of its {@code /apis/ccompat/v7}, say), or a proxy answers for it.
   */
  private static WrongRegistryUrlException wrongBaseUrl(String message, String answer, int errorCode, String url,
      HttpUrl base) {
    String apicurio = Urls.root(base) != null ? "http://host:port/apis/ccompat/v7"
        : Urls.apicurioCompatible(base).toString();
    return new WrongRegistryUrlException(message + "; a 404 from the registry's core API without the registry's own "
        + "404xx error_code, so " + base + " is not the base URL of a schema registry's API: check that "
        + "schema.registry.url is the registry's base URL (for Apicurio: " + apicurio + ") and that nothing in "
        + "between (a proxy, a gateway) answers for it. A configuration error: not retried", base.toString(), answer,
        404, errorCode, url, null);
  }

  /** {@code text} on one line, cut after a whole word when longer than {@link #MAX_MESSAGE_CHARS}, never within one. */
  public static String shorten(String text) {
    String oneLine = text.replaceAll("\\s+", " ");
    if (oneLine.length() <= MAX_MESSAGE_CHARS) {
      return oneLine;
    }
    int space = oneLine.lastIndexOf(' ', MAX_MESSAGE_CHARS);
    return oneLine.substring(0, space > 0 ? space : MAX_MESSAGE_CHARS) + " ...";
  }
}
