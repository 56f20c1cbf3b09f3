package io.kavro.serde.internal.avro;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;

/**
 * Reads into Java records, which Avro's reflect reader cannot build (it needs a no-arg constructor and
 * mutable fields): the datum is read generically, then passed to the record's canonical constructor,
 * recursively for nested records, lists, sets, maps (keys included), enums, byte arrays and the classes Avro's
 * reflection writes as strings ({@code URI}, {@code BigDecimal}...). Lists, sets and maps may hold nulls.
 * Thread-safe.
 */
public final class JavaRecordReader implements DatumReader<Object> {
  private final GenericDatumReader<Object> generic;
  private final Class<?> type;

  /** Reads data written with {@code writer} as {@code reader}, into instances of the record class {@code type}. */
  public JavaRecordReader(Schema writer, Schema reader, Class<?> type, GenericData model) {
    if (!type.isRecord()) {
      throw new IllegalArgumentException(type.getName() + " is not a Java record");
    }
    // Avro's fast reader turns a string named by "java-class" into that class, and cannot with the generic
    // model: read the text, and let convert() build the class.
    GenericData textOnly = new GenericData();
    textOnly.setFastReaderEnabled(false);
    model.getConversions().forEach(textOnly::addLogicalTypeConversion);
    this.generic = new GenericDatumReader<>(writer, reader, textOnly);
    this.type = type;
  }

  @Override
  public void setSchema(Schema schema) {
    generic.setSchema(schema);
  }

  @Override
  public Object read(Object reuse, Decoder in) throws IOException {
    return convert(generic.read(null, in), type);
  }

  private static Object convert(Object value, Type target) {
    if (value == null) {
      return null;
    }
    Class<?> raw = rawClass(target);
    if (value instanceof IndexedRecord record && raw.isRecord()) {
      return newRecord(record, raw);
    }
    if (value instanceof CharSequence text && (raw == String.class || raw == Object.class)) {
      return text.toString();
    }
    if (value instanceof CharSequence text && !raw.isInterface() && !raw.isInstance(value)) {
      return fromText(raw, text.toString());
    }
    if (value instanceof GenericEnumSymbol<?> symbol && raw.isEnum()) {
      return enumConstant(raw, symbol.toString());
    }
    if (value instanceof ByteBuffer buffer && raw == byte[].class) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    if (value instanceof GenericFixed fixed && raw == byte[].class) {
      return fixed.bytes().clone();
    }
    if (value instanceof Collection<?> items && Collection.class.isAssignableFrom(raw)) {
      Type itemType = typeArgument(target, 0);
      // Null items are legal with avro.reflection.allow.null: collections that hold them.
      if (Set.class.isAssignableFrom(raw)) {
        Set<Object> set = new LinkedHashSet<>();
        items.forEach(item -> set.add(convert(item, itemType)));
        return Collections.unmodifiableSet(set);
      }
      List<Object> list = new ArrayList<>(items.size());
      items.forEach(item -> list.add(convert(item, itemType)));
      return Collections.unmodifiableList(list);
    }
    if (value instanceof Map<?, ?> entries && Map.class.isAssignableFrom(raw)) {
      Type keyType = typeArgument(target, 0);
      Type valueType = typeArgument(target, 1);
      Map<Object, Object> result = new LinkedHashMap<>();
      entries.forEach((k, v) -> result.put(convert(k, keyType), convert(v, valueType)));
      return result;
    }
    return value;
  }

  private static Object newRecord(IndexedRecord record, Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    Object[] args = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      Schema.Field field = record.getSchema().getField(components[i].getName());
      types[i] = components[i].getType();
      args[i] = field == null ? null : convert(record.get(field.pos()), components[i].getGenericType());
    }
    try {
      Constructor<?> constructor = type.getDeclaredConstructor(types);
      constructor.setAccessible(true);
      return constructor.newInstance(args);
    } catch (ReflectiveOperationException | IllegalArgumentException e) {
      throw new AvroRuntimeException("cannot construct " + type.getName() + " from " + record.getSchema().getFullName()
          + ": " + e, e);
    }
  }

  /** A class Avro's reflection writes by its text, such as {@code URI}, built from it by its String constructor. */
  private static Object fromText(Class<?> type, String text) {
    try {
      return type.getConstructor(String.class).newInstance(text);
    } catch (ReflectiveOperationException e) {
      throw new AvroRuntimeException("cannot build a " + type.getName() + " from the text '" + text + "': " + e, e);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumConstant(Class<?> type, String name) {
    return Enum.valueOf((Class) type, name);
  }

  private static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    return Object.class;
  }

  private static Type typeArgument(Type type, int index) {
    if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
      return p.getActualTypeArguments()[index];
    }
    return Object.class;
  }
}
