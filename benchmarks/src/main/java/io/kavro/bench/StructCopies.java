package io.kavro.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * The floor under any converter that returns Connect's structs: a value's struct tree built again, field by field
 * with {@code Struct.put} (which checks every value it is given, nested ones again at each level), from values
 * already in Connect's form, lists and maps copied; nothing is read.
 */
final class StructCopies {
  private StructCopies() {}

  static Object rebuild(Object value) {
    if (value instanceof Struct struct) {
      Struct copy = new Struct(struct.schema());
      for (Field field : struct.schema().fields()) {
        copy.put(field, rebuild(struct.get(field)));
      }
      return copy;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      for (Object item : list) {
        copy.add(rebuild(item));
      }
      return copy;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new HashMap<>();
      map.forEach((k, v) -> copy.put(k, rebuild(v)));
      return copy;
    }
    return value;
  }
}
