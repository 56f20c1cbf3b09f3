package io.kavro.serde;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericArray;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.util.Utf8;

/**
 * Compiles a writer schema into a {@link CompiledEncoder}: the schema is walked once, and each step knows its
 * type, its union branches and its logical-type conversion in advance.
 *
 * <p>The output equals Avro's {@code GenericDatumWriter} (and {@code SpecificDatumWriter} for generated
 * classes) byte for byte. Recursive schemas are not compiled: {@link #compile} returns {@code null} and the
 * caller keeps Avro's writer.
 */
final class EncoderCompiler {
  /** The classes Avro's specific writer writes as strings by their text ({@code SpecificData}'s stringables). */
  private static final Set<Class<?>> STRINGABLE = Set.of(BigDecimal.class, java.math.BigInteger.class,
      java.net.URI.class, java.net.URL.class, java.io.File.class);
  /** The class of the buffers the generic and specific models hold bytes in ({@code ByteBuffer.wrap}'s). */
  private static final Class<?> HEAP_BUFFER = ByteBuffer.wrap(new byte[0]).getClass();
  private final GenericData model;
  private final IdentityHashMap<Schema, Boolean> inProgress = new IdentityHashMap<>();

  private EncoderCompiler(GenericData model) {
    this.model = model;
  }

  /**
   * An encoder for {@code schema}, with the logical-type conversions of {@code model} (the generic model, or
   * a generated class's {@code SpecificData}), or {@code null} if the schema cannot be compiled.
   */
  static CompiledEncoder compile(Schema schema, GenericData model) {
    return compile(schema, model, null);
  }

  /**
   * An encoder for values of the Java type {@code javaType} by {@code model}, a {@code ReflectData}: a Java record,
   * with its components read through accessors resolved once, or {@code null} if the schema or the type cannot be
   * compiled (a plain class, a Java array, a union of several types...), for Avro's reflect writer to write.
   */
  static CompiledEncoder compile(Schema schema, GenericData model, Type javaType) {
    try {
      return new EncoderCompiler(model).encoder(schema, javaType);
    } catch (Unsupported e) {
      return null;
    }
  }

  private CompiledEncoder encoder(Schema schema) {
    return encoder(schema, null);
  }

  /** @param type the value's declared Java type, for reflection; {@code null} for generic and specific data */
  private CompiledEncoder encoder(Schema schema, Type type) {
    CompiledEncoder raw = type == null ? rawEncoder(schema) : reflectEncoder(schema, type);
    LogicalType logical = schema.getLogicalType();
    if (logical == null
        || type != null && !DeclaredConversions.mayConvert(JavaTypes.rawClass(type), logical, model)) {
      return raw; // a component that holds the underlying value (an int date): never converted, decided here
    }
    @SuppressWarnings("unchecked")
    Conversion<Object> usual = (Conversion<Object>) model.getConversionFor(logical);
    // Reflection's raw encoders take a component's declared type: only generic and specific data skip the model.
    List<Class<?>> unconverted = type != null ? List.of() : heldClasses(schema.getType()).stream()
        .filter(held -> model.getConversionByClass(held, logical) == null).toList();
    CompiledEncoder converted = new Converting(model, schema, logical, usual, unconverted, raw);
    CompiledEncoder direct = direct(schema, usual, unconverted, converted);
    return direct != null ? direct : converted;
  }

  /**
   * Avro's own conversion of the commonest logical types, written without the boxed value or the text between: the
   * same result as Avro's {@code DateConversion}, {@code TimestampMillisConversion} and {@code UUIDConversion} (the
   * same in 1.11 and 1.12), only for exactly those classes; {@code null} for any other. A decimal that fits a long
   * is written straight from its unscaled value, as Avro's {@code DecimalConversion} writes it when its scale is
   * the schema's and its precision within the schema's (where Avro's conversion leaves it as it is); any other
   * decimal goes to {@code converted}, Avro's conversion, which rescales or refuses it as it always did. A value of
   * any other class than the conversion's (or {@code null}) goes to {@code converted} too: the class check is in the
   * same encoder as the writing, one call per value (a wrapper around it cost a second call through an interface).
   * A value of a held class without a conversion ({@code unconverted}, as found when compiled: a uuid's
   * {@code String}, a timestamp's {@code Long}, a date's {@code Integer}, a decimal's {@code ByteBuffer}) is written
   * as the raw encoder writes it, from this same encoder.
   */
  private static CompiledEncoder direct(Schema schema, Conversion<?> usual, List<Class<?>> unconverted,
      CompiledEncoder converted) {
    if (usual == null) {
      return null;
    }
    Class<?> type = usual.getClass();
    // LocalDate, Instant and UUID are final: instanceof is the class check.
    if (type == org.apache.avro.data.TimeConversions.DateConversion.class && schema.getType() == Schema.Type.INT) {
      boolean ints = unconverted.contains(Integer.class);
      return (value, out) -> {
        if (value instanceof java.time.LocalDate date) {
          out.writeInt((int) date.toEpochDay());
        } else if (ints && value instanceof Integer days) {
          out.writeInt(days);
        } else {
          converted.encode(value, out);
        }
      };
    }
    if (type == org.apache.avro.data.TimeConversions.TimestampMillisConversion.class
        && schema.getType() == Schema.Type.LONG) {
      boolean longs = unconverted.contains(Long.class);
      return (value, out) -> {
        if (value instanceof java.time.Instant instant) {
          out.writeLong(instant.toEpochMilli());
        } else if (longs && value instanceof Long millis) {
          out.writeLong(millis);
        } else {
          converted.encode(value, out);
        }
      };
    }
    if (type == Conversions.UUIDConversion.class && schema.getType() == Schema.Type.STRING) {
      boolean strings = unconverted.contains(String.class);
      return (value, out) -> {
        if (value instanceof java.util.UUID uuid) {
          out.writeUuid(uuid);
        } else if (strings && value instanceof String text) {
          out.writeString(text);
        } else {
          converted.encode(value, out);
        }
      };
    }
    if (type == Conversions.DecimalConversion.class && schema.getType() == Schema.Type.BYTES
        && schema.getLogicalType() instanceof LogicalTypes.Decimal decimal) {
      int scale = decimal.getScale();
      int precision = Math.min(decimal.getPrecision(), 18); // at most 18 digits: the unscaled value fits a long
      boolean buffers = unconverted.contains(HEAP_BUFFER);
      return (value, out) -> {
        if (buffers && value != null && value.getClass() == HEAP_BUFFER) {
          out.writeBytes((ByteBuffer) value);
          return;
        }
        if (value == null || value.getClass() != BigDecimal.class) {
          converted.encode(value, out); // a subclass too: Avro's conversion is registered for BigDecimal itself
          return;
        }
        BigDecimal number = (BigDecimal) value;
        if (number.scale() == scale && number.precision() <= precision) {
          // The unscaled value without the BigInteger and byte[] of unscaledValue().toByteArray().
          out.writeDecimal(number.movePointRight(scale).longValueExact());
        } else {
          converted.encode(value, out);
        }
      };
    }
    return null;
  }

  /**
   * The classes the generic and specific models hold a value of {@code type} in, the commonest values of a field
   * with a logical type that are written as they are (no conversion is registered for them): a uuid's
   * {@code String}, a timestamp's {@code Long}, a decimal's {@code ByteBuffer}.
   */
  private static List<Class<?>> heldClasses(Schema.Type type) {
    return switch (type) {
      case INT -> List.of(Integer.class);
      case LONG -> List.of(Long.class);
      case STRING -> List.of(String.class, Utf8.class);
      case BYTES -> List.of(HEAP_BUFFER);
      default -> List.of();
    };
  }

  /**
   * A value of a logical type converted as Avro's writer converts it, then written by the raw encoder: the
   * conversion registered for the value's own class and the logical type converts it; a value of a class without
   * one is written as it is. The model's conversions are taken as they are when compiled, as the usual conversion
   * always was: the held classes that have none then ({@link #heldClasses}) are written without asking the model
   * per value.
   */
  private static final class Converting implements CompiledEncoder {
    private final GenericData model;
    private final Schema schema;
    private final LogicalType logical;
    private final Conversion<Object> usual;
    private final Class<?> usualType;
    /** The held classes without a conversion for this logical type (at most two), or {@code null}. */
    private final Class<?> unconverted;
    private final Class<?> alsoUnconverted;
    private final CompiledEncoder raw;

    Converting(GenericData model, Schema schema, LogicalType logical, Conversion<Object> usual,
        List<Class<?>> unconverted, CompiledEncoder raw) {
      this.model = model;
      this.schema = schema;
      this.logical = logical;
      this.usual = usual;
      this.usualType = usual == null ? null : usual.getConvertedType();
      this.unconverted = unconverted.isEmpty() ? null : unconverted.get(0);
      this.alsoUnconverted = unconverted.size() < 2 ? null : unconverted.get(1);
      this.raw = raw;
    }

    @Override
    public void encode(Object value, ByteSink out) {
      if (value == null) {
        raw.encode(null, out);
        return;
      }
      Class<?> type = value.getClass();
      if (type == unconverted || type == alsoUnconverted) {
        raw.encode(value, out);
        return;
      }
      @SuppressWarnings("unchecked")
      Conversion<Object> conversion = type == usualType ? usual
          : (Conversion<Object>) model.getConversionByClass(type, logical);
      raw.encode(conversion == null ? value : Conversions.convertToRawType(value, schema, logical, conversion), out);
    }
  }

  private CompiledEncoder rawEncoder(Schema schema) {
    return switch (schema.getType()) {
      case NULL -> (value, out) -> { }; // as Avro's writer: a null schema writes nothing, whatever the value
      // The spun writer's leaves: one definition of each, so that the two paths cannot write differently.
      case BOOLEAN -> SpunWriter::writeBoolean;
      case INT -> SpunWriter::writeInt;
      case LONG -> SpunWriter::writeLong;
      case FLOAT -> SpunWriter::writeFloat;
      case DOUBLE -> SpunWriter::writeDouble;
      case STRING -> model instanceof SpecificData ? EncoderCompiler::writeSpecificString : EncoderCompiler::writeString;
      case BYTES -> SpunWriter::writeBytes;
      case FIXED -> {
        int size = schema.getFixedSize();
        yield (value, out) -> {
          byte[] bytes = ((GenericFixed) value).bytes();
          out.write(bytes, 0, size);
        };
      }
      case ENUM -> enumEncoder(schema);
      case ARRAY -> arrayEncoder(schema);
      case MAP -> mapEncoder(schema);
      case UNION -> unionEncoder(schema);
      case RECORD -> recordEncoder(schema);
    };
  }

  /**
   * A value of a declared Java type, as Avro's reflect writer writes it: Java records through their accessors,
   * {@code byte[]} for bytes, collections and maps of such values, {@code [null, X]} unions; anything else is left
   * to Avro's writer.
   */
  private CompiledEncoder reflectEncoder(Schema schema, Type type) {
    Class<?> raw = JavaTypes.rawClass(type);
    if (raw.isArray() && raw != byte[].class || raw == char.class || raw == Character.class) {
      throw new Unsupported("Java type " + raw.getTypeName());
    }
    return switch (schema.getType()) {
      case RECORD -> javaRecordEncoder(schema, raw);
      case ARRAY -> {
        if (!java.util.Collection.class.isAssignableFrom(raw)) {
          throw new Unsupported("array of " + raw.getTypeName());
        }
        yield arrayEncoder(encoder(schema.getElementType(), JavaTypes.typeArgument(type, 0)));
      }
      case MAP -> {
        if (!Map.class.isAssignableFrom(raw) || !stringKeys(JavaTypes.typeArgument(type, 0))) {
          throw new Unsupported("map of " + raw.getTypeName());
        }
        yield mapEncoder(encoder(schema.getValueType(), JavaTypes.typeArgument(type, 1)));
      }
      case UNION -> {
        List<Schema> branches = schema.getTypes();
        if (branches.size() != 2 || !schema.isNullable()) {
          throw new Unsupported("union " + schema);
        }
        int nullBranch = branches.get(0).getType() == Schema.Type.NULL ? 0 : 1;
        CompiledEncoder other = encoder(branches.get(1 - nullBranch), type);
        yield (value, out) -> {
          if (value == null) {
            out.writeInt(nullBranch);
          } else {
            out.writeInt(1 - nullBranch);
            other.encode(value, out);
          }
        };
      }
      case BYTES -> (value, out) -> {
        if (value instanceof byte[] bytes) {
          out.writeLong(bytes.length);
          out.write(bytes, 0, bytes.length);
        } else {
          out.writeBytes((ByteBuffer) value);
        }
      };
      case FIXED -> {
        if (raw == byte[].class) {
          throw new Unsupported("fixed as byte[]");
        }
        yield rawEncoder(schema);
      }
      case STRING -> {
        // A UUID of a uuid: the logical type's conversion (in encoder) gives the text first.
        boolean converted = schema.getLogicalType() != null
            && DeclaredConversions.mayConvert(raw, schema.getLogicalType(), model);
        if (!(raw == String.class || raw == CharSequence.class || raw == Object.class || STRINGABLE.contains(raw)
            || converted)) {
          throw new Unsupported("string as " + raw.getTypeName());
        }
        yield rawEncoder(schema);
      }
      default -> rawEncoder(schema);
    };
  }

  private static boolean stringKeys(Type key) {
    Class<?> raw = JavaTypes.rawClass(key);
    return raw == String.class || raw == CharSequence.class;
  }

  /** A Java record: each schema field from the record component of its name, through its accessor. */
  private CompiledEncoder javaRecordEncoder(Schema schema, Class<?> type) {
    if (!type.isRecord()) {
      throw new Unsupported("plain class " + type.getName());
    }
    if (inProgress.put(schema, Boolean.TRUE) != null) {
      throw new Unsupported("recursive record " + schema.getFullName());
    }
    try {
      Map<String, java.lang.reflect.RecordComponent> components = new HashMap<>();
      for (java.lang.reflect.RecordComponent component : type.getRecordComponents()) {
        components.put(component.getName(), component);
      }
      List<Schema.Field> fields = schema.getFields();
      CompiledEncoder[] writers = new CompiledEncoder[fields.size()];
      for (int i = 0; i < writers.length; i++) {
        Schema.Field field = fields.get(i);
        java.lang.reflect.RecordComponent component = components.get(field.name());
        if (component == null) {
          throw new Unsupported("no component " + field.name() + " in " + type.getName());
        }
        writers[i] = componentWriter(schema, field, type, component);
      }
      return (value, out) -> {
        for (CompiledEncoder writer : writers) {
          writer.encode(value, out); // a value of another class: ClassCastException
        }
      };
    } finally {
      inProgress.remove(schema);
    }
  }

  /**
   * Writes one component of a Java record: a primitive one without boxing, through a typed accessor, when its
   * field is the plain primitive type (an {@code int} of a {@code date} too: no conversion takes an {@code int});
   * any other through its accessor and the field's encoder.
   */
  private CompiledEncoder componentWriter(Schema record, Schema.Field field, Class<?> type,
      java.lang.reflect.RecordComponent component) {
    Schema schema = field.schema();
    Class<?> primitive = component.getType();
    if (primitive.isPrimitive() && (schema.getLogicalType() == null
        || !DeclaredConversions.mayConvert(primitive, schema.getLogicalType(), model))) {
      CompiledEncoder direct = JavaTypes.primitiveWriter(type, component, schema.getType());
      if (direct != null) {
        return direct;
      }
    }
    java.util.function.Function<Object, Object> getter = JavaTypes.accessor(type, component);
    CompiledEncoder encoder = encoder(schema, component.getGenericType());
    if (schema.isNullable()) {
      return (value, out) -> encoder.encode(getter.apply(value), out);
    }
    return (value, out) -> {
      Object fieldValue = getter.apply(value);
      if (fieldValue == null) {
        throw new NullPointerException("null value for (non-nullable) field " + record.getName() + "."
            + field.name());
      }
      encoder.encode(fieldValue, out);
    };
  }

  /** A string as Avro's generic writer takes it: a {@link CharSequence}, nothing else. */
  static void writeString(Object value, ByteSink out) {
    if (value instanceof String s) {
      out.writeString(s);
    } else if (value instanceof Utf8 utf8) {
      out.writeBytes(utf8.getBytes(), 0, utf8.getByteLength());
    } else {
      out.writeString(((CharSequence) value).toString());
    }
  }

  /** A string as Avro's specific writer takes it: also the classes generated code maps to strings. */
  static void writeSpecificString(Object value, ByteSink out) {
    // Text first: the set lookup cost most of a generated class's write when asked for every string (measured).
    writeString(value instanceof CharSequence || value == null || !STRINGABLE.contains(value.getClass()) ? value
        : value.toString(), out);
  }

  /**
   * As Avro's writers: the generic model takes an Avro enum symbol ({@link GenericEnumSymbol}) and writes the
   * ordinal of its name; the specific model also takes a Java enum and writes its ordinal.
   */
  private CompiledEncoder enumEncoder(Schema schema) {
    Map<String, Integer> ordinals = new HashMap<>();
    List<String> symbols = schema.getEnumSymbols();
    for (int i = 0; i < symbols.size(); i++) {
      ordinals.put(symbols.get(i), i);
    }
    boolean javaEnums = model instanceof SpecificData;
    return (value, out) -> {
      if (javaEnums && value instanceof Enum<?> e) {
        out.writeInt(e.ordinal());
        return;
      }
      if (!(value instanceof GenericEnumSymbol<?>)) {
        throw new AvroTypeException("value " + describe(value) + " is not an enum symbol of "
            + schema.getFullName());
      }
      Integer ordinal = ordinals.get(value.toString());
      if (ordinal == null) {
        throw new AvroTypeException("'" + value + "' is not a symbol of enum " + schema.getFullName() + ": "
            + symbols);
      }
      out.writeInt(ordinal);
    };
  }

  private CompiledEncoder arrayEncoder(Schema schema) {
    return arrayEncoder(encoder(schema.getElementType()));
  }

  private static CompiledEncoder arrayEncoder(CompiledEncoder item) {
    return (value, out) -> {
      Collection<?> items = (Collection<?>) value;
      int size = items.size();
      if (size > 0) {
        out.writeLong(size);
        // Avro's arrays (what its readers return) index in place but are not marked RandomAccess: no iterator.
        if (items instanceof List<?> list && (items instanceof RandomAccess || items instanceof GenericArray<?>)) {
          for (int i = 0; i < size; i++) {
            item.encode(list.get(i), out);
          }
        } else {
          int written = 0;
          for (Object element : items) {
            item.encode(element, out);
            written++;
          }
          if (written != size) {
            throw new java.util.ConcurrentModificationException("array changed size while written");
          }
        }
      }
      out.writeLong(0);
    };
  }

  private CompiledEncoder mapEncoder(Schema schema) {
    return mapEncoder(encoder(schema.getValueType()));
  }

  private static CompiledEncoder mapEncoder(CompiledEncoder valueEncoder) {
    return (value, out) -> {
      Map<?, ?> map = (Map<?, ?>) value;
      int size = map.size();
      if (size > 0) {
        out.writeLong(size);
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          out.writeString(entry.getKey().toString()); // as Avro's writer: any key, by its text
          valueEncoder.encode(entry.getValue(), out);
        }
      }
      out.writeLong(0);
    };
  }

  private CompiledEncoder unionEncoder(Schema schema) {
    List<Schema> branches = schema.getTypes();
    CompiledEncoder[] encoders = new CompiledEncoder[branches.size()];
    for (int i = 0; i < encoders.length; i++) {
      encoders[i] = encoder(branches.get(i));
    }
    int nullIndex = -1;
    for (int i = 0; i < branches.size(); i++) {
      if (branches.get(i).getType() == Schema.Type.NULL) {
        nullIndex = i;
      }
    }
    if (branches.size() == 2 && nullIndex >= 0 && branches.get(0).getLogicalType() == null
        && branches.get(1).getLogicalType() == null) {
      // ["null", X] or [X, "null"]: a value whose class X's branch surely takes skips the model's resolution.
      int nullBranch = nullIndex;
      int other = 1 - nullIndex;
      Schema otherSchema = branches.get(other);
      Class<?> exact = exactClass(otherSchema.getType());
      Class<?> alsoExact = otherSchema.getType() == Schema.Type.STRING ? Utf8.class : null;
      Schema record = otherSchema.getType() == Schema.Type.RECORD ? otherSchema : null;
      return (value, out) -> {
        if (value == null) {
          out.writeInt(nullBranch);
          return;
        }
        Class<?> type = value.getClass();
        int index = type == exact || type == alsoExact
            || record != null && value instanceof IndexedRecord r && r.getSchema() == record
            ? other : model.resolveUnion(schema, value);
        out.writeInt(index);
        encoders[index].encode(value, out);
      };
    }
    return (value, out) -> {
      int index = model.resolveUnion(schema, value);
      out.writeInt(index);
      encoders[index].encode(value, out);
    };
  }

  /**
   * The one Java class for which Avro's union resolution names a primitive branch by name alone, or
   * {@code null}: a branch without a logical type takes exactly these, by {@code GenericData.getSchemaName}.
   */
  private static Class<?> exactClass(Schema.Type type) {
    return switch (type) {
      case STRING -> String.class;
      case INT -> Integer.class;
      case LONG -> Long.class;
      case FLOAT -> Float.class;
      case DOUBLE -> Double.class;
      case BOOLEAN -> Boolean.class;
      default -> null;
    };
  }

  private static String describe(Object value) {
    return value == null ? "null" : "'" + value + "' (a " + value.getClass().getTypeName() + ")";
  }

  /**
   * The generated class of a record {@code schema} by Avro's specific model exactly (a subclass may map its classes
   * otherwise), for {@link SpunWriter}; {@code null} for any other model, schema or class.
   */
  private Class<?> generatedClass(Schema schema) {
    if (model.getClass() != SpecificData.class) {
      return null;
    }
    try {
      Class<?> type = ((SpecificData) model).getClass(schema);
      return type != null && IndexedRecord.class.isAssignableFrom(type) ? type : null;
    } catch (RuntimeException | LinkageError e) {
      return null; // a class Avro may not load or link: the loop, which writes through IndexedRecord
    }
  }

  private CompiledEncoder recordEncoder(Schema schema) {
    if (inProgress.put(schema, Boolean.TRUE) != null) {
      throw new Unsupported("recursive record " + schema.getFullName());
    }
    try {
      List<Schema.Field> fields = schema.getFields();
      boolean[] nullable = new boolean[fields.size()];
      CompiledEncoder[] encoders = new CompiledEncoder[fields.size()];
      for (int i = 0; i < encoders.length; i++) {
        Schema fieldSchema = fields.get(i).schema();
        nullable[i] = fieldSchema.isNullable();
        encoders[i] = encoder(fieldSchema);
      }
      if (encoders.length == 0) {
        return (value, out) -> { }; // as Avro's writer: a record without fields writes nothing and reads no value
      }
      // Through get(int), as Avro's SpecificDatumWriter writes a generated record: a class's getters may give
      // something else than its fields (custom templates), so they are never read instead.
      CompiledEncoder loop = (value, out) -> {
        IndexedRecord record = (IndexedRecord) value;
        for (int i = 0; i < encoders.length; i++) {
          Object fieldValue = record.get(i); // a field's position is its index in its record (Field.pos())
          if (fieldValue == null && !nullable[i]) {
            throw new NullPointerException("null value for (non-nullable) field " + schema.getName() + "."
                + fields.get(i).name());
          }
          encoders[i].encode(fieldValue, out);
        }
      };
      Class<?> generated = generatedClass(schema);
      if (generated != null) {
        return SpunWriter.of(generated, schema, encoders, loop);
      }
      // Avro's generic records by the generic model exactly (a specific model's string and enum rules are not the
      // generic leaves', and a subclass may write otherwise).
      return model.getClass() == GenericData.class ? SpunWriter.ofGeneric(schema, encoders, loop) : loop;
    } finally {
      inProgress.remove(schema);
    }
  }
}
