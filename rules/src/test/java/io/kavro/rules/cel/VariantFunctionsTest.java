package io.kavro.rules.cel;

import static io.kavro.rules.cel.CelTestData.INPUT;
import static io.kavro.rules.cel.CelTestData.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Confluent's variant functions in a CEL rule. The encodings are built by hand from the variant binary spec
 * (Parquet's {@code VariantEncoding.md}): a header byte whose low 2 bits are the basic type (0 primitive, 1 short
 * string, 2 object, 3 array) and top 6 bits the type info, little-endian integers; metadata of a version byte
 * (1, the offset width minus one in the top 2 bits), the dictionary's size, its offsets and its keys. The answers are
 * the spec's and Confluent's ({@code CelValidatorVariantTest}, {@code VariantPathTest}, {@code VariantUtils}).
 */
class VariantFunctionsTest {
  /** Metadata of an empty dictionary. */
  static final String NO_KEYS = "01 00 00";
  /** Metadata of the keys "a" (id 0) and "b" (id 1), 1-byte offsets. */
  static final String KEYS_AB = "01 02 00 01 02 61 62";
  /** {"a": 1, "b": "x"}: object, 1-byte ids and offsets; a = int8 1, b = short string "x". */
  static final String OBJECT_AB = "02 02 00 01 00 02 04 0c 01 05 78";
  /** [1, null, "x"]: array, 1-byte offsets. */
  static final String ARRAY = "03 03 00 02 03 05 0c 01 00 05 78";
  /** {"a": [true, {"b": null}]} over KEYS_AB. */
  static final String NESTED = "02 01 00 00 0c 03 02 00 01 07 04 02 01 01 00 01 00";

  private final CelExecutor executor = new CelExecutor();

  private Object eval(String expr) {
    return rule(expr).apply(INPUT, person());
  }

  private PreparedRule rule(String expr) {
    return executor.prepare(CelTestData.target("CEL", "variant", Rule.Kind.CONDITION, Set.of(), expr));
  }

  /** A CEL bytes literal of the hex bytes. */
  static String b(String hex) {
    StringBuilder out = new StringBuilder("b'");
    for (String octet : hex.trim().split("\\s+")) {
      out.append("\\x").append(octet);
    }
    return out.append('\'').toString();
  }

  /** {@code variant(value, metadata)} of hex bytes. */
  static String v(String value, String metadata) {
    return "variant(" + b(value) + ", " + b(metadata) + ")";
  }

  /** Each primitive: its type, its JSON, and (where {@code variants.as} takes its type) its CEL value. */
  @ParameterizedTest(name = "{0}: {1}, {2}")
  @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
      "00|null|null|",
      "04|boolean|true|true",
      "08|boolean|false|false",
      "0c fe|int|-2|-2",
      "10 d4 fe|int|-300|-300",
      "14 a0 86 01 00|int|100000|100000",
      "18 00 00 00 00 00 01 00 00|int|1099511627776|1099511627776",
      "1c 00 00 00 00 00 00 f8 3f|double|1.5|1.5",
      "38 00 00 c0 3f|double|1.5|1.5",
      "20 02 d2 04 00 00|decimal|12.34|decimal('12.34')",
      "24 01 fb ff ff ff ff ff ff ff|decimal|-0.5|decimal('-0.5')",
      "28 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00|decimal|18446744073709551616"
          + "|decimal('18446744073709551616')",
      "2c 38 4a 00 00|date|\"2022-01-08\"|",
      "30 40 22 20 18 24 0a 06 00|timestamp|\"2023-11-14T22:13:20.123456Z\""
          + "|timestamp('2023-11-14T22:13:20.123456Z')",
      "34 40 22 20 18 24 0a 06 00|timestamp|\"2023-11-14T22:13:20.123456\""
          + "|timestamp('2023-11-14T22:13:20.123456Z')",
      // past 2262: micros * 1000 overflows a long, so the instant is counted in seconds and micros
      "30 00 00 c1 6f f2 86 23 00|timestamp|\"2286-11-20T17:46:40Z\"|timestamp('2286-11-20T17:46:40Z')",
      "44 c0 78 e8 dd 00 00 00 00|time|\"01:02:03\"|",
      "48 01 00 00 00 00 00 00 00|timestamp|\"1970-01-01T00:00:00.000000001Z\""
          + "|timestamp('1970-01-01T00:00:00.000000001Z')",
      "4c 00 ca 9a 3b 00 00 00 00|timestamp|\"1970-01-01T00:00:01\"|timestamp('1970-01-01T00:00:01Z')",
      "3c 03 00 00 00 61 62 63|bytes|\"YWJj\"|b'abc'",
      "40 02 00 00 00 68 69|string|\"hi\"|'hi'",
      "09 68 69|string|\"hi\"|'hi'",
      "50 00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff|uuid|\"00112233-4455-6677-8899-aabbccddeeff\"|"})
  void primitives_asTheSpecEncodesThem(String value, String type, String json, String celValue) {
    String variant = v(value, NO_KEYS);
    assertThat(eval("variants.type(" + variant + ")")).as(value).isEqualTo(type);
    assertThat(eval("variants.toJson(" + variant + ")")).as(value).isEqualTo(json);
    if (celValue != null) {
      String extracted = "variants.as(" + variant + ", '" + type + "')";
      String test = type.equals("decimal") ? "decimals.eq(" + extracted + ", " + celValue + ")"
          : extracted + " == " + celValue;
      assertThat(eval(test)).as(test).isEqualTo(Boolean.TRUE);
      assertThat(eval(extracted)).as(test).isExactlyInstanceOf(eval(celValue).getClass());
    }
  }

  @Test
  void as_mismatch_failsNamingBothTypes_tryAsIsNull() {
    assertThat(eval("variants.tryAs(" + v("0c 05", NO_KEYS) + ", 'string') == null"
        + " && variants.tryAs(" + v("0c 05", NO_KEYS) + ", 'nonsense') == null"
        + " && variants.tryAs(" + v("09 68 69", NO_KEYS) + ", 'string') == 'hi'")).isEqualTo(Boolean.TRUE);
    assertThatThrownBy(() -> eval("variants.as(" + v("0c 05", NO_KEYS) + ", 'string') == ''"))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'variant'")
        .hasMessageContaining("variants.as: the variant is of type int, not string");
    assertThatThrownBy(() -> eval("variants.as(" + v("0c 05", NO_KEYS) + ", 'nonsense') == ''"))
        .isInstanceOf(RuleException.class).hasMessageContaining("variants.as: unknown type");
    for (String unsupported : List.of("object", "array", "null", "date", "time", "uuid")) {
      assertThatThrownBy(() -> eval("variants.tryAs(" + v("00", NO_KEYS) + ", '" + unsupported + "') == null"))
          .as(unsupported).isInstanceOf(RuleException.class).hasMessageContaining("is not supported for extraction");
    }
  }

  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
      OBJECT_AB + "|" + KEYS_AB,
      // 2-byte offsets (type info b1b0 = 1)
      "06 02 00 01 00 00 02 00 04 00 0c 01 05 78|" + KEYS_AB,
      // 2-byte field ids (b3b2 = 1)
      "12 02 00 00 01 00 00 02 04 0c 01 05 78|" + KEYS_AB,
      // 4-byte field count (b4 = 1)
      "42 02 00 00 00 00 01 00 02 04 0c 01 05 78|" + KEYS_AB,
      // metadata with 2-byte offsets
      OBJECT_AB + "|41 02 00 00 00 01 00 02 00 61 62"})
  void object_fieldsPathAndJson_atEveryIntegerWidth(String value, String metadata) {
    String o = v(value, metadata);
    assertThat(eval("variants.type(" + o + ")")).isEqualTo("object");
    assertThat(eval("variants.toJson(" + o + ")")).isEqualTo("{\"a\":1,\"b\":\"x\"}");
    assertThat(eval("variants.as(variants.field(" + o + ", 'a'), 'int') == 1"
        + " && variants.as(variants.field(" + o + ", 'b'), 'string') == 'x'"
        + " && variants.as(variants.path(" + o + ", '$.b'), 'string') == 'x'"
        + " && variants.as(variants.path(" + o + ", '$[\"a\"]'), 'int') == 1"
        + " && variants.as(variants.path(" + o + ", \"$['b']\"), 'string') == 'x'"
        + " && variants.field(" + o + ", 'c') == null && variants.path(" + o + ", '$.c') == null"
        + " && variants.index(" + o + ", 0) == null && variants.path(" + o + ", '$[0]') == null"))
        .isEqualTo(Boolean.TRUE);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', value = {ARRAY,
      // 4-byte element count (b2 = 1)
      "13 03 00 00 00 00 02 03 05 0c 01 00 05 78",
      // 2-byte offsets
      "07 03 00 00 02 00 03 00 05 00 0c 01 00 05 78"})
  void array_elementsPathAndJson(String value) {
    String a = v(value, NO_KEYS);
    assertThat(eval("variants.type(" + a + ")")).isEqualTo("array");
    assertThat(eval("variants.toJson(" + a + ")")).isEqualTo("[1,null,\"x\"]");
    assertThat(eval("variants.as(variants.index(" + a + ", 0), 'int') == 1"
        + " && variants.isNull(variants.index(" + a + ", 1)) && !(variants.index(" + a + ", 1) == null)"
        + " && variants.as(variants.index(" + a + ", 2), 'string') == 'x'"
        + " && variants.as(variants.path(" + a + ", '$[2]'), 'string') == 'x'"
        + " && variants.index(" + a + ", 3) == null && variants.index(" + a + ", -1) == null"
        + " && variants.index(" + a + ", 4294967296) == null && variants.path(" + a + ", '$[3]') == null"
        + " && variants.field(" + a + ", 'a') == null && variants.path(" + a + ", '$.a') == null"))
        .isEqualTo(Boolean.TRUE);
  }

  @Test
  void nested_pathsWalkObjectsAndArrays() {
    String n = v(NESTED, KEYS_AB);
    assertThat(eval("variants.toJson(" + n + ")")).isEqualTo("{\"a\":[true,{\"b\":null}]}");
    assertThat(eval("variants.as(variants.path(" + n + ", '$.a[0]'), 'boolean')"
        + " && variants.isNull(variants.path(" + n + ", '$.a[1].b'))"
        + " && variants.isNull(variants.path(" + n + ", \"$['a'][1][\\\"b\\\"]\"))"
        + " && variants.type(variants.path(" + n + ", '$.a[1]')) == 'object'"
        + " && variants.path(" + n + ", '$.a[2]') == null && variants.path(" + n + ", '$.a[1].c') == null"
        + " && variants.path(" + n + ", '$.a.b') == null && variants.path(" + n + ", '$.a[0].b') == null"
        + " && variants.type(variants.path(" + n + ", '$')) == 'object'"
        + " && variants.as(variants.index(variants.field(" + n + ", 'a'), 0), 'boolean')"
        + " && variants.isNull(variants.field(variants.index(variants.field(" + n + ", 'a'), 1), 'b'))"))
        .isEqualTo(Boolean.TRUE);
  }

  /** From 32 fields a key is found by binary search over the keys' order, as the spec sorts them. */
  @Test
  void manyFields_foundByBinarySearch() {
    GenericRecord in = person();
    in.put("data", ByteBuffer.wrap(SpecEncoder.objectOfInts(40)));
    String o = "variant(message.data, " + b(HexFormat.ofDelimiter(" ").formatHex(SpecEncoder.metadataOfKeys(40)))
        + ")";
    StringBuilder expr = new StringBuilder("true");
    for (int i : new int[] {0, 1, 7, 19, 20, 31, 38, 39}) {
      expr.append(" && variants.as(variants.field(").append(o).append(", 'k").append(String.format("%02d", i))
          .append("'), 'int') == ").append(i);
    }
    expr.append(" && variants.field(").append(o).append(", 'k40') == null && variants.field(").append(o)
        .append(", 'a') == null");
    assertThat(rule(expr.toString()).apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  /**
   * The threshold is 32 fields, as Confluent's ({@code BINARY_SEARCH_THRESHOLD}): with field ids out of key order
   * (descending), 31 fields are searched in order and 'k00' (the last) is found; 32 by binary search, which misses
   * it as Confluent's does, and finds the middle one.
   */
  @Test
  void unsortedFields_foundInOrderBelow32_missedByBinarySearchFrom32() {
    for (int n : new int[] {31, 32}) {
      GenericRecord in = person();
      in.put("data", ByteBuffer.wrap(SpecEncoder.unsortedObjectOfInts(n)));
      String o = "variant(message.data, " + b(HexFormat.ofDelimiter(" ").formatHex(SpecEncoder.metadataOfKeys(n)))
          + ")";
      int middle = (n - 1) >>> 1;
      Object found = rule("variants.field(" + o + ", 'k00') != null && variants.path(" + o + ", '$.k00') != null"
          + " && variants.as(variants.field(" + o + ", 'k00'), 'int') == 0").apply(INPUT, in);
      assertThat(found).as(n + " fields").isEqualTo(n < 32);
      assertThat(rule("variants.as(variants.field(" + o + ", '" + String.format("k%02d", n - 1 - middle)
          + "'), 'int') == " + (n - 1 - middle))
          .apply(INPUT, in)).as(n + " fields").isEqualTo(Boolean.TRUE);
    }
  }

  /**
   * The binary search orders keys as Confluent's does, by {@link String#compareTo} (UTF-16), also where that differs
   * from the order of their UTF-8 bytes: U+E000 (EE 80 80) sorts after U+1F600 (F0 9F 98 80, a surrogate pair).
   */
  @Test
  void binarySearch_ordersNonAsciiKeysAsStringsDo() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 38; i++) {
      keys.add(String.format("k%02d", i));
    }
    keys.add("\uD83D\uDE00");
    keys.add("\uE000");
    keys.add("\uD83D\uDE00x");
    List<String> sorted = new ArrayList<>(keys);
    sorted.sort(null);
    GenericRecord in = person();
    in.put("data", ByteBuffer.wrap(SpecEncoder.objectOfIntsInOrder(keys, sorted)));
    String o = "variant(message.data, " + b(HexFormat.ofDelimiter(" ").formatHex(SpecEncoder.metadataOf(keys)))
        + ")";
    StringBuilder expr = new StringBuilder("true");
    for (int id = 0; id < keys.size(); id++) {
      expr.append(" && variants.as(variants.field(").append(o).append(", '").append(keys.get(id))
          .append("'), 'int') == ").append(id);
    }
    expr.append(" && variants.field(").append(o).append(", '\uE001') == null");
    assertThat(rule(expr.toString()).apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  @Test
  void parseJson_asConfluentsReadsJson() {
    assertThat(eval("variants.toJson(variants.parseJson('{\"b\": 1, \"a\": [true, null, \"x\"]}'))"))
        .isEqualTo("{\"a\":[true,null,\"x\"],\"b\":1}");
    assertThat(eval("variants.type(variants.parseJson('42')) == 'int'"
        + " && variants.type(variants.parseJson('12345678901')) == 'int'"
        + " && variants.type(variants.parseJson('1.5')) == 'double'"
        + " && variants.type(variants.parseJson('123456789012345678901234567890')) == 'decimal'"
        + " && variants.toJson(variants.parseJson('123456789012345678901234567890'))"
        + "      == '123456789012345678901234567890'"
        + " && variants.toJson(variants.parseJson('1e2')) == '100.0'"
        + " && variants.as(variants.parseJson('1e2'), 'double') == 100.0"
        + " && variants.as(variants.field(variants.parseJson('{\"a\":1,\"a\":2}'), 'a'), 'int') == 2"
        + " && variants.isNull(variants.parseJson('null'))"
        + " && variants.toJson(variants.parseJson(' {\"é\" : \"ü\\\\\"\"} ')) == '{\"é\":\"ü\\\\\"\"}'"
        + " && variants.as(variants.parseJson('\"" + "x".repeat(100) + "\"'), 'string').size() == 100"
        + " && variants.as(variants.field(variants.parseJson('{\"name\":\"alice\"}'), 'name'), 'string')"
        + "      == 'alice'"
        + " && variants.toJson(variants.field(variants.parseJson('{\"name\":\"alice\"}'), 'name')) == '\"alice\"'"))
        .isEqualTo(Boolean.TRUE);
  }

  /** Wider than a byte: 300 fields (2-byte ids, a 4-byte count), 300 elements, a long string. */
  @Test
  void parseJson_largeObjectsAndArrays_roundTrip() {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < 300; i++) {
      json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
    }
    json.append(",\"list\":[").append("1,".repeat(299)).append("\"").append("y".repeat(70)).append("\"]}");
    GenericRecord in = person();
    in.put("ssn", json.toString());
    assertThat(rule("variants.as(variants.field(variants.parseJson(message.ssn), 'k299'), 'int') == 299"
        + " && variants.as(variants.field(variants.parseJson(message.ssn), 'k0'), 'int') == 0"
        + " && variants.as(variants.path(variants.parseJson(message.ssn), '$.list[299]'), 'string').size() == 70"
        + " && variants.as(variants.path(variants.parseJson(message.ssn), '$.list[298]'), 'int') == 1"
        + " && variants.field(variants.parseJson(message.ssn), 'k300') == null").apply(INPUT, in))
        .isEqualTo(Boolean.TRUE);
  }

  @Test
  void tryParseJson_isNullWhereParseJsonFails() {
    assertThat(eval("variants.tryParseJson('this is not json') == null && variants.tryParseJson('') == null"
        + " && variants.as(variants.tryParseJson('42'), 'int') == 42"
        + " && variant(variants.tryParseJson('not json')) == null")).isEqualTo(Boolean.TRUE);
    assertThatThrownBy(() -> eval("variants.parseJson('not json') == null"))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'variant'")
        .hasMessageContaining("variants.parseJson: not valid JSON (line 1, column 1)");
  }

  /** Confluent's null model: CEL null is a miss, and every navigation passes it on. */
  @Test
  void celNull_propagatesThroughNavigation_andIsNotAVariantNull() {
    String o = v(OBJECT_AB, KEYS_AB);
    String missing = "variants.field(" + o + ", 'missing')";
    assertThat(eval("variants.field(" + missing + ", 'x') == null && variants.path(" + missing + ", '$.x') == null"
        + " && variants.index(" + missing + ", 0) == null && variants.tryAs(" + missing + ", 'string') == null"
        + " && variants.as(" + missing + ", 'string') == null && !variants.isNull(" + missing + ")"
        + " && !variants.isNull(" + o + ")"
        + " && (" + missing + " == null ? 'absent' : variants.toJson(" + missing + ")) == 'absent'"))
        .isEqualTo(Boolean.TRUE);
  }

  /** Variants compare by identity, as Confluent's (whose Variant has no equals). */
  @Test
  void variants_compareByIdentity() {
    assertThat(eval("variants.parseJson('1') == variants.parseJson('1')")).isEqualTo(Boolean.FALSE);
    assertThat(eval("[variants.parseJson('1')].all(x, x == x)")).isEqualTo(Boolean.TRUE);
  }

  /** An Avro variant record ({metadata: bytes, value: bytes}) is a map in CEL: variant(...) reads it. */
  @Test
  void variantOfARecordMap() {
    String record = "{'metadata': " + b(KEYS_AB) + ", 'value': " + b(OBJECT_AB) + "}";
    assertThat(eval("variants.as(variants.field(variant(" + record + "), 'b'), 'string') == 'x'"))
        .isEqualTo(Boolean.TRUE);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
      "variant('{}')|use variants.parseJson",
      "variant(1)|variant: cannot convert a java.lang.Long",
      "variant({'metadata': b'\\x01\\x00\\x00'})|has no 'value'",
      "variant({'metadata': 1, 'value': b'\\x00'})|'metadata' is a java.lang.Long, not bytes",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$.')|variants.path: the path has no name",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$[-1]')|has a negative index",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$[2147483648]')|beyond 2^31 - 1",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$[0')|has no ']' at position 3",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$[')|ends after the '['",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$[]')|has no index",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$[\"foo')|unterminated quoted key",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$[\"a\\\\nb\"]')|unsupported escape",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$.1abc')|has no name",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '.a')|must start with '$'",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '')|must start with '$'",
      "variants.path(variant(b'\\x00', b'\\x01\\x00\\x00'), '$+a')|unexpected character at position 1"})
  void wrongInput_failsTheRule_sayingWhat(String expr, String what) {
    assertThatThrownBy(() -> eval(expr + " == null")).as(expr).isInstanceOf(RuleException.class)
        .hasMessageContaining("rule 'variant'").hasMessageContaining(what);
  }

  @Test
  void pathsTheSpecAllows_walk() {
    String n = v("02 02 00 01 00 02 04 0c 01 05 78", "01 02 00 03 06 61 20 62 63 5f 31");
    // keys "a b" and "c_1"
    assertThat(eval("variants.as(variants.path(" + n + ", '$[\"a b\"]'), 'int') == 1"
        + " && variants.as(variants.path(" + n + ", '$.c_1'), 'string') == 'x'"
        + " && variants.as(variants.path(" + n + ", \"$['c_1']\"), 'string') == 'x'")).isEqualTo(Boolean.TRUE);
    String quotes = v("02 01 00 00 01 00", "01 01 00 03 61 27 22");
    // key a'" (with both quotes)
    assertThat(eval("variants.isNull(variants.path(" + quotes + ", \"$['a\\\\'\\\"']\"))")).isEqualTo(Boolean.TRUE);
  }

  @Test
  void variantFunctions_takeVariantsOnly_whenCompiled() {
    assertThatThrownBy(() -> rule("variants.field('hello', 'x') == null")).isInstanceOf(RuleException.class)
        .hasMessageContaining("cannot compile").hasMessageContaining("no matching overload");
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
      "14 a0 86|" + NO_KEYS + "|its value is cut short: a part at byte 1 runs past its end (3 bytes in all)",
      "|" + NO_KEYS + "|no header byte",
      "00|02 00 00|its metadata is of version 2, not 1",
      "54|" + NO_KEYS + "|unknown primitive type 21",
      "09 68|" + NO_KEYS + "|its value is cut short",
      "40 ff ff ff 7f 68|" + NO_KEYS + "|its value is cut short",
      "40 ff ff ff ff|" + NO_KEYS + "|beyond 2^31 - 1",
      "3c 05 00 00 00 61|" + NO_KEYS + "|its value is cut short",
      "28 00 01 02|" + NO_KEYS + "|its value is cut short",
      "02 01 00 05 02 0c 01|" + KEYS_AB + "|the field 0 of the object at byte 0 starts past the end of its data",
      "02 01 03 00 02 0c 01|" + KEYS_AB + "|a field names a key past the end of its metadata's dictionary",
      "02 01 00 00 02 0c 01|01 02 02 01 02 61 62|its metadata's key offsets at byte 2 are out of order",
      "02 01 00 00 02 0c 01|01 02 00 09 09 61 62|its metadata is cut short",
      "02 01 00 00 02 0c 01|01|its metadata is cut short",
      "42 ff ff ff 7f 00|" + NO_KEYS + "|its value is cut short",
      "03 02 00 01 09 00 00|" + NO_KEYS + "|its value is cut short",
      "44 00 00 00 00 00 00 00 80|" + NO_KEYS + "|variants.toJson: a variant of type time is out of its range"})
  void malformedEncodings_failTheRule_sayingWhatAndWhere(String value, String metadata, String what) {
    String variant = value == null ? "variant(b'', " + b(metadata) + ")" : v(value, metadata);
    Throwable thrown = catchThrowable(() -> eval("variants.toJson(" + variant + ") != ''"));
    assertThat(thrown).as(value).isInstanceOf(RuleException.class).hasMessageContaining("rule 'variant'")
        .hasMessageContaining(what);
    assertThat(stackTrace(thrown)).doesNotContain("IndexOutOfBounds", "NullPointer", "BufferUnderflow");
  }

  @Test
  void emptyMetadata_failsTheRule() {
    assertThatThrownBy(() -> eval("variants.type(variant(b'\\x00', b'')) == 'null'"))
        .isInstanceOf(RuleException.class).hasMessageContaining("its metadata is empty");
  }

  /**
   * Every cut and every one-byte change of a valid nested encoding, of its value or its metadata, either reads or
   * fails the rule with a RuleException: never another exception, never a hang.
   */
  @Test
  void everyTruncationAndByteFlip_failsCleanlyOrReads() {
    byte[] value = HexFormat.ofDelimiter(" ").parseHex(NESTED);
    PreparedRule rule = rule("variants.toJson(variant(message.data, " + b(KEYS_AB) + ")) != ''"
        + " && variants.path(variant(message.data, " + b(KEYS_AB) + "), '$.a[1].b') == null");
    List<byte[]> inputs = cutsAndFlips(value);
    List<byte[]> metadatas = cutsAndFlips(HexFormat.ofDelimiter(" ").parseHex(KEYS_AB));
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (byte[] metadata : metadatas) {
        GenericRecord in = person();
        in.put("data", ByteBuffer.wrap(metadata));
        try {
          rule("variants.toJson(variant(" + b(NESTED) + ", message.data)) != ''"
              + " && variants.path(variant(" + b(NESTED) + ", message.data), '$.a[1].b') == null")
              .apply(INPUT, in);
        } catch (RuleException e) {
          assertThat(e).hasMessageContaining("rule 'variant'");
          assertThat(stackTrace(e)).as(HexFormat.of().formatHex(metadata))
              .doesNotContain("IndexOutOfBounds", "NullPointer", "BufferUnderflow", "StackOverflow");
        }
      }
      for (byte[] input : inputs) {
        GenericRecord in = person();
        in.put("data", ByteBuffer.wrap(input));
        try {
          rule.apply(INPUT, in);
        } catch (RuleException e) {
          assertThat(e).hasMessageContaining("rule 'variant'");
          assertThat(stackTrace(e)).as(HexFormat.of().formatHex(input))
              .doesNotContain("IndexOutOfBounds", "NullPointer", "BufferUnderflow", "StackOverflow");
        }
      }
    });
  }

  /** Values that overlap (each of 200 elements points at the same array, six deep) would print 200^6 values. */
  @Test
  void overlappingValues_failToPrint_ratherThanExplode() {
    GenericRecord in = person();
    in.put("data", ByteBuffer.wrap(SpecEncoder.sharedArrays(200, 6)));
    PreparedRule rule = rule("variants.toJson(variant(message.data, " + b(NO_KEYS) + ")) != ''");
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> rule.apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("it holds more values than bytes"));
    PreparedRule walk = rule("variants.as(variants.path(variant(message.data, " + b(NO_KEYS)
        + "), '$[199][0][5][1][2][3]'), 'int') == 0");
    assertThat(walk.apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  @Test
  void deepNesting_failsToPrint_namingTheBound() {
    GenericRecord in = person();
    in.put("data", ByteBuffer.wrap(SpecEncoder.nestedArrays(5000)));
    PreparedRule rule = rule("variants.toJson(variant(message.data, " + b(NO_KEYS) + ")) != ''");
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> rule.apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("nests deeper than 1000 levels"));
    in.put("data", ByteBuffer.wrap(SpecEncoder.nestedArrays(900)));
    assertThat(rule.apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  /**
   * Output that a small encoding could blow up is bounded: 1,000 elements pointing at one 20,000-byte string
   * (20 KB) would print 20 MB. It fails fast with the typed error, never an OutOfMemoryError.
   */
  @Test
  void elementsSharingOneString_failToPrint_pastTheOutputBound() {
    PreparedRule print = rule("variants.toJson(variant(message.data, " + b(NO_KEYS) + ")) != ''");
    GenericRecord in = person();
    in.put("data", ByteBuffer.wrap(SpecEncoder.elementsSharingOneString(1000, 20_000)));
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> print.apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'variant'")
        .hasMessageContaining("variants.toJson: the JSON would be longer than 10000000 bytes"));
    in.put("data", ByteBuffer.wrap(SpecEncoder.elementsSharingOneString(3, 70)));
    assertThat(print.apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  /**
   * 5,000 well-formed objects {K: null} naming one 20,000-byte key (50 KB) would print 100 MB: it fails fast with the
   * typed error, never an OutOfMemoryError.
   */
  @Test
  void objectsSharingOneLongKey_failToPrint_pastTheOutputBound() {
    GenericRecord in = person();
    in.put("data", ByteBuffer.wrap(SpecEncoder.objectsOfOneKey(5000)));
    in.put("ssn", new String(SpecEncoder.metadataOfOneLongKey(20_000), java.nio.charset.StandardCharsets.ISO_8859_1));
    PreparedRule print = rule("variants.toJson(variant({'value': message.data, 'metadata': bytes(message.ssn)}))"
        + " != ''");
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> print.apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'variant'")
        .hasMessageContaining("variants.toJson: the JSON would be longer than 10000000 bytes"));
    in.put("data", ByteBuffer.wrap(SpecEncoder.objectsOfOneKey(3)));
    assertThat(print.apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  @Test
  void parseJson_tooDeep_saysSo() {
    GenericRecord in = person();
    in.put("ssn", "[".repeat(1001) + "]".repeat(1001));
    assertThatThrownBy(() -> rule("variants.parseJson(message.ssn) != null").apply(INPUT, in))
        .isInstanceOf(RuleException.class)
        .hasMessageContaining("variants.parseJson: the JSON nests deeper than 1000 levels");
    in.put("ssn", "[".repeat(1000) + "]".repeat(1000));
    assertThat(rule("variants.parseJson(message.ssn) != null").apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  /** Messages of a malformed encoding give positions, never a size or offset read from it. */
  @Test
  void malformedEncodings_neverQuoteNumbersReadFromThem() {
    for (String value : new String[] {"40 ff ff ff ff", "40 ff ff ff 7f 68", "02 01 00 f0 02 0c 01",
        "02 01 b7 00 02 0c 01"}) {
      Throwable thrown = catchThrowable(() -> eval("variants.toJson(" + v(value, KEYS_AB) + ") != ''"));
      assertThat(thrown).as(value).isInstanceOf(RuleException.class).hasMessageContaining("malformed variant")
          .message().doesNotContain("4294967295", "2147483647", "240", "183");
    }
    Throwable thrown = catchThrowable(() -> eval("variants.toJson(" + v("02 01 00 00 02 0c 01",
        "01 02 00 b7 02 61 62") + ") != ''"));
    assertThat(thrown).isInstanceOf(RuleException.class).hasMessageContaining("malformed variant")
        .message().doesNotContain("183");
  }

  /** {@code variant(...)} brings its metadata in: it costs the metadata's length too, not only the value's. */
  @Test
  void variantOfBuffers_costsItsMetadataToo() {
    GenericRecord in = person();
    byte[] metadata = new byte[20_000];
    metadata[0] = 0x01;
    in.put("data", ByteBuffer.wrap(metadata));
    CelExecutor bounded = new CelExecutor();
    bounded.configure(Map.of("cel.max.cost", "1000000"));
    String loop = "[0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, ";
    for (String made : new String[] {"variant(b'\\x00', message.data)",
        "variant({'metadata': message.data, 'value': b'\\x00'})"}) {
      PreparedRule rule = bounded.prepare(CelTestData.target("CEL", "variant", Rule.Kind.CONDITION, Set.of(),
          loop + "variants.isNull(" + made + "))))"));
      assertThatThrownBy(() -> rule.apply(INPUT, in)).as(made).isInstanceOf(RuleException.class)
          .hasMessageContaining("cel.max.cost=1000000");
    }
    in.put("data", ByteBuffer.wrap(new byte[] {0x01, 0x00, 0x00}));
    assertThat(bounded.prepare(CelTestData.target("CEL", "variant", Rule.Kind.CONDITION, Set.of(),
        loop + "variants.isNull(variant(b'\\x00', message.data)))))")).apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  /** A transform of a JSON message cannot return a variant: it is refused by name, not left to Jackson. */
  @Test
  void jsonTransformReturningAVariant_isRefusedByName() throws Exception {
    PreparedRule transform = executor.prepare(CelTestData.target("CEL", "shape", Rule.Kind.TRANSFORM, Set.of(),
        "{'payload': variants.parseJson('{\"a\": 1}')}"));
    com.fasterxml.jackson.databind.JsonNode message = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree("{\"payload\": null}");
    assertThatThrownBy(() -> transform.apply(INPUT, message)).isInstanceOf(RuleException.class)
        .hasMessageContaining("rule 'shape'").hasMessageContaining("cannot return a variant");
  }

  /**
   * parseJson writes the bytes Confluent's builder writes, nested: keys numbered as first named (b 0, d 1, c 2,
   * a 3), each object's fields in key order, a container's header before its data.
   */
  @Test
  void parseJson_nested_bytesAsTheSpecLaysThemOut() {
    Variant v = VariantEncoder.parse("{\"b\": {\"d\": 1, \"c\": [true]}, \"a\": null}");
    assertThat(HexFormat.ofDelimiter(" ").formatHex(v.metadataBytes())).isEqualTo("01 04 00 01 02 03 04 62 64 63 61");
    // {a: null, b: {c: [true], d: 1}}: ids 3 0, offsets 0 1 18; b: ids 2 1, offsets 0 5 10; [true]: 03 01 00 01 04
    assertThat(HexFormat.ofDelimiter(" ").formatHex(v.valueBytes())).isEqualTo("02 02 03 00 00 01 12 00"
        + " 02 02 02 01 00 05 0a 03 01 00 01 04 14 01 00 00 00");
  }

  /** A variant a function gives costs its encoded size, as a string or bytes costs its length. */
  @Test
  void variantResults_countTowardsTheCostBound() {
    GenericRecord in = person();
    in.put("ssn", "[" + "1,".repeat(5000) + "1]");
    CelExecutor bounded = new CelExecutor();
    bounded.configure(Map.of("cel.max.cost", "1000000"));
    PreparedRule rule = bounded.prepare(CelTestData.target("CEL", "variant", Rule.Kind.CONDITION, Set.of(),
        "[0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c,"
            + " !variants.isNull(variants.parseJson(message.ssn)))))"));
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> rule.apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("cel.max.cost=1000000"));
    in.put("ssn", "[1]");
    assertThat(rule.apply(INPUT, in)).isEqualTo(Boolean.TRUE);
  }

  /** Every cut of {@code bytes}, and every change of one of its bytes by one of 8 bit masks. */
  private static List<byte[]> cutsAndFlips(byte[] bytes) {
    List<byte[]> out = new ArrayList<>();
    for (int cut = 0; cut < bytes.length; cut++) {
      out.add(java.util.Arrays.copyOf(bytes, cut));
    }
    for (int at = 0; at < bytes.length; at++) {
      for (int flip : new int[] {0x01, 0x02, 0x04, 0x08, 0x10, 0x40, 0x80, 0xff}) {
        byte[] changed = bytes.clone();
        changed[at] ^= (byte) flip;
        out.add(changed);
      }
    }
    return out;
  }

  private static String stackTrace(Throwable e) {
    java.io.StringWriter out = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }

  /** Encodings written here from the spec, for the cases too long to write out in hex. */
  static final class SpecEncoder {
    private SpecEncoder() {}

    /** Metadata of the keys k00..k(n-1), inserted in reverse order: id 0 is the last key. */
    static byte[] metadataOfKeys(int n) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x01);
      out.write(n);
      for (int id = 0; id <= n; id++) {
        out.write(3 * id);
      }
      for (int id = 0; id < n; id++) {
        out.writeBytes(String.format("k%02d", n - 1 - id).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      }
      return out.toByteArray();
    }

    /** {"k00": 0, ..., "k(n-1)": n-1} over {@link #metadataOfKeys}: ids in key order, int8 values. */
    static byte[] objectOfInts(int n) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x02);
      out.write(n);
      for (int key = 0; key < n; key++) {
        out.write(n - 1 - key);
      }
      for (int i = 0; i <= n; i++) {
        out.write(2 * i);
      }
      for (int key = 0; key < n; key++) {
        out.write(0x0c);
        out.write(key);
      }
      return out.toByteArray();
    }

    /** {"k00": 0, ..., "k(n-1)": n-1} over {@link #metadataOfKeys} with ids in id order: keys descending. */
    static byte[] unsortedObjectOfInts(int n) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x02);
      out.write(n);
      for (int id = 0; id < n; id++) {
        out.write(id);
      }
      for (int i = 0; i <= n; i++) {
        out.write(2 * i);
      }
      for (int id = 0; id < n; id++) {
        out.write(0x0c);
        out.write(n - 1 - id);
      }
      return out.toByteArray();
    }

    /** Metadata of {@code keys}, key {@code i} of id {@code i}, 1-byte offsets. */
    static byte[] metadataOf(List<String> keys) {
      List<byte[]> utf8 = keys.stream().map(k -> k.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toList();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x01);
      out.write(keys.size());
      int offset = 0;
      for (byte[] key : utf8) {
        out.write(offset);
        offset += key.length;
      }
      out.write(offset);
      utf8.forEach(out::writeBytes);
      return out.toByteArray();
    }

    /** An object of the fields {@code order} (in that order), each the int8 of its key's id in {@code keys}. */
    static byte[] objectOfIntsInOrder(List<String> keys, List<String> order) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x02);
      out.write(order.size());
      order.forEach(key -> out.write(keys.indexOf(key)));
      for (int i = 0; i <= order.size(); i++) {
        out.write(2 * i);
      }
      order.forEach(key -> {
        out.write(0x0c);
        out.write(keys.indexOf(key));
      });
      return out.toByteArray();
    }

    /**
     * An array of {@code n} elements that all point at one long string of {@code length} 'a's: a well-formed
     * header, values that overlap.
     */
    static byte[] elementsSharingOneString(int n, int length) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(1 << 4 | 2 << 2 | 0x03);
      little(out, n, 4);
      for (int i = 0; i < n; i++) {
        little(out, 0, 3);
      }
      little(out, 5 + length, 3);
      out.write(16 << 2);
      little(out, length, 4);
      out.writeBytes("a".repeat(length).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return out.toByteArray();
    }

    /** An array of {@code n} distinct objects {K: null}, each naming key 0 (well-formed: no value overlaps). */
    static byte[] objectsOfOneKey(int n) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(1 << 4 | 2 << 2 | 0x03);
      little(out, n, 4);
      for (int i = 0; i <= n; i++) {
        little(out, 6 * i, 3);
      }
      for (int i = 0; i < n; i++) {
        out.writeBytes(new byte[] {0x02, 0x01, 0x00, 0x00, 0x01, 0x00});
      }
      return out.toByteArray();
    }

    /** Metadata of one key of {@code length} 'k's, 2-byte offsets. */
    static byte[] metadataOfOneLongKey(int length) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x01 | 1 << 6);
      little(out, 1, 2);
      little(out, 0, 2);
      little(out, length, 2);
      out.writeBytes("k".repeat(length).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return out.toByteArray();
    }

    /** Arrays {@code depth} deep, each of {@code n} elements that all start at data offset 0: one inner array. */
    static byte[] sharedArrays(int n, int depth) {
      byte[] inner = {0x0c, 0x00};
      for (int level = 0; level < depth; level++) {
        int width = inner.length <= 0xFF ? 1 : inner.length <= 0xFFFF ? 2 : 3;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((width - 1) << 2 | 0x03);
        out.write(n);
        for (int i = 0; i < n; i++) {
          little(out, 0, width);
        }
        little(out, inner.length, width);
        out.writeBytes(inner);
        inner = out.toByteArray();
      }
      return inner;
    }

    /** [[[...[null]...]]], {@code depth} arrays deep. */
    static byte[] nestedArrays(int depth) {
      byte[] inner = {0x00};
      for (int level = 0; level < depth; level++) {
        int width = inner.length <= 0xFF ? 1 : inner.length <= 0xFFFF ? 2 : 3;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((width - 1) << 2 | 0x03);
        out.write(1);
        little(out, 0, width);
        little(out, inner.length, width);
        out.writeBytes(inner);
        inner = out.toByteArray();
      }
      return inner;
    }

    private static void little(ByteArrayOutputStream out, int value, int width) {
      for (int i = 0; i < width; i++) {
        out.write(value >>> 8 * i & 0xFF);
      }
    }
  }
}
