package io.kavro.registry.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The registry's small JSON bodies, read and written with Jackson (brought by Avro). */
public final class JsonBodies {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  /** Reads a body as one JSON value: anything after it ({@code 200 OK}, {@code {}<html>}) refuses it. */
  private static final ObjectReader STRICT = MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private JsonBodies() {}

  /**
   * The body parsed as one JSON value with nothing but white space after it, or {@code null} if it is not that (a
   * blank body, a page of text, a status line such as {@code 200 OK} whose number alone would parse, JSON followed
   * by anything). One byte order mark before it is ignored, as RFC 8259 lets a parser do (some servers write one;
   * Jackson refuses it in a string).
   */
  public static JsonNode tryParse(String body) {
    String text = body.startsWith("\uFEFF") ? body.substring(1) : body;
    try {
      return text.isBlank() ? null : STRICT.readTree(text);
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
