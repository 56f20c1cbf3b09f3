package io.kavro.serde;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * Turns a value read generically into the Java type it is read as: a Java record through its canonical
 * constructor, recursively for nested records, lists, sets, maps (keys included), enums, byte arrays, the
 * application's fixed classes ({@code SpecificFixed} subclasses) and the classes Avro's reflection writes as
 * strings ({@code URI}, {@code BigDecimal}...). A logical type whose Java type a component cannot hold is read
 * as its underlying value before it gets here ({@link DeclaredConversions}): nothing is converted back. A
 * constructor that throws is a {@link JavaRecordConstructionException} naming the class. Lists, sets and maps may
 * hold nulls. Everything reflective (components, constructors, enum constants, field positions) is looked up once, when
 * the converter is built, not per value. Immutable and thread-safe.
 */
final class JavaValues {
  private JavaValues() {}

  /** The converter of values read generically into {@code target}. */
  static Function<Object, Object> converter(Type target) {
    return new Planner().converter(target);
  }

  /** The converter of the types that a value read generically already is: every value as it is. */
  private static final Function<Object, Object> AS_IS = value -> value;

  /**
   * Whether {@code converter} (one of {@link #converter}'s) returns every value that is not a {@code CharSequence}
   * as it is: a decoder that reads no text may leave it out.
   */
  static boolean changesOnlyText(Function<Object, Object> converter) {
    return converter == AS_IS || converter instanceof FromText;
  }

  /** A class that Avro's reflection writes as its text, built from it; any other value as it is. */
  private record FromText(Class<?> type, MethodHandle constructor) implements Function<Object, Object> {
    @Override
    public Object apply(Object value) {
      return value instanceof CharSequence text && !type.isInstance(value) ? build(constructor, type, text) : value;
    }
  }

  /** Builds converters, each type's once (a record that holds itself reuses its own converter). */
  private static final class Planner {
    private final Map<Class<?>, RecordConverter> records = new HashMap<>();

    Function<Object, Object> converter(Type target) {
      Class<?> raw = rawClass(target);
      if (raw.isRecord()) {
        RecordConverter known = records.get(raw);
        return known != null ? known : new RecordConverter(raw, this); // which registers itself
      }
      if (raw == String.class || raw == Object.class) {
        return value -> value instanceof CharSequence text ? text.toString() : value;
      }
      if (raw.isEnum()) {
        Map<String, Object> constants = new HashMap<>();
        for (Object constant : raw.getEnumConstants()) {
          constants.put(((Enum<?>) constant).name(), constant);
        }
        return value -> value instanceof GenericEnumSymbol<?> symbol ? constant(constants, raw, symbol.toString())
            : value;
      }
      if (raw == short.class || raw == Short.class) { // Avro's reflection writes them as ints
        return value -> value instanceof Integer i ? (Object) i.shortValue() : value;
      }
      if (raw == byte.class || raw == Byte.class) {
        return value -> value instanceof Integer i ? (Object) i.byteValue() : value;
      }
      if (raw == char.class || raw == Character.class) {
        return value -> value instanceof Integer i ? (Object) (char) i.intValue() : value;
      }
      if (raw == byte[].class) {
        return JavaValues::bytes;
      }
      if (GenericFixed.class.isAssignableFrom(raw) && !raw.isInterface()
          && !java.lang.reflect.Modifier.isAbstract(raw.getModifiers()) && raw != GenericData.Fixed.class) {
        MethodHandle fromBytes = fromBytes(raw);
        return value -> value instanceof GenericFixed fixed && !raw.isInstance(value)
            ? fixed(fromBytes, raw, fixed) : value;
      }
      if (Collection.class.isAssignableFrom(raw)) {
        Function<Object, Object> item = converter(typeArgument(target, 0));
        boolean set = Set.class.isAssignableFrom(raw);
        return value -> value instanceof Collection<?> items ? collection(items, item, set) : value;
      }
      if (Map.class.isAssignableFrom(raw)) {
        Function<Object, Object> key = converter(typeArgument(target, 0));
        Function<Object, Object> entry = converter(typeArgument(target, 1));
        return value -> value instanceof Map<?, ?> entries ? map(entries, key, entry) : value;
      }
      if (!raw.isInterface()) {
        return new FromText(raw, fromText(raw));
      }
      return AS_IS;
    }
  }

  /** A Java record from a record read generically: each component from the field of its name, or null. */
  private static final class RecordConverter implements Function<Object, Object> {
    private final Class<?> type;
    private final String[] names;
    private final Function<Object, Object>[] components;
    private final MethodHandle constructor;
    /** The field positions of the last schema seen: one schema, almost always. */
    private volatile Positions positions;

    private record Positions(Schema schema, int[] byComponent) {}

    @SuppressWarnings("unchecked")
    RecordConverter(Class<?> type, Planner planner) {
      this.type = type;
      RecordComponent[] recordComponents = type.getRecordComponents();
      this.names = new String[recordComponents.length];
      this.components = new Function[recordComponents.length];
      for (int i = 0; i < recordComponents.length; i++) {
        names[i] = recordComponents[i].getName();
      }
      this.constructor = canonicalConstructor(type);
      planner.records.put(type, this); // before the components: a record that holds itself
      for (int i = 0; i < recordComponents.length; i++) {
        components[i] = planner.converter(recordComponents[i].getGenericType());
      }
    }

    @Override
    public Object apply(Object value) {
      if (!(value instanceof IndexedRecord record)) {
        return value;
      }
      int[] byComponent = positions(record.getSchema());
      Object[] args = new Object[byComponent.length];
      for (int i = 0; i < args.length; i++) {
        int pos = byComponent[i];
        Object field = pos < 0 ? null : record.get(pos);
        args[i] = field == null ? null : components[i].apply(field);
      }
      return construct(constructor, type, record.getSchema(), args);
    }

    private int[] positions(Schema schema) {
      Positions known = positions;
      if (known != null && known.schema() == schema) {
        return known.byComponent();
      }
      int[] byComponent = new int[names.length];
      for (int i = 0; i < names.length; i++) {
        Schema.Field field = schema.getField(names[i]);
        byComponent[i] = field == null ? -1 : field.pos();
      }
      positions = new Positions(schema, byComponent);
      return byComponent;
    }
  }

  /**
   * The canonical constructor of the Java record {@code type}, spread over an {@code Object[]} of its components
   * in their order: {@code (Object[]) -> Object}, for {@link #construct}.
   */
  static MethodHandle canonicalConstructor(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
    }
    try {
      java.lang.reflect.Constructor<?> canonical = type.getDeclaredConstructor(types);
      canonical.setAccessible(true);
      return MethodHandles.lookup().unreflectConstructor(canonical).asSpreader(Object[].class, types.length)
          .asType(MethodType.methodType(Object.class, Object[].class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new AvroRuntimeException("cannot construct " + type.getName() + ": " + e, e);
    }
  }

  /**
   * A Java record of {@code type}, read as {@code schema}, from its components in their order.
   *
   * @throws JavaRecordConstructionException naming the class when its constructor refuses the values, or is given
   *     a null for a primitive
   */
  static Object construct(MethodHandle constructor, Class<?> type, Schema schema, Object[] components) {
    try {
      return constructor.invokeExact(components);
    } catch (JavaRecordConstructionException | LinkageError e) {
      throw e; // a class that fails to link is the deployment's fault, not a refusal of the values
    } catch (Throwable e) { // the application's constructor refused the values, or a null for a primitive
      throw new JavaRecordConstructionException("cannot construct " + type.getName() + " from "
          + schema.getFullName() + ": its canonical constructor threw " + e, e);
    }
  }

  private static Object constant(Map<String, Object> constants, Class<?> type, String name) {
    Object constant = constants.get(name);
    if (constant == null) {
      throw new IllegalArgumentException("No enum constant " + type.getCanonicalName() + "." + name);
    }
    return constant;
  }

  private static Object bytes(Object value) {
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    if (value instanceof GenericFixed fixed) {
      return fixed.bytes().clone();
    }
    return value;
  }

  /** The fixed class's constructor that takes its bytes, or else its no-argument one. */
  private static MethodHandle fromBytes(Class<?> type) {
    try {
      java.lang.reflect.Constructor<?> constructor = type.getDeclaredConstructor(byte[].class);
      constructor.setAccessible(true);
      return MethodHandles.lookup().unreflectConstructor(constructor);
    } catch (ReflectiveOperationException | RuntimeException e) {
      try {
        java.lang.reflect.Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        return MethodHandles.lookup().unreflectConstructor(constructor);
      } catch (ReflectiveOperationException | RuntimeException none) {
        throw new AvroRuntimeException("cannot construct the fixed " + type.getName() + ": it has no constructor "
            + "that takes its bytes and no constructor without arguments", none);
      }
    }
  }

  /** A fixed of the application's class, with the bytes read. */
  private static Object fixed(MethodHandle fromBytes, Class<?> type, GenericFixed read) {
    byte[] bytes = read.bytes().clone();
    try {
      if (fromBytes.type().parameterCount() == 1) {
        return fromBytes.invoke(bytes);
      }
      Object fixed = fromBytes.invoke();
      if (fixed instanceof org.apache.avro.specific.SpecificFixed specific) {
        specific.bytes(bytes);
        return specific;
      }
      throw new JavaRecordConstructionException("cannot fill the fixed " + type.getName() + ": it has no "
          + "constructor that takes its bytes", null);
    } catch (JavaRecordConstructionException | LinkageError e) {
      throw e;
    } catch (Throwable e) {
      throw new JavaRecordConstructionException("cannot construct the fixed " + type.getName() + ": " + e, e);
    }
  }

  private static Object collection(Collection<?> items, Function<Object, Object> item, boolean set) {
    if (set) {
      Set<Object> result = new LinkedHashSet<>();
      for (Object element : items) {
        result.add(element == null ? null : item.apply(element));
      }
      return Collections.unmodifiableSet(result);
    }
    List<Object> result = new ArrayList<>(items.size());
    for (Object element : items) {
      result.add(element == null ? null : item.apply(element));
    }
    return Collections.unmodifiableList(result);
  }

  private static Object map(Map<?, ?> entries, Function<Object, Object> key, Function<Object, Object> value) {
    Map<Object, Object> result = new LinkedHashMap<>();
    entries.forEach((k, v) -> result.put(k == null ? null : key.apply(k), v == null ? null : value.apply(v)));
    return result;
  }

  /** The class's String constructor, or {@code null}: a class Avro's reflection writes by its text. */
  private static MethodHandle fromText(Class<?> type) {
    try {
      return MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class, String.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static Object build(MethodHandle fromText, Class<?> type, CharSequence text) {
    if (fromText == null) {
      throw new AvroRuntimeException("cannot build a " + type.getName() + " from the text '" + text + "': "
          + type.getName() + " has no public constructor that takes a String");
    }
    try {
      return fromText.invoke(text.toString());
    } catch (LinkageError e) {
      throw e; // the deployment's fault, not the text's
    } catch (Throwable e) {
      throw new AvroRuntimeException("cannot build a " + type.getName() + " from the text '" + text + "': " + e, e);
    }
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
