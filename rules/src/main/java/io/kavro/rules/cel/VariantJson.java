package io.kavro.rules.cel;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JSON to variants and back, as Confluent's {@code variants.parseJson} and {@code variants.toJson} do ({@code
 * VariantUtils} of its {@code schema-rules} and {@code schema-types}), on the same JSON library (Jackson, which comes
 * with Avro), so the same text reads and prints the same.
 *
 * <p>Reading: JSON is read as Jackson's default {@code ObjectMapper} reads a tree (a repeated key keeps its last
 * value; text after the first value is not read); an integer that fits an int is an {@code INT32}, one that fits a
 * long an {@code INT64}, a longer one a decimal of scale 0; any other number a {@code DOUBLE}; a string of at most 63
 * UTF-8 bytes a short string, else a long one; an object's fields in key order. Printing: compact JSON, an object's
 * fields in key order, decimals in plain notation, a date {@code yyyy-MM-dd}, a time and the timestamps without zone
 * ISO-8601 with the seconds always there and the fraction in 0, 3, 6 or 9 digits, the timestamps with zone as
 * {@link Instant#toString()}, bytes in base64, a UUID in its usual form.
 *
 * <p>Bounds: an integer of more than 38 digits is an error (Confluent's writes its low 16 bytes, another number); a
 * variant printed may nest at most {@value #MAX_DEPTH} levels (as Jackson writes) and hold at most one value per
 * byte of its encoding (more means values that overlap, which no writer makes and which could print far more than
 * they take). Stateless and thread-safe.
 */
final class VariantJson {
  /** The deepest nesting printed. */
  static final int MAX_DEPTH = 1000;

  private static final ObjectMapper READER = new ObjectMapper();
  private static final ObjectMapper WRITER = new ObjectMapper()
      .configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private VariantJson() {}

  /**
   * {@code variants.parseJson(json)}.
   *
   * @throws CelFunctionException when it is not JSON (naming the line and column) or does not fit a variant
   */
  static Variant parse(String json) {
    JsonNode tree;
    try {
      tree = READER.readTree(json);
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      throw new CelFunctionException("variants.parseJson: not valid JSON"
          + (where == null ? "" : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")"), e);
    }
    if (tree == null || tree.isMissingNode()) {
      throw new CelFunctionException("variants.parseJson: not valid JSON (no value)");
    }
    Map<String, Integer> keys = new LinkedHashMap<>();
    ByteArrayOutputStream value = new ByteArrayOutputStream();
    encode(tree, keys, value);
    return Variant.of(value.toByteArray(), metadata(keys));
  }

  /**
   * {@code variants.toJson(v)}.
   *
   * @throws CelFunctionException when the encoding is malformed, or beyond the bounds
   */
  static String print(Variant variant) {
    int[] budget = {variant.bytesFromHere()};
    JsonNode tree = node(variant, 0, budget);
    try {
      return WRITER.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new CelFunctionException("variants.toJson: cannot print the variant", e);
    }
  }

  private static JsonNode node(Variant variant, int depth, int[] budget) {
    Variant.Kind kind = variant.kind();
    if (--budget[0] < 0) {
      throw Variant.malformed("it holds more values than bytes (its values overlap)");
    }
    if ((kind == Variant.Kind.OBJECT || kind == Variant.Kind.ARRAY) && depth >= MAX_DEPTH) {
      throw new CelFunctionException("variants.toJson: the variant nests deeper than " + MAX_DEPTH + " levels");
    }
    try {
      return switch (kind) {
        case OBJECT -> {
          ObjectNode object = NODES.objectNode();
          int size = variant.size();
          for (int i = 0; i < size; i++) {
            object.set(variant.keyAt(i), node(variant.at(i), depth + 1, budget));
          }
          yield object;
        }
        case ARRAY -> {
          ArrayNode array = NODES.arrayNode();
          int size = variant.size();
          for (int i = 0; i < size; i++) {
            array.add(node(variant.at(i), depth + 1, budget));
          }
          yield array;
        }
        case NULL -> NODES.nullNode();
        case BOOLEAN -> NODES.booleanNode(variant.bool());
        case INT8, INT16, INT32 -> NODES.numberNode((int) variant.integer());
        case INT64 -> NODES.numberNode(variant.integer());
        case FLOAT -> NODES.numberNode((float) variant.floating());
        case DOUBLE -> NODES.numberNode(variant.floating());
        case DECIMAL4, DECIMAL8, DECIMAL16 -> NODES.numberNode(variant.decimal());
        case STRING -> NODES.textNode(variant.string());
        case DATE -> NODES.textNode(LocalDate.ofEpochDay(variant.integer()).toString());
        case TIMESTAMP_TZ -> NODES.textNode(instant(variant.integer(), 1_000_000L).toString());
        case TIMESTAMP_NANOS_TZ -> NODES.textNode(instant(variant.integer(), 1_000_000_000L).toString());
        case TIMESTAMP_NTZ -> NODES.textNode(local(instant(variant.integer(), 1_000_000L)));
        case TIMESTAMP_NANOS_NTZ -> NODES.textNode(local(instant(variant.integer(), 1_000_000_000L)));
        case TIME -> NODES.textNode(time(variant.integer()));
        case BINARY -> NODES.textNode(Base64.getEncoder().encodeToString(variant.binary()));
        case UUID -> NODES.textNode(variant.uuid().toString());
      };
    } catch (DateTimeException | ArithmeticException e) {
      throw new CelFunctionException("variants.toJson: a variant of type " + kind.label + " is out of its range", e);
    }
  }

  private static Instant instant(long count, long perSecond) {
    return Instant.ofEpochSecond(Math.floorDiv(count, perSecond),
        Math.floorMod(count, perSecond) * (1_000_000_000L / perSecond));
  }

  private static String local(Instant instant) {
    LocalDateTime at = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
    return String.format(Locale.ROOT, "%04d-%02d-%02dT%02d:%02d:%02d%s", at.getYear(), at.getMonthValue(),
        at.getDayOfMonth(), at.getHour(), at.getMinute(), at.getSecond(), fraction(at.getNano()));
  }

  private static String time(long micros) {
    LocalTime time = LocalTime.ofNanoOfDay(Math.multiplyExact(micros, 1000L));
    return String.format(Locale.ROOT, "%02d:%02d:%02d%s", time.getHour(), time.getMinute(), time.getSecond(),
        fraction(time.getNano()));
  }

  /** The fraction of a second as {@link Instant#toString()} writes it: none, or 3, 6 or 9 digits. */
  private static String fraction(int nanos) {
    if (nanos == 0) {
      return "";
    } else if (nanos % 1_000_000 == 0) {
      return String.format(Locale.ROOT, ".%03d", nanos / 1_000_000);
    } else if (nanos % 1_000 == 0) {
      return String.format(Locale.ROOT, ".%06d", nanos / 1_000);
    }
    return String.format(Locale.ROOT, ".%09d", nanos);
  }

  // ---- encoding ----

  private static void encode(JsonNode node, Map<String, Integer> keys, ByteArrayOutputStream out) {
    switch (node.getNodeType()) {
      case OBJECT -> object(node, keys, out);
      case ARRAY -> array(node, keys, out);
      case STRING -> string(node.textValue(), out);
      case BOOLEAN -> out.write(primitive(node.booleanValue() ? 1 : 2));
      case NULL -> out.write(primitive(0));
      case NUMBER -> number(node, out);
      default -> throw new CelFunctionException("variants.parseJson: a JSON " + node.getNodeType()
          + " has no variant form");
    }
  }

  private static void number(JsonNode node, ByteArrayOutputStream out) {
    if (node.isInt()) {
      out.write(primitive(5));
      little(out, node.intValue(), 4);
    } else if (node.isLong()) {
      out.write(primitive(6));
      little(out, node.longValue(), 8);
    } else if (node.isBigInteger() || node.isBigDecimal()) {
      decimal(node.isBigInteger() ? new BigDecimal(node.bigIntegerValue()) : node.decimalValue(), out);
    } else if (node.isFloat()) {
      out.write(primitive(14));
      little(out, Float.floatToIntBits(node.floatValue()), 4);
    } else if (node.isShort()) {
      out.write(primitive(4));
      little(out, node.shortValue(), 2);
    } else {
      out.write(primitive(7));
      little(out, Double.doubleToLongBits(node.doubleValue()), 8);
    }
  }

  private static void decimal(BigDecimal decimal, ByteArrayOutputStream out) {
    if (decimal.precision() > 38 || decimal.scale() < 0 || decimal.scale() > 38) {
      throw new CelFunctionException("variants.parseJson: a number of " + decimal.precision() + " digits (scale "
          + decimal.scale() + ") does not fit a variant decimal (at most 38 digits, a scale of 0 to 38)");
    }
    BigInteger unscaled = decimal.unscaledValue();
    int precision = decimal.precision();
    int width = precision <= 9 ? 4 : precision <= 18 ? 8 : 16;
    out.write(primitive(width == 4 ? 8 : width == 8 ? 9 : 10));
    out.write(decimal.scale());
    byte[] bigEndian = unscaled.toByteArray();
    for (int i = 0; i < width; i++) {
      out.write(i < bigEndian.length ? bigEndian[bigEndian.length - 1 - i] : unscaled.signum() < 0 ? 0xFF : 0);
    }
  }

  private static void string(String text, ByteArrayOutputStream out) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= 63) {
      out.write(utf8.length << 2 | Variant.SHORT_STRING);
    } else {
      out.write(primitive(16));
      little(out, utf8.length, 4);
    }
    out.writeBytes(utf8);
  }

  private static void object(JsonNode node, Map<String, Integer> keys, ByteArrayOutputStream out) {
    List<String> names = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    Map<String, byte[]> byName = new java.util.TreeMap<>();
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      keys.putIfAbsent(field.getKey(), keys.size());
      ByteArrayOutputStream child = new ByteArrayOutputStream();
      encode(field.getValue(), keys, child);
      byName.put(field.getKey(), child.toByteArray());
    }
    byName.forEach((name, bytes) -> {
      names.add(name);
      values.add(bytes);
    });
    int count = names.size();
    int maxId = 0;
    for (String name : names) {
      maxId = Math.max(maxId, keys.get(name));
    }
    int dataSize = total(values);
    boolean large = count > 0xFF;
    int idWidth = width(maxId);
    int offsetWidth = width(dataSize);
    out.write((large ? 1 : 0) << 6 | (idWidth - 1) << 4 | (offsetWidth - 1) << 2 | Variant.OBJECT);
    little(out, count, large ? 4 : 1);
    for (String name : names) {
      little(out, keys.get(name), idWidth);
    }
    offsets(values, offsetWidth, out);
  }

  private static void array(JsonNode node, Map<String, Integer> keys, ByteArrayOutputStream out) {
    List<byte[]> values = new ArrayList<>();
    for (JsonNode element : node) {
      ByteArrayOutputStream child = new ByteArrayOutputStream();
      encode(element, keys, child);
      values.add(child.toByteArray());
    }
    int count = values.size();
    boolean large = count > 0xFF;
    int offsetWidth = width(total(values));
    out.write((large ? 1 : 0) << 4 | (offsetWidth - 1) << 2 | Variant.ARRAY);
    little(out, count, large ? 4 : 1);
    offsets(values, offsetWidth, out);
  }

  private static void offsets(List<byte[]> values, int width, ByteArrayOutputStream out) {
    int offset = 0;
    for (byte[] value : values) {
      little(out, offset, width);
      offset += value.length;
    }
    little(out, offset, width);
    values.forEach(out::writeBytes);
  }

  private static byte[] metadata(Map<String, Integer> keys) {
    List<byte[]> strings = new ArrayList<>();
    keys.keySet().forEach(key -> strings.add(key.getBytes(StandardCharsets.UTF_8)));
    int width = width(Math.max(keys.size(), total(strings)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1 | (width - 1) << 6);
    little(out, keys.size(), width);
    offsets(strings, width, out);
    return out.toByteArray();
  }

  private static int total(List<byte[]> parts) {
    long total = 0;
    for (byte[] part : parts) {
      total += part.length;
    }
    if (total > Integer.MAX_VALUE) {
      throw new CelFunctionException("variants.parseJson: the variant would be larger than 2^31 - 1 bytes");
    }
    return (int) total;
  }

  /** The fewest bytes (1 to 4) that hold {@code n}. */
  private static int width(int n) {
    return n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : n <= 0xFFFFFF ? 3 : 4;
  }

  private static int primitive(int typeId) {
    return typeId << 2 | Variant.PRIMITIVE;
  }

  private static void little(ByteArrayOutputStream out, long value, int width) {
    for (int i = 0; i < width; i++) {
      out.write((int) (value >>> 8 * i) & 0xFF);
    }
  }
}
