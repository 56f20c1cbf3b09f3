package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link ValuesRead} reads every value of S2's and S3's records: a copy of a record with any one value changed (at
 * any depth: a nested record's field, a list's element, a map's value) reads differently.
 */
class ValuesReadTest {

  @Test
  void everyValueOfS3_isRead() {
    everyValueIsRead(Shape.S3);
  }

  @Test
  void everyValueOfS2_isRead() {
    everyValueIsRead(Shape.S2);
  }

  private static void everyValueIsRead(Shape shape) {
    List<GenericRecord> records = BenchData.records(shape);
    for (GenericRecord record : records.subList(0, 8)) {
      int read = ValuesRead.of(shape, record);
      List<String> changed = new ArrayList<>();
      for (Map.Entry<String, UnaryOperator<Object>> change : changes(record.getSchema(), "").entrySet()) {
        Object copy = change.getValue().apply(GenericData.get().deepCopy(record.getSchema(), record));
        assertThat(ValuesRead.of(shape, copy)).as(change.getKey()).isNotEqualTo(read);
        changed.add(change.getKey());
      }
      assertThat(changed).as("every field is changed once").hasSizeGreaterThanOrEqualTo(
          record.getSchema().getFields().size());
    }
  }

  /** Per path to a value of {@code schema}, what changes that one value of a datum of it in place. */
  private static Map<String, UnaryOperator<Object>> changes(Schema schema, String path) {
    Map<String, UnaryOperator<Object>> changes = new HashMap<>();
    switch (schema.getType()) {
      case RECORD -> {
        for (Schema.Field field : schema.getFields()) {
          changes(field.schema(), path + "." + field.name()).forEach((at, change) -> changes.put(at, datum -> {
            GenericRecord record = (GenericRecord) datum;
            record.put(field.pos(), change.apply(record.get(field.pos())));
            return record;
          }));
        }
      }
      case ARRAY -> changes(schema.getElementType(), path + "[0]").forEach((at, change) -> changes.put(at, datum -> {
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) datum;
        list.set(0, change.apply(list.get(0)));
        return list;
      }));
      case MAP -> changes.put(path + "{k0}", datum -> {
        @SuppressWarnings("unchecked")
        Map<Object, Object> map = (Map<Object, Object>) datum;
        Object key = map.keySet().stream().filter(k -> k.toString().equals("k0")).findFirst().orElseThrow();
        map.put(key, other(map.get(key)));
        return map;
      });
      default -> changes.put(path, ValuesReadTest::other);
    }
    return changes;
  }

  /** A value of the same type as {@code value} that differs from it where a reader of one char or byte looks. */
  private static Object other(Object value) {
    if (value == null) {
      return "x";
    }
    if (value instanceof CharSequence text) {
      return text.length() == 0 ? "x" : (char) (text.charAt(0) + 1) + text.toString().substring(1);
    }
    if (value instanceof Long n) {
      return n + 1;
    }
    if (value instanceof Integer n) {
      return n + 1;
    }
    if (value instanceof Float n) {
      return Float.intBitsToFloat(Float.floatToRawIntBits(n) ^ 1);
    }
    if (value instanceof Double n) {
      return Double.longBitsToDouble(Double.doubleToRawLongBits(n) ^ 1);
    }
    if (value instanceof Boolean b) {
      return !b;
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      bytes[0]++;
      return ByteBuffer.wrap(bytes);
    }
    if (value instanceof GenericData.EnumSymbol symbol) {
      String other = symbol.getSchema().getEnumSymbols().stream()
          .filter(s -> s.length() != symbol.toString().length()).findFirst().orElseThrow();
      return new GenericData.EnumSymbol(symbol.getSchema(), other);
    }
    if (value instanceof GenericData.Fixed fixed) {
      byte[] bytes = fixed.bytes().clone();
      bytes[0]++;
      return new GenericData.Fixed(fixed.getSchema(), bytes);
    }
    throw new IllegalArgumentException("no other value of " + value.getClass());
  }
}
