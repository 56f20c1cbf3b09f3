package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
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
 * @param body JSON body, or {@code null}
 * @param optionalApi the optional API the call belongs to, or {@code null} for the core API: a 404 without a
 *     registry error code from an optional API is not retried, since it may mean the API is missing
 */
record RestRequest(String operation, String method, List<String> path, List<Map.Entry<String, String>> query,
    JsonNode body, OptionalApi optionalApi) {

  static RestRequest get(String operation, String... path) {
    return new RestRequest(operation, "GET", List.of(path), List.of(), null, null);
  }

  static RestRequest post(String operation, JsonNode body, String... path) {
    return new RestRequest(operation, "POST", List.of(path), List.of(), body, null);
  }

  static RestRequest put(String operation, JsonNode body, String... path) {
    return new RestRequest(operation, "PUT", List.of(path), List.of(), body, null);
  }

  static RestRequest delete(String operation, String... path) {
    return new RestRequest(operation, "DELETE", List.of(path), List.of(), null, null);
  }

  RestRequest withQuery(String name, String value) {
    List<Map.Entry<String, String>> more = new ArrayList<>(query);
    more.add(Map.entry(name, value));
    return new RestRequest(operation, method, path, List.copyOf(more), body, optionalApi);
  }

  /** This call, as one of the optional {@code api}. */
  RestRequest of(OptionalApi api) {
    return new RestRequest(operation, method, path, query, body, api);
  }
}
