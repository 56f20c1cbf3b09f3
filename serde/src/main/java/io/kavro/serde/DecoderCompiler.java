package io.kavro.serde;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Resolver;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.avro.util.Utf8;

/**
 * Compiles a (writer, reader) schema pair into a {@link CompiledDecoder}, from Avro's own {@link Resolver}: which
 * fields to skip, which to fill from defaults, which values to promote and which union branch to take are
 * decided once, not per record.
 *
 * <p>The result equals what Avro's {@code GenericDatumReader} (or {@code SpecificDatumReader}, with a
 * generated class's model) returns: the same record, enum and fixed classes, {@code Utf8} or {@code String}
 * as the reader schema's {@code avro.java.string} says, {@code GenericData.Array}, {@code HashMap}, and the
 * model's logical-type conversions. Recursive schemas are not compiled ({@code null}).
 */
final class DecoderCompiler {
  /** The low bits of a step ({@link #steps}): the field's leaf kind. */
  private static final int STEP_KIND = 0xFF;
  /** Where a step's reader position starts ({@link #steps}). */
  private static final int STEP_POSITION_SHIFT = 8;

  private final GenericData model;
  /** Whether records are read by readers spun per shape ({@link SpunReader}) where one can be; else by the loop. */
  private final boolean spin;
  private final IdentityHashMap<Resolver.Action, Boolean> inProgress = new IdentityHashMap<>();

  /** A compiler whose decoders read as {@code model} does; {@link JavaRecordDecoderCompiler} builds on its parts. */
  DecoderCompiler(GenericData model) {
    this(model, true);
  }

  private DecoderCompiler(GenericData model, boolean spin) {
    this.model = model;
    this.spin = spin;
  }

  /** A decoder of {@code writer} data as {@code reader}, or {@code null} if the pair cannot be compiled. */
  static CompiledDecoder compile(Schema writer, Schema reader, GenericData model) {
    return compile(writer, reader, new DecoderCompiler(model));
  }

  /** For tests: {@link #compile} with every record read by the loop, none by a spun reader. */
  static CompiledDecoder compileLoops(Schema writer, Schema reader, GenericData model) {
    return compile(writer, reader, new DecoderCompiler(model, false));
  }

  private static CompiledDecoder compile(Schema writer, Schema reader, DecoderCompiler compiler) {
    try {
      Resolver.Action action = Resolver.resolve(writer, reader, compiler.model);
      return compiler.decoder(action, action.conversion);
    } catch (Unsupported e) {
      return null;
    }
  }

  /** The decoder of one resolved value, with {@code conversion} applied where its reader schema is logical. */
  CompiledDecoder decoder(Resolver.Action action, Conversion<?> conversion) {
    CompiledDecoder raw = rawDecoder(action);
    LogicalType logical = action.reader.getLogicalType();
    if (conversion == null || logical == null) {
      return raw;
    }
    @SuppressWarnings("unchecked")
    Conversion<Object> c = (Conversion<Object>) conversion;
    Schema schema = action.reader;
    // Avro's date, timestamp-millis, uuid and decimal conversions (exactly those classes), without the raw value between.
    if (action.type == Resolver.Action.Type.DO_NOTHING) {
      if (c.getClass() == org.apache.avro.data.TimeConversions.DateConversion.class
          && schema.getType() == Schema.Type.INT) {
        return LeafDecoders.DATE;
      }
      if (c.getClass() == org.apache.avro.data.TimeConversions.TimestampMillisConversion.class
          && schema.getType() == Schema.Type.LONG) {
        return LeafDecoders.TIMESTAMP_MILLIS;
      }
      if (c.getClass() == Conversions.UUIDConversion.class && schema.getType() == Schema.Type.STRING) {
        return LeafDecoders.UUID;
      }
      if (c.getClass() == Conversions.DecimalConversion.class && schema.getType() == Schema.Type.BYTES
          && logical instanceof org.apache.avro.LogicalTypes.Decimal decimal) {
        return new LeafDecoders.Decimal(decimal.getScale());
      }
    }
    return in -> {
      Object value = raw.decode(in);
      return value == null ? null : Conversions.convertToLogicalType(value, schema, logical, c);
    };
  }

  private CompiledDecoder rawDecoder(Resolver.Action action) {
    return switch (action.type) {
      case DO_NOTHING -> sameType(action.reader);
      case PROMOTE -> promote(action.writer.getType(), action.reader);
      case ENUM -> enumDecoder((Resolver.EnumAdjust) action);
      case CONTAINER -> container((Resolver.Container) action);
      case RECORD -> record((Resolver.RecordAdjust) action);
      case WRITER_UNION -> writerUnion((Resolver.WriterUnion) action);
      case READER_UNION -> {
        Resolver.ReaderUnion union = (Resolver.ReaderUnion) action;
        yield decoder(union.actualAction, union.actualAction.conversion);
      }
      case ERROR -> {
        String message = action.toString();
        yield in -> {
          throw new AvroTypeException(message);
        };
      }
      case SKIP -> throw new Unsupported("skip outside a record");
    };
  }

  private CompiledDecoder sameType(Schema schema) {
    return switch (schema.getType()) {
      case NULL -> LeafDecoders.NULL;
      case BOOLEAN -> LeafDecoders.BOOLEAN;
      case INT -> LeafDecoders.INT;
      case LONG -> LeafDecoders.LONG;
      case FLOAT -> LeafDecoders.FLOAT;
      case DOUBLE -> LeafDecoders.DOUBLE;
      case STRING -> stringDecoder(schema);
      case BYTES -> in -> in.readBytes(null);
      case FIXED -> {
        int size = schema.getFixedSize();
        Supplier<Object> generated = generatedConstructor(schema);
        if (generated != null) {
          yield in -> {
            in.require(size);
            GenericFixed fixed = (GenericFixed) generated.get();
            in.readFixed(fixed.bytes(), 0, size);
            return fixed;
          };
        }
        yield in -> {
          in.require(size); // before allocating: a registry's schema may claim gigabytes
          GenericFixed fixed = (GenericFixed) model.createFixed(null, schema);
          in.readFixed(fixed.bytes(), 0, size);
          return fixed;
        };
      }
      default -> throw new Unsupported("no plain reader for " + schema.getType());
    };
  }

  /**
   * The generated class of a fixed or record {@code schema} by its no-argument constructor, as Avro's specific model
   * makes one ({@code SpecificData.newInstance}): the class found once, here, not through the model's caches per
   * value (a class-value lookup and a reflective call, a tenth of a generated record's read, measured); {@code null}
   * for any other model (a subclass may make its instances otherwise), schema or class (one constructed with its
   * schema).
   */
  private Supplier<Object> generatedConstructor(Schema schema) {
    Class<?> type = generatedClass(schema);
    return type == null ? null : JavaTypes.noArgConstructor(type);
  }

  /** The generated class {@link #generatedConstructor} makes for {@code schema}, or {@code null}. */
  private Class<?> generatedClass(Schema schema) {
    if (model.getClass() != SpecificData.class) {
      return null;
    }
    Class<?> type;
    try {
      type = ((SpecificData) model).getClass(schema);
    } catch (RuntimeException | LinkageError e) {
      return null; // a class Avro may not load or link: the model's own path, which refuses it as it always did
    }
    if (type == null || SpecificData.SchemaConstructable.class.isAssignableFrom(type)
        || !(IndexedRecord.class.isAssignableFrom(type) || GenericFixed.class.isAssignableFrom(type))) {
      return null;
    }
    return type;
  }

  /** A string as the schema's {@code avro.java.string} says: {@code String}, else {@code Utf8}. */
  static CompiledDecoder stringDecoder(Schema schema) {
    if ("String".equals(schema.getProp(GenericData.STRING_PROP))) {
      return LeafDecoders.STRING;
    }
    return LeafDecoders.UTF8;
  }

  private static CompiledDecoder promote(Schema.Type from, Schema reader) {
    return switch (reader.getType()) {
      case LONG -> LeafDecoders.INT_AS_LONG;
      case FLOAT -> from == Schema.Type.INT ? in -> (float) in.readInt() : in -> (float) in.readLong();
      case DOUBLE -> switch (from) {
        case INT -> in -> (double) in.readInt();
        case LONG -> in -> (double) in.readLong();
        default -> in -> (double) in.readFloat();
      };
      case BYTES -> in -> ByteBuffer.wrap(in.readString((Utf8) null).getBytes());
      case STRING -> {
        boolean javaString = "String".equals(reader.getProp(GenericData.STRING_PROP));
        yield in -> {
          ByteBuffer bytes = in.readBytes(null);
          byte[] copy = new byte[bytes.remaining()];
          bytes.get(copy);
          return javaString ? new String(copy, java.nio.charset.StandardCharsets.UTF_8) : new Utf8(copy);
        };
      }
      default -> throw new Unsupported("promotion to " + reader.getType());
    };
  }

  private CompiledDecoder enumDecoder(Resolver.EnumAdjust action) {
    // Avro's values are by the writer's index: the reader's symbol for it, or the default. One array, not Avro's two
    // (reached on every record): null where the writer's symbol has no match, as Avro's FastReaderBuilder reads it.
    Object[] symbols = new Object[action.adjustments.length];
    for (int i = 0; i < symbols.length; i++) {
      symbols[i] = action.adjustments[i] < 0 ? null : action.values[i];
    }
    String name = action.reader.getFullName();
    return in -> {
      int index = in.readEnum();
      if (index < 0 || index >= symbols.length) {
        throw new AvroTypeException("enum index " + index + " out of range for " + name);
      }
      Object symbol = symbols[index];
      if (symbol == null) {
        throw new AvroTypeException("no match for the writer's enum symbol " + index + " in " + name);
      }
      return symbol;
    };
  }

  private CompiledDecoder container(Resolver.Container action) {
    Schema reader = action.reader;
    CompiledDecoder element = decoder(action.elementAction, action.elementAction.conversion);
    int kind = LeafDecoders.kindOf(element);
    if (reader.getType() == Schema.Type.ARRAY) {
      return in -> {
        long count = in.readArrayStart();
        GenericData.Array<Object> array = new GenericData.Array<>((int) count, reader);
        while (count > 0) {
          for (long i = 0; i < count; i++) {
            array.add(LeafDecoders.decode(kind, element, in));
          }
          count = in.arrayNext();
        }
        return array;
      };
    }
    CompiledDecoder key = stringDecoder(reader);
    int keyKind = LeafDecoders.kindOf(key);
    return in -> {
      long count = in.readMapStart();
      Map<Object, Object> map = new HashMap<>(); // as Avro: same capacity, same iteration order
      while (count > 0) {
        for (long i = 0; i < count; i++) {
          Object k = LeafDecoders.decode(keyKind, key, in);
          map.put(k, LeafDecoders.decode(kind, element, in));
        }
        count = in.mapNext();
      }
      return map;
    };
  }

  private CompiledDecoder writerUnion(Resolver.WriterUnion action) {
    if (isNullableUtf8(action)) { // ["null", "string"], the commonest union: one call, not two
      return LeafDecoders.NULLABLE_UTF8;
    }
    CompiledDecoder[] branches = new CompiledDecoder[action.actions.length];
    for (int i = 0; i < branches.length; i++) {
      branches[i] = decoder(action.actions[i], action.actions[i].conversion);
    }
    return in -> {
      int index = in.readIndex();
      if (index < 0 || index >= branches.length) {
        throw new AvroTypeException("union index " + index + " out of range 0.." + (branches.length - 1));
      }
      return branches[index].decode(in);
    };
  }

  private static boolean isNullableUtf8(Resolver.WriterUnion union) {
    // The null branch must read as null: a reader that cannot hold one resolves it to an error, which must throw.
    if (union.actions.length != 2 || union.actions[0].writer.getType() != Schema.Type.NULL
        || union.actions[0].type != Resolver.Action.Type.DO_NOTHING) {
      return false;
    }
    Resolver.Action second = union.actions[1];
    return second.type == Resolver.Action.Type.DO_NOTHING && second.conversion == null
        && second.reader.getType() == Schema.Type.STRING
        && !"String".equals(second.reader.getProp(GenericData.STRING_PROP));
  }

  /**
   * A record: one value decoder per writer field, in the writer's order, each stored at its reader position
   * (or skipped, at position -1), then the reader's remaining fields from their defaults: by a reader spun for
   * the record's shape ({@link SpunReader}) where one can be, else by a loop, one call per field. A loop's record
   * read as its writer wrote it (each field at its own position, no default) holds no positions.
   */
  private CompiledDecoder record(Resolver.RecordAdjust action) {
    if (inProgress.put(action, Boolean.TRUE) != null) {
      throw new Unsupported("recursive record " + action.reader.getFullName());
    }
    try {
      Object sample = action.instanceSupplier.newInstance(null, action.reader);
      int writerFields = action.fieldActions.length;
      CompiledDecoder[] values = new CompiledDecoder[writerFields];
      int[] positions = new int[writerFields];
      int j = 0;
      for (int i = 0; i < writerFields; i++) {
        Resolver.Action fieldAction = action.fieldActions[i];
        if (fieldAction.type == Resolver.Action.Type.SKIP) {
          values[i] = skipper(fieldAction.writer);
          positions[i] = -1;
        } else {
          Schema.Field field = action.readerOrder[j++];
          values[i] = decoder(fieldAction, conversion(sample, field));
          positions[i] = field.pos();
        }
      }
      int defaults = action.readerOrder.length - j;
      CompiledDecoder[] defaultValues = new CompiledDecoder[defaults];
      int[] defaultPositions = new int[defaults];
      for (int i = 0; i < defaults; i++) {
        Schema.Field field = action.readerOrder[j++];
        defaultValues[i] = defaultValue(field);
        defaultPositions[i] = field.pos();
      }
      Schema reader = action.reader;
      Class<?> generatedClass = generatedClass(reader);
      Supplier<Object> generated = generatedClass == null ? null : JavaTypes.noArgConstructor(generatedClass);
      GenericData.InstanceSupplier supplier = generated == null ? action.instanceSupplier
          : (old, schema) -> generated.get();
      int[] kinds = LeafDecoders.kindsOf(values);
      CompiledDecoder spun = spin ? SpunReader.of(supplier, reader, generated == null ? null : generatedClass,
          values, kinds, positions, defaultValues, defaultPositions) : null;
      if (spun != null) {
        return spun;
      }
      if (defaults == 0 && inOrder(positions)) {
        // The usual record (the writer's own schema): fewer arrays per schema to reach per record.
        return in -> {
          IndexedRecord record = (IndexedRecord) supplier.newInstance(null, reader);
          for (int i = 0; i < values.length; i++) {
            record.put(i, LeafDecoders.decode(kinds[i], values[i], in));
          }
          return record;
        };
      }
      int[] steps = steps(kinds, positions);
      return in -> {
        IndexedRecord record = (IndexedRecord) supplier.newInstance(null, reader);
        for (int i = 0; i < values.length; i++) {
          int step = steps[i];
          Object value = LeafDecoders.decode(step & STEP_KIND, values[i], in);
          if (step >= 0) {
            record.put(step >> STEP_POSITION_SHIFT, value);
          }
        }
        for (int i = 0; i < defaultValues.length; i++) {
          record.put(defaultPositions[i], defaultValues[i].decode(in));
        }
        return record;
      };
    } finally {
      inProgress.remove(action);
    }
  }

  /**
   * Per writer field, its leaf kind ({@link LeafDecoders#kindOf}) and its reader position in one int, the position
   * shifted above the kind: a skipped field's position, -1, makes the step negative. One array per record schema
   * instead of two: at thousands of schemas each array is memory no longer in the CPU's caches, reached on every
   * record. A record of more fields than a step holds is not compiled (Avro's reader reads it).
   */
  private static int[] steps(int[] kinds, int[] positions) {
    int[] steps = new int[kinds.length];
    for (int i = 0; i < steps.length; i++) {
      if (kinds[i] > STEP_KIND || positions[i] > Integer.MAX_VALUE >> STEP_POSITION_SHIFT) {
        throw new Unsupported("field position " + positions[i] + " or leaf kind " + kinds[i] + " past a step");
      }
      steps[i] = positions[i] << STEP_POSITION_SHIFT | kinds[i];
    }
    return steps;
  }

  /** Whether writer field i is stored at reader position i, for every field (none skipped). */
  private static boolean inOrder(int[] positions) {
    for (int i = 0; i < positions.length; i++) {
      if (positions[i] != i) {
        return false;
      }
    }
    return true;
  }

  /**
   * Skips a writer's value of {@code schema} (a field the reader lacks); decodes to {@code null}. As Avro's own
   * skip, but an enum's index is checked against its symbols: an index the writer's enum does not have means the
   * bytes are not of that schema, and the record is refused rather than read on.
   */
  static CompiledDecoder skipper(Schema schema) {
    return in -> {
      skip(schema, in);
      return null;
    };
  }

  private static void skip(Schema schema, org.apache.avro.io.Decoder in) throws java.io.IOException {
    switch (schema.getType()) {
      case RECORD -> {
        for (Schema.Field field : schema.getFields()) {
          skip(field.schema(), in);
        }
      }
      case ENUM -> {
        int index = in.readEnum();
        if (index < 0 || index >= schema.getEnumSymbols().size()) {
          throw new org.apache.avro.AvroTypeException("enum " + schema.getFullName() + " has no symbol at index "
              + index + " (" + schema.getEnumSymbols().size() + " symbols)");
        }
      }
      case ARRAY -> {
        for (long n = in.skipArray(); n > 0; n = in.skipArray()) {
          for (long i = 0; i < n; i++) {
            skip(schema.getElementType(), in);
          }
        }
      }
      case MAP -> {
        for (long n = in.skipMap(); n > 0; n = in.skipMap()) {
          for (long i = 0; i < n; i++) {
            in.skipString();
            skip(schema.getValueType(), in);
          }
        }
      }
      case UNION -> {
        int branch = in.readIndex();
        if (branch < 0 || branch >= schema.getTypes().size()) {
          throw new org.apache.avro.AvroTypeException("a union of " + schema.getTypes().size()
              + " branches has no branch at index " + branch);
        }
        skip(schema.getTypes().get(branch), in);
      }
      default -> GenericDatumReader.skip(schema, in);
    }
  }

  /**
   * The conversion Avro's reader applies to a field: the generated class's own (when {@code sample} is one of
   * its instances), else the model's.
   */
  Conversion<?> conversion(Object sample, Schema.Field field) {
    if (sample instanceof SpecificRecordBase specific) {
      return specific.getConversion(field.pos());
    }
    LogicalType logical = field.schema().getLogicalType();
    return logical == null ? null : model.getConversionFor(logical);
  }

  /** A field's default, as Avro fills it: immutable values shared, others a deep copy per record. */
  CompiledDecoder defaultValue(Schema.Field field) {
    Object value = model.getDefaultValue(field);
    if (value == null || value instanceof Number || value instanceof Boolean || value instanceof String
        || value instanceof Enum<?> || value instanceof GenericData.EnumSymbol) {
      return in -> value;
    }
    Schema schema = field.schema();
    return in -> model.deepCopy(schema, value);
  }
}
