package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/**
 * An HTTP answer of {@link DataContractLayer}: a status, a body (possibly empty), its content type (or null) and, for
 * an answer of the registry passed on as it is, the registry's other headers (else none).
 */
record Answer(int status, byte[] body, String contentType, java.util.Map<String, java.util.List<String>> headers) {
  /** An answer of the layer's own, without other headers. */
  Answer(int status, byte[] body, String contentType) {
    this(status, body, contentType, java.util.Map.of());
  }

  static final ObjectMapper JSON = new ObjectMapper();
  private static final String REGISTRY_JSON = "application/vnd.schemaregistry.v1+json";

  /** A JSON answer, with the registry's content type. */
  static Answer json(int status, JsonNode body) {
    try {
      return new Answer(status, JSON.writeValueAsBytes(body), REGISTRY_JSON);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An error answer in Confluent's shape: {@code {"error_code":code,"message":message}}. */
  static Answer error(int status, int errorCode, String message) {
    ObjectNode body = JSON.createObjectNode();
    body.put("error_code", errorCode);
    body.put("message", message);
    return json(status, body);
  }

  boolean ok() {
    return status / 100 == 2;
  }
}
