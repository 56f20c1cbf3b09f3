package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One call of the registry's REST API, independent of the base URL it will be sent to.
 *
 * @param operation what the call does, for messages ("register schema under subject 'x'")
 * @param method HTTP method
 * @param path path segments under the base URL, encoded when the URL is built
 * @param query query parameters
 * @param body JSON body, or {@code null}
 */
record RestRequest(String operation, String method, List<String> path, Map<String, String> query,
    JsonNode body) {

  static RestRequest get(String operation, String... path) {
    return new RestRequest(operation, "GET", List.of(path), Map.of(), null);
  }

  static RestRequest post(String operation, JsonNode body, String... path) {
    return new RestRequest(operation, "POST", List.of(path), Map.of(), body);
  }

  static RestRequest put(String operation, JsonNode body, String... path) {
    return new RestRequest(operation, "PUT", List.of(path), Map.of(), body);
  }

  static RestRequest delete(String operation, String... path) {
    return new RestRequest(operation, "DELETE", List.of(path), Map.of(), null);
  }

  RestRequest withQuery(String name, String value) {
    Map<String, String> merged = new java.util.LinkedHashMap<>(query);
    merged.put(name, value);
    return new RestRequest(operation, method, path, Map.copyOf(merged), body);
  }
}
