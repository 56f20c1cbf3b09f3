package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link ValuesRead} reads every value of S2's and S3's records: a copy of a record with any one value changed (at
 * any depth: a nested record's field, a list's first or last element, a map's first or last key or value) reads
 * differently from a copy of it unchanged.
 */
class ValuesReadTest {

  @Test
  void everyValueOfS3_isRead() {
    assertThat(everyValueIsRead(Shape.S3)).containsExactlyInAnyOrder(".id", ".seq", ".count", ".ratio", ".score",
        ".active", ".name", ".payload", ".status", ".hash", ".nickname", ".tags[0]", ".tags[last]",
        ".attributes{first}", ".attributes{last}", ".attributes{first key}", ".attributes{last key}",
        ".address.street", ".address.city", ".address.zip", ".lines[0].sku", ".lines[0].qty", ".lines[0].price",
        ".lines[last].sku", ".lines[last].qty", ".lines[last].price", ".createdAt", ".birthday", ".balance");
  }

  @Test
  void everyValueOfS2_isRead() {
    assertThat(everyValueIsRead(Shape.S2)).hasSize(81).contains(".value0", ".value80");
  }

  @Test
  void aShapeWithoutOne_isRefused() {
    assertThatThrownBy(() -> ValuesRead.of(Shape.S1, BenchData.records(Shape.S1).get(0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("S1");
  }

  /** The paths changed in the records of {@code shape}, each change seen by {@link ValuesRead}. */
  private static Set<String> everyValueIsRead(Shape shape) {
    Set<String> changed = new TreeSet<>();
    for (GenericRecord record : BenchData.records(shape).subList(0, 8)) {
      Schema schema = record.getSchema();
      int read = ValuesRead.of(shape, GenericData.get().deepCopy(schema, record));
      for (Map.Entry<String, UnaryOperator<Object>> change : changes(schema, "").entrySet()) {
        Object copy = change.getValue().apply(GenericData.get().deepCopy(schema, record));
        assertThat(ValuesRead.of(shape, copy)).as(change.getKey()).isNotEqualTo(read);
        changed.add(change.getKey());
      }
    }
    return changed;
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
      case ARRAY -> {
        for (boolean first : new boolean[] {true, false}) {
          changes(schema.getElementType(), path + (first ? "[0]" : "[last]")).forEach((at, change) ->
              changes.put(at, datum -> {
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) datum;
                int i = first ? 0 : list.size() - 1;
                list.set(i, change.apply(list.get(i)));
                return list;
              }));
        }
      }
      case MAP -> {
        for (boolean first : new boolean[] {true, false}) {
          String which = first ? "first" : "last";
          changes.put(path + "{" + which + "}", datum -> {
            Map<Object, Object> map = map(datum);
            Object key = key(map, first);
            map.put(key, other(map.get(key)));
            return map;
          });
          changes.put(path + "{" + which + " key}", datum -> {
            Map<Object, Object> map = map(datum);
            Object key = key(map, first);
            Object value = map.remove(key);
            map.put(other(key), value); // a key no other entry has: a first char one past its own, as "l0"
            return map;
          });
        }
      }
      default -> changes.put(path, ValuesReadTest::other);
    }
    return changes;
  }

  @SuppressWarnings("unchecked")
  private static Map<Object, Object> map(Object datum) {
    return (Map<Object, Object>) datum;
  }

  /** The first or the last key of {@code map} in its order of iteration. */
  private static Object key(Map<Object, Object> map, boolean first) {
    List<Object> keys = new ArrayList<>(map.keySet());
    return keys.get(first ? 0 : keys.size() - 1);
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
