package io.kavro.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A JSON value as Avro's JSON encoding of a schema, checked field by field, so that a line that does not match
 * says which field and why ({@code field 'id': expected long, got "two"}) instead of Avro's parser state. Plain
 * JSON ({@code --format json}, what {@code consume} prints by default: unions as their value, bytes and fixed in
 * Base64) is turned into Avro's encoding on the way; Avro's encoding ({@code avro-json}) is checked as it is. A
 * field the schema does not have is refused: Avro's reader would drop it without a word.
 */
final class JsonInput {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int SHOWN = 40;

  private JsonInput() {}

  /**
   * {@code value} in Avro's JSON encoding of {@code schema}.
   *
   * @throws IllegalArgumentException naming the field that does not match, and how
   */
  static JsonNode avroJson(JsonNode value, Schema schema, JsonLines.Format format) {
    return convert(value, schema, "", format == JsonLines.Format.json);
  }

  private static JsonNode convert(JsonNode value, Schema schema, String path, boolean plain) {
    switch (schema.getType()) {
      case NULL -> require(value.isNull(), value, "null", path);
      case BOOLEAN -> require(value.isBoolean(), value, "a boolean", path);
      case INT -> require(value.isIntegralNumber() && value.canConvertToInt(), value, "an int", path);
      case LONG -> require(value.isIntegralNumber() && value.canConvertToLong(), value, "a long", path);
      case FLOAT, DOUBLE -> require(value.isNumber(), value, "a number", path);
      case STRING -> require(value.isTextual(), value, "a string", path);
      case ENUM -> require(value.isTextual() && schema.hasEnumSymbol(value.asText()), value,
          "one of " + schema.getEnumSymbols(), path);
      case BYTES, FIXED -> {
        return bytes(value, schema, path, plain);
      }
      case ARRAY -> {
        require(value.isArray(), value, "an array", path);
        ArrayNode items = NODES.arrayNode();
        for (int i = 0; i < value.size(); i++) {
          items.add(convert(value.get(i), schema.getElementType(), path + "[" + i + "]", plain));
        }
        return items;
      }
      case MAP -> {
        require(value.isObject(), value, "an object (a map)", path);
        ObjectNode entries = NODES.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> entry = it.next();
          entries.set(entry.getKey(), convert(entry.getValue(), schema.getValueType(),
              path + "[" + entry.getKey() + "]", plain));
        }
        return entries;
      }
      case RECORD -> {
        return record(value, schema, path, plain);
      }
      case UNION -> {
        return union(value, schema, path, plain);
      }
      default -> throw new IllegalArgumentException(where(path) + "type " + schema.getType() + " is not supported");
    }
    return value;
  }

  private static JsonNode record(JsonNode value, Schema schema, String path, boolean plain) {
    require(value.isObject(), value, "an object (record " + schema.getFullName() + ")", path);
    ObjectNode fields = NODES.objectNode();
    for (Schema.Field field : schema.getFields()) {
      String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
      JsonNode given = value.get(field.name());
      if (given == null) {
        throw new IllegalArgumentException("field '" + fieldPath + "' is missing");
      }
      fields.set(field.name(), convert(given, field.schema(), fieldPath, plain));
    }
    for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (schema.getField(name) == null) {
        throw new IllegalArgumentException("field '" + (path.isEmpty() ? name : path + "." + name)
            + "' is not in record " + schema.getFullName());
      }
    }
    return fields;
  }

  private static JsonNode union(JsonNode value, Schema schema, String path, boolean plain) {
    if (value.isNull()) {
      require(schema.getIndexNamed("null") != null, value, "one of " + branches(schema), path);
      return value;
    }
    if (!plain) {
      require(value.isObject() && value.size() == 1, value, "{\"<type>\": value}, one of " + branches(schema),
          path);
      String branch = value.fieldNames().next();
      Integer index = schema.getIndexNamed(branch);
      require(index != null, value, "one of " + branches(schema), path);
      return NODES.objectNode().set(branch, convert(value.get(branch), schema.getTypes().get(index), path, false));
    }
    for (Schema branch : schema.getTypes()) {
      if (branch.getType() == Schema.Type.NULL) {
        continue;
      }
      try {
        return NODES.objectNode().set(branch.getFullName(), convert(value, branch, path, true));
      } catch (IllegalArgumentException notThisOne) {
        // the next branch, as Avro picks the first that fits
      }
    }
    throw new IllegalArgumentException(where(path) + "expected one of " + branches(schema) + ", got " + shown(value));
  }

  /** Bytes and fixed: text of one char per byte in Avro's encoding; Base64 in plain JSON, as consume prints them. */
  private static JsonNode bytes(JsonNode value, Schema schema, String path, boolean plain) {
    require(value.isTextual(), value, plain ? "Base64 text" : "text of one char per byte", path);
    byte[] bytes;
    if (plain) {
      try {
        bytes = Base64.getDecoder().decode(value.asText());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where(path) + "expected Base64 text, got " + shown(value));
      }
    } else {
      bytes = value.asText().getBytes(StandardCharsets.ISO_8859_1);
    }
    if (schema.getType() == Schema.Type.FIXED && bytes.length != schema.getFixedSize()) {
      throw new IllegalArgumentException(where(path) + "expected " + schema.getFixedSize() + " bytes (fixed "
          + schema.getFullName() + "), got " + bytes.length);
    }
    return NODES.textNode(new String(bytes, StandardCharsets.ISO_8859_1));
  }

  private static String branches(Schema union) {
    return union.getTypes().stream().map(Schema::getFullName).toList().toString();
  }

  private static void require(boolean fits, JsonNode value, String expected, String path) {
    if (!fits) {
      throw new IllegalArgumentException(where(path) + "expected " + expected + ", got " + shown(value));
    }
  }

  private static String where(String path) {
    return path.isEmpty() ? "" : "field '" + path + "': ";
  }

  private static String shown(JsonNode value) {
    String text = value.toString();
    return text.length() > SHOWN ? text.substring(0, SHOWN) + "..." : text;
  }
}
