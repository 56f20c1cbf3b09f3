package io.kavro.serde;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;

/**
 * Shrinks a (schema, datum) pair by structure, one step at a time: a record field dropped (from the schema and
 * the datum), an array item or a map entry dropped, a union replaced by the branch its value takes, and the
 * same inside nested records. Each candidate is smaller than the pair and still consistent.
 */
final class Shrink {
  private Shrink() {}

  /** A schema and a datum of it. */
  record Pair(Schema schema, Object datum) {}

  static List<Pair> smaller(Schema schema, Object datum) {
    List<Pair> candidates = new ArrayList<>();
    switch (schema.getType()) {
      case RECORD -> {
        if (!(datum instanceof IndexedRecord record) || isRecursive(schema)) {
          break;
        }
        List<Schema.Field> fields = schema.getFields();
        for (int i = 0; i < fields.size(); i++) {
          candidates.add(without(schema, record, i));
        }
        for (int i = 0; i < fields.size(); i++) {
          Schema.Field field = fields.get(i);
          for (Pair inner : smaller(field.schema(), record.get(field.pos()))) {
            candidates.add(replaced(schema, record, i, inner));
          }
        }
      }
      case ARRAY -> {
        if (datum instanceof List<?> items && !items.isEmpty()) {
          candidates.add(new Pair(schema, new ArrayList<>(items.subList(0, items.size() / 2))));
          for (int i = 0; i < Math.min(items.size(), 4); i++) {
            List<Object> fewer = new ArrayList<>(items);
            fewer.remove(i);
            candidates.add(new Pair(schema, fewer));
          }
        }
      }
      case MAP -> {
        if (datum instanceof Map<?, ?> entries && !entries.isEmpty()) {
          for (Object key : new ArrayList<>(entries.keySet()).subList(0, Math.min(entries.size(), 4))) {
            Map<Object, Object> fewer = new HashMap<>(entries);
            fewer.remove(key);
            candidates.add(new Pair(schema, fewer));
          }
        }
      }
      case UNION -> {
        try {
          int branch = GenericData.get().resolveUnion(schema, datum);
          candidates.add(new Pair(schema.getTypes().get(branch), datum));
        } catch (RuntimeException e) {
          // a value of no branch (a mutated datum): no smaller union
        }
      }
      default -> { }
    }
    return candidates;
  }

  private static Pair without(Schema schema, IndexedRecord record, int dropped) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : schema.getFields()) {
      if (field.pos() != dropped) {
        fields.add(new Schema.Field(field, field.schema()));
      }
    }
    return copy(schema, fields, record, null, -1);
  }

  private static Pair replaced(Schema schema, IndexedRecord record, int at, Pair inner) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : schema.getFields()) {
      fields.add(new Schema.Field(field, field.pos() == at ? inner.schema() : field.schema()));
    }
    return copy(schema, fields, record, inner.datum(), at);
  }

  private static Pair copy(Schema schema, List<Schema.Field> fields, IndexedRecord record, Object value, int at) {
    Schema smaller = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
    GenericData.Record copy = new GenericData.Record(smaller);
    for (Schema.Field field : smaller.getFields()) {
      int old = schema.getField(field.name()).pos();
      copy.put(field.pos(), old == at ? value : record.get(old));
    }
    return new Pair(smaller, copy);
  }

  /** Whether the record holds itself somewhere inside (Node): rebuilding it would break the reference. */
  static boolean isRecursive(Schema record) {
    return record.getFields().stream().anyMatch(f -> holds(f.schema(), record,
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>())));
  }

  private static boolean holds(Schema schema, Schema target, java.util.Set<Schema> seen) {
    if (schema == target) {
      return true;
    }
    if (!seen.add(schema)) {
      return false;
    }
    return switch (schema.getType()) {
      case RECORD -> schema.getFields().stream().anyMatch(f -> holds(f.schema(), target, seen));
      case ARRAY -> holds(schema.getElementType(), target, seen);
      case MAP -> holds(schema.getValueType(), target, seen);
      case UNION -> schema.getTypes().stream().anyMatch(b -> holds(b, target, seen));
      default -> false;
    };
  }
}
