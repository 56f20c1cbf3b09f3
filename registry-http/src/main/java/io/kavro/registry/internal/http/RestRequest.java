package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.internal.schema.SubjectNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One call of the registry's REST API, independent of the base URL it will be sent to.
 *
 * @param operation what the call does, for messages ("register schema under subject 'x'")
 * @param method HTTP method
 * @param path path segments under the base URL, encoded when the URL is built
 * @param query query parameters, in order; a name may repeat
 * @param body the request's body, or {@code null}
 * @param optionalApi the optional API the call belongs to, or {@code null} for the core API: how its 404s are
 *     told apart ({@link OptionalApi}: a registry's own answer that the API is missing is not retried; for the
 *     APIs learned only from known answers, any other 404 is an outage, retried and failed over); from the core
 *     API a 404 without a registry error code is a {@link io.kavro.registry.WrongRegistryUrlException}
 * @param fromRoot whether {@code path} starts at the registry's root rather than at the configured base URL
 *     (Apicurio's own API, beside its Confluent-compatible {@code /apis/ccompat/v<n>}: see {@link Urls#root})
 * @param coreApiAnswered whether the core API has answered for this call (the client asked it after the call's
 *     {@link UnprovenNotFoundException}): a 404 that is no registry's answer is then an outage, retried and failed
 *     over, never an {@link UnprovenNotFoundException} again, even while no URL has answered as a registry (the core
 *     API's answer was a 401 or a 403)
 */
public record RestRequest(String operation, String method, List<String> path, List<Map.Entry<String, String>> query,
    Body body, OptionalApi optionalApi, boolean fromRoot, boolean coreApiAnswered) {

  /**
   * Refuses a path segment that a URL cannot carry as itself ({@link SubjectNames#problem}): an empty one, which URL
   * builders fold into the next, {@code .} or {@code ..}, which they resolve away, and text with a lone surrogate.
   * The one exception is a path of one empty segment: the base URL with a trailing slash. Clients check a subject
   * first ({@link SubjectNames#checked}, a typed refusal); this is the guard for every other name in a path (a KEK's).
   *
   * @throws SchemaRegistryException naming the operation and the segment, before anything is sent
   */
  public RestRequest {
    path = List.copyOf(path);
    boolean baseWithSlash = path.equals(List.of(""));
    for (String segment : path) {
      String problem = baseWithSlash ? null : SubjectNames.problem(segment);
      if (problem != null) {
        throw new SchemaRegistryException(operation + " failed: '" + segment + "' " + problem
            + "; nothing was sent");
      }
    }
  }

  /** A request body: its text and its media type. */
  public record Body(String text, okhttp3.MediaType type) {
    /** A JSON body, as Confluent's API takes it. */
    static Body json(JsonNode json) {
      return new Body(JsonBodies.write(json), RestTransport.CONTENT_TYPE);
    }
  }

  public static RestRequest get(String operation, String... path) {
    return new RestRequest(operation, "GET", List.of(path), List.of(), null, null, false, false);
  }

  /** A GET whose path starts at the registry's root. */
  public static RestRequest getFromRoot(String operation, String... path) {
    return new RestRequest(operation, "GET", List.of(path), List.of(), null, null, true, false);
  }

  public static RestRequest post(String operation, JsonNode body, String... path) {
    return post(operation, Body.json(body), path);
  }

  public static RestRequest post(String operation, Body body, String... path) {
    return new RestRequest(operation, "POST", List.of(path), List.of(), body, null, false, false);
  }

  public static RestRequest put(String operation, JsonNode body, String... path) {
    return put(operation, Body.json(body), path);
  }

  public static RestRequest put(String operation, Body body, String... path) {
    return new RestRequest(operation, "PUT", List.of(path), List.of(), body, null, false, false);
  }

  public static RestRequest delete(String operation, String... path) {
    return new RestRequest(operation, "DELETE", List.of(path), List.of(), null, null, false, false);
  }

  public RestRequest withQuery(String name, String value) {
    List<Map.Entry<String, String>> more = new ArrayList<>(query);
    more.add(Map.entry(name, value));
    return new RestRequest(operation, method, path, List.copyOf(more), body, optionalApi, fromRoot, coreApiAnswered);
  }

  /** This call, as one of the optional {@code api}. */
  public RestRequest of(OptionalApi api) {
    return new RestRequest(operation, method, path, query, body, api, fromRoot, coreApiAnswered);
  }

  /** This call, sent again once the core API has answered for it ({@link #coreApiAnswered}). */
  public RestRequest afterCoreApiAnswered() {
    return new RestRequest(operation, method, path, query, body, optionalApi, fromRoot, true);
  }
}
