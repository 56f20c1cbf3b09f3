package io.kavro.rules.cel;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kavro.rules.cel.Variant.Kind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code variants.parseJson(json)}: JSON to a variant, as Confluent's {@code VariantUtils} encodes it, on the same
 * JSON library (Jackson, which comes with Avro), so the same text reads the same.
 *
 * <p>JSON is read as Jackson's default {@code ObjectMapper} reads a tree (a repeated key keeps its last value; text
 * after the first value is not read; at most {@value Variant#MAX_DEPTH} levels deep, Jackson's reading bound); an
 * integer that fits an int is an {@code INT32}, one that fits a long an {@code INT64}, a longer one a decimal of
 * scale 0 (of at most 38 digits: Confluent's writes the low 16 bytes of a longer one, another number); any other
 * number a {@code DOUBLE}; a string of at most 63 UTF-8 bytes a short string, else a long one; an object's fields in
 * key order, its keys numbered in the order the text first names them. Written into one buffer: a container's data
 * first, then moved up behind its header once its size is known. Stateless and thread-safe.
 */
final class VariantEncoder {
  private static final ObjectMapper READER = new ObjectMapper();

  private VariantEncoder() {}

  /**
   * {@code variants.parseJson(json)}.
   *
   * @throws CelFunctionException when it is not JSON (naming the line and column), nests too deep, or does not fit a
   *     variant
   */
  static Variant parse(String json) {
    JsonNode tree;
    try {
      tree = READER.readTree(json);
    } catch (StreamConstraintsException e) {
      String what = e.getOriginalMessage() != null && e.getOriginalMessage().contains("nesting depth")
          ? "nests deeper than " + Variant.MAX_DEPTH + " levels"
          : "is beyond Jackson's reading bounds (of a string's or a number's length)";
      throw new CelFunctionException("variants.parseJson: the JSON " + what, e);
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      throw new CelFunctionException("variants.parseJson: not valid JSON"
          + (where == null ? "" : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")"), e);
    }
    if (tree == null || tree.isMissingNode()) {
      throw new CelFunctionException("variants.parseJson: not valid JSON (no value)");
    }
    Map<String, Integer> keys = new LinkedHashMap<>();
    number(tree, keys);
    Buffer value = new Buffer();
    encode(tree, keys, value);
    return Variant.of(value.toByteArray(), metadata(keys));
  }

  /** Numbers the keys in the order the text first names them (a key, then the keys within its value). */
  private static void number(JsonNode node, Map<String, Integer> keys) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        keys.putIfAbsent(field.getKey(), keys.size());
        number(field.getValue(), keys);
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        number(element, keys);
      }
    }
  }

  private static void encode(JsonNode node, Map<String, Integer> keys, Buffer out) {
    switch (node.getNodeType()) {
      case OBJECT -> object(node, keys, out);
      case ARRAY -> array(node, keys, out);
      case STRING -> string(node.textValue(), out);
      case BOOLEAN -> out.write(primitive(node.booleanValue() ? Kind.BOOLEAN.typeId : Kind.FALSE_TYPE_ID));
      case NULL -> out.write(primitive(Kind.NULL.typeId));
      case NUMBER -> number(node, out);
      default -> throw new CelFunctionException("variants.parseJson: a JSON " + node.getNodeType()
          + " has no variant form");
    }
  }

  private static void number(JsonNode node, Buffer out) {
    if (node.isInt()) {
      out.write(primitive(Kind.INT32.typeId));
      out.little(node.intValue(), 4);
    } else if (node.isLong()) {
      out.write(primitive(Kind.INT64.typeId));
      out.little(node.longValue(), 8);
    } else if (node.isBigInteger() || node.isBigDecimal()) {
      decimal(node.isBigInteger() ? new BigDecimal(node.bigIntegerValue()) : node.decimalValue(), out);
    } else if (node.isFloat()) {
      out.write(primitive(Kind.FLOAT.typeId));
      out.little(Float.floatToIntBits(node.floatValue()), 4);
    } else if (node.isShort()) {
      out.write(primitive(Kind.INT16.typeId));
      out.little(node.shortValue(), 2);
    } else {
      out.write(primitive(Kind.DOUBLE.typeId));
      out.little(Double.doubleToLongBits(node.doubleValue()), 8);
    }
  }

  private static void decimal(BigDecimal decimal, Buffer out) {
    if (decimal.precision() > 38 || decimal.scale() < 0 || decimal.scale() > 38) {
      throw new CelFunctionException("variants.parseJson: a number of " + decimal.precision() + " digits (scale "
          + decimal.scale() + ") does not fit a variant decimal (at most 38 digits, a scale of 0 to 38)");
    }
    BigInteger unscaled = decimal.unscaledValue();
    int precision = decimal.precision();
    int width = precision <= 9 ? 4 : precision <= 18 ? 8 : 16;
    out.write(primitive((width == 4 ? Kind.DECIMAL4 : width == 8 ? Kind.DECIMAL8 : Kind.DECIMAL16).typeId));
    out.write(decimal.scale());
    byte[] bigEndian = unscaled.toByteArray();
    for (int i = 0; i < width; i++) {
      out.write(i < bigEndian.length ? bigEndian[bigEndian.length - 1 - i] : unscaled.signum() < 0 ? 0xFF : 0);
    }
  }

  private static void string(String text, Buffer out) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= 63) {
      out.write(utf8.length << 2 | Variant.SHORT_STRING);
    } else {
      out.write(primitive(Kind.STRING.typeId));
      out.little(utf8.length, 4);
    }
    out.write(utf8, 0, utf8.length);
  }

  /** An object: its values' data in key order, then its header (count, ids, offsets) put before them. */
  private static void object(JsonNode node, Map<String, Integer> keys, Buffer out) {
    List<String> names = new ArrayList<>(node.size());
    node.fieldNames().forEachRemaining(names::add);
    names.sort(null);
    int count = names.size();
    int start = out.size();
    int[] offsets = new int[count + 1];
    int maxId = 0;
    for (int i = 0; i < count; i++) {
      offsets[i] = out.size() - start;
      maxId = Math.max(maxId, keys.get(names.get(i)));
      encode(node.get(names.get(i)), keys, out);
    }
    offsets[count] = out.size() - start;
    boolean large = count > 0xFF;
    int idWidth = width(maxId);
    int offsetWidth = width(offsets[count]);
    int countWidth = large ? 4 : 1;
    out.openGap(start, 1 + countWidth + count * (long) idWidth + (count + 1L) * offsetWidth);
    out.put((large ? 1 : 0) << 6 | (idWidth - 1) << 4 | (offsetWidth - 1) << 2 | Variant.OBJECT);
    out.putLittle(count, countWidth);
    for (String name : names) {
      out.putLittle(keys.get(name), idWidth);
    }
    for (int offset : offsets) {
      out.putLittle(offset, offsetWidth);
    }
  }

  /** An array: its elements' data, then its header (count, offsets) put before them. */
  private static void array(JsonNode node, Map<String, Integer> keys, Buffer out) {
    int count = node.size();
    int start = out.size();
    int[] offsets = new int[count + 1];
    for (int i = 0; i < count; i++) {
      offsets[i] = out.size() - start;
      encode(node.get(i), keys, out);
    }
    offsets[count] = out.size() - start;
    boolean large = count > 0xFF;
    int offsetWidth = width(offsets[count]);
    int countWidth = large ? 4 : 1;
    out.openGap(start, 1 + countWidth + (count + 1L) * offsetWidth);
    out.put((large ? 1 : 0) << 4 | (offsetWidth - 1) << 2 | Variant.ARRAY);
    out.putLittle(count, countWidth);
    for (int offset : offsets) {
      out.putLittle(offset, offsetWidth);
    }
  }

  private static byte[] metadata(Map<String, Integer> keys) {
    List<byte[]> strings = new ArrayList<>(keys.size());
    long total = 0;
    for (String key : keys.keySet()) {
      byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
      strings.add(utf8);
      total += utf8.length;
    }
    if (total > Integer.MAX_VALUE) {
      throw tooLarge();
    }
    int width = width(Math.max(keys.size(), (int) total));
    Buffer out = new Buffer();
    out.write(1 | (width - 1) << 6);
    out.little(keys.size(), width);
    int offset = 0;
    for (byte[] key : strings) {
      out.little(offset, width);
      offset += key.length;
    }
    out.little(offset, width);
    strings.forEach(key -> out.write(key, 0, key.length));
    return out.toByteArray();
  }

  private static CelFunctionException tooLarge() {
    return new CelFunctionException("variants.parseJson: the variant would be larger than 2^31 - 1 bytes");
  }

  /** The fewest bytes (1 to 4) that hold {@code n}. */
  private static int width(int n) {
    return n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : n <= 0xFFFFFF ? 3 : 4;
  }

  private static int primitive(int typeId) {
    return typeId << 2 | Variant.PRIMITIVE;
  }

  /**
   * The one buffer a variant is written into: appended to, and opened up at a container's start for its header,
   * which is then put into the gap.
   */
  private static final class Buffer {
    private byte[] bytes = new byte[64];
    private int size;
    /** Where {@link #put} writes: the next byte of an open gap. */
    private int gap;

    int size() {
      return size;
    }

    void write(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    void write(byte[] from, int offset, int length) {
      ensure(length);
      System.arraycopy(from, offset, bytes, size, length);
      size += length;
    }

    void little(long value, int width) {
      ensure(width);
      for (int i = 0; i < width; i++) {
        bytes[size++] = (byte) (value >>> 8 * i);
      }
    }

    /** Moves the bytes from {@code at} up by {@code length}, for {@link #put} to fill from {@code at}. */
    void openGap(int at, long length) {
      ensure(length);
      System.arraycopy(bytes, at, bytes, at + (int) length, size - at);
      size += (int) length;
      gap = at;
    }

    void put(int b) {
      bytes[gap++] = (byte) b;
    }

    void putLittle(long value, int width) {
      for (int i = 0; i < width; i++) {
        bytes[gap++] = (byte) (value >>> 8 * i);
      }
    }

    private void ensure(long more) {
      long needed = size + more;
      if (needed > Integer.MAX_VALUE - 8) {
        throw tooLarge();
      }
      if (needed > bytes.length) {
        bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * bytes.length)));
      }
    }

    byte[] toByteArray() {
      return Arrays.copyOf(bytes, size);
    }
  }
}
