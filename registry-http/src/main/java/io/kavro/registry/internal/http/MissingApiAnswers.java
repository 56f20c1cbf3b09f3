package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import okhttp3.HttpUrl;

/**
 * The 404 bodies that a kind of registry is known to answer for a path it does not serve, told apart by the kind of
 * registry the configured URL leads to: what may say that a registry lacks an optional API whose missing is learned
 * only from the registry's own answer ({@link OptionalApi#knownAnswersOnly}). Anything else (an empty body or JSON
 * without Confluent's error code from a URL of Confluent's kind, a proxy's HTML page, an API gateway's
 * {@code {"message":"no Route matched"}}, JSON followed by anything) is no registry's answer. Stateless.
 *
 * <ul>
 *   <li>Confluent's registry (Jersey and rest-utils) and the registries that copy its errors: a JSON object with
 *       {@code "error_code": 404}, {@code {"error_code":404,"message":"HTTP 404 Not Found"}}. (Its answer for an
 *       association it does not hold, {@code 40410}, is its own "not found", handled before: no association.)</li>
 *   <li>Karapace (FastAPI): the bare JSON string {@code "Not Found"}, the body of its handler of Starlette's
 *       {@code HTTPException}: exactly that body (but for surrounding white space), as {@code application/json}.</li>
 *   <li>Redpanda (Seastar's HTTP server, which answers a path no route serves itself): exactly the JSON object
 *       {@code {"message": "Not found", "code": 404}}, as {@code application/json} (redpanda-data/redpanda#21426
 *       shows it for {@code GET /schemas}).</li>
 *   <li>Apicurio, on its Confluent-compatible URL ({@code .../apis/ccompat/v<n>}, {@link Urls#root}) only:
 *       Apicurio 2's JAX-RS answer, a JSON object whose {@code message} is RESTEasy's {@code RESTEASY003210: Could
 *       not find resource for full path} (or that is named {@code "NotFoundException"}), and Apicurio 3's (Quarkus)
 *       404 without a body, and its 204 without a body for the metadata path ({@link #whoseSuccess}).</li>
 * </ul>
 */
final class MissingApiAnswers {
  /** The answers known, for messages. */
  static final String KNOWN = "Confluent's JSON error_code 404, Karapace's \"Not Found\", Redpanda's "
      + "{\"message\": \"Not found\", \"code\": 404}, and on an Apicurio URL (.../apis/ccompat/v<n>) Apicurio's "
      + "RESTEasy NotFoundException, its empty 404 or its 204 without a body";

  /** Karapace's body, exactly. */
  private static final String KARAPACE_NOT_FOUND = "\"Not Found\"";

  /** RESTEasy's code for a path that no resource serves ("Could not find resource for full path"). */
  private static final String RESTEASY_NO_RESOURCE = "RESTEASY003210";

  private MissingApiAnswers() {}

  /**
   * Whose answer for a path it does not serve this 404 is, or {@code null} when it is no known registry's.
   *
   * @param endpoint the configured base URL that answered; {@code null}: of Confluent's kind
   * @param body the body as text
   * @param contentType the answer's {@code Content-Type}, or {@code null}
   */
  static String whose(HttpUrl endpoint, String body, String contentType) {
    JsonNode json = JsonBodies.tryParse(body);
    if (json != null && json.isObject() && json.path("error_code").isInt() && json.path("error_code").asInt() == 404) {
      return "Confluent's answer for a path it does not serve: error_code 404";
    }
    boolean apicurio = ErrorMapping.apicurio(endpoint);
    if (!apicurio) {
      if (body.strip().equals(KARAPACE_NOT_FOUND) && json != null && isJson(contentType)) {
        return "Karapace's answer for a path it does not serve";
      }
      if (redpanda(json) && isJson(contentType)) {
        return "Redpanda's answer for a path it does not serve: Seastar's \"Not found\" 404";
      }
      return null;
    }
    if (json != null && json.isObject() && (json.path("name").asText("").equals("NotFoundException")
        || json.path("message").asText("").startsWith(RESTEASY_NO_RESOURCE))) {
      return "Apicurio's answer for a path it does not serve: JAX-RS's NotFoundException";
    }
    if (json == null && body.isBlank()) {
      return "Apicurio 3's answer for a path it does not serve: an empty 404";
    }
    return null;
  }

  /**
   * Whose answer for a path it does not serve this success without JSON is, or {@code null} when it is no known
   * registry's (a login page's 200, a proxy's 204): Apicurio 3's 204 without a body (its answer for the metadata
   * path), on Apicurio's URL only.
   *
   * @param endpoint the configured base URL that answered; {@code null}: of Confluent's kind
   */
  static String whoseSuccess(HttpUrl endpoint, int status, String body) {
    if (status == 204 && body.isBlank() && ErrorMapping.apicurio(endpoint)) {
      return "Apicurio 3's answer for a path it does not serve: 204 No Content";
    }
    return null;
  }

  /**
   * Whether {@code json} is Redpanda's answer for a path its schema registry does not serve: the JSON object of
   * Seastar's HTTP server, exactly {@code {"message": "Not found", "code": 404}} (no other field).
   */
  private static boolean redpanda(JsonNode json) {
    return json != null && json.isObject() && json.size() == 2 && json.path("message").isTextual()
        && json.path("message").asText().equals("Not found") && json.path("code").isInt()
        && json.path("code").asInt() == 404;
  }

  private static boolean isJson(String contentType) {
    return contentType != null
        && contentType.strip().toLowerCase(Locale.ROOT).startsWith("application/json");
  }
}
