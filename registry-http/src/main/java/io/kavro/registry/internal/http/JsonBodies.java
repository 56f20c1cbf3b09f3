package io.kavro.registry.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The registry's small JSON bodies, read and written with Jackson (brought by Avro). */
public final class JsonBodies {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonBodies() {}

  /** The parsed body, or {@code null} if it is not JSON. */
  public static JsonNode tryParse(String body) {
    try {
      return body.isBlank() ? null : MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON tree", e);
    }
  }
}
