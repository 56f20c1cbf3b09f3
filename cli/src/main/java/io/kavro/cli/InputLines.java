package io.kavro.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * How {@code produce} splits a line into the key's and the value's JSON: Confluent's {@code parse.key} form (the
 * key, {@code key.separator}, the value), a line that {@code consume} printed (its key and value), a
 * {@code {"key": ..., "value": ...}} pair when there is a key schema, or else the value alone. Immutable.
 */
final class InputLines {
  private final boolean parseKey;
  private final String separator;
  private final boolean keySchema;

  /** A line's key ({@code null} for none) and value. */
  record Parts(JsonNode key, JsonNode value) {}

  private InputLines(boolean parseKey, String separator, boolean keySchema) {
    this.parseKey = parseKey;
    this.separator = separator;
    this.keySchema = keySchema;
  }

  /** From Confluent's {@code parse.key} and {@code key.separator} (a tab by default) in {@code config}. */
  static InputLines of(Map<String, Object> config, boolean keySchema) {
    Object separator = config.get("key.separator");
    return new InputLines(Boolean.parseBoolean(String.valueOf(config.getOrDefault("parse.key", "false"))),
        separator == null || separator.toString().isEmpty() ? "\t" : separator.toString(), keySchema);
  }

  /**
   * The parts of {@code line}.
   *
   * @throws JsonProcessingException when a part is not JSON
   * @throws IllegalArgumentException when the line lacks the key its form needs
   */
  Parts parse(String line) throws JsonProcessingException {
    if (parseKey) {
      int at = line.indexOf(separator);
      if (at < 0) {
        throw new IllegalArgumentException("parse.key=true, and the line has no key.separator "
            + (separator.equals("\t") ? "(a tab)" : "'" + separator + "'"));
      }
      String key = line.substring(0, at);
      return new Parts(keySchema ? JsonLines.MAPPER.readTree(key) : JsonLines.MAPPER.getNodeFactory().textNode(key),
          JsonLines.MAPPER.readTree(line.substring(at + separator.length())));
    }
    JsonNode tree = JsonLines.MAPPER.readTree(line);
    boolean printed = tree.isObject() && tree.has("partition") && tree.has("offset") && tree.has("value");
    if (!printed && !keySchema) {
      return new Parts(null, tree);
    }
    if (tree.get("key") == null || tree.get("value") == null) {
      throw new IllegalArgumentException("with a key schema, a line is {\"key\": ..., \"value\": ...}, or the key, "
          + "a tab and the value with --property parse.key=true");
    }
    return new Parts(tree.get("key"), tree.get("value"));
  }
}
