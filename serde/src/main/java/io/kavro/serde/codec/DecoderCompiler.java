package io.kavro.serde.codec;

import io.kavro.serde.avro.BoundedBinaryDecoder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Resolver;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.avro.util.Utf8;

/**
 * Compiles a (writer, reader) schema pair into a {@link DatumDecoder}, from Avro's own {@link Resolver}: which
 * fields to skip, which to fill from defaults, which values to promote and which union branch to take are
 * decided once, not per record.
 *
 * <p>The result equals what Avro's {@code GenericDatumReader} (or {@code SpecificDatumReader}, with a
 * generated class's model) returns: the same record, enum and fixed classes, {@code Utf8} or {@code String}
 * as the reader schema's {@code avro.java.string} says, {@code GenericData.Array}, {@code HashMap}, and the
 * model's logical-type conversions. Recursive schemas are not compiled ({@code null}).
 */
public final class DecoderCompiler {
  private final GenericData model;
  private final IdentityHashMap<Resolver.Action, Boolean> inProgress = new IdentityHashMap<>();

  private DecoderCompiler(GenericData model) {
    this.model = model;
  }

  /** A decoder of {@code writer} data as {@code reader}, or {@code null} if the pair cannot be compiled. */
  public static DatumDecoder compile(Schema writer, Schema reader, GenericData model) {
    try {
      Resolver.Action action = Resolver.resolve(writer, reader, model);
      return new DecoderCompiler(model).decoder(action, action.conversion);
    } catch (Unsupported e) {
      return null;
    }
  }

  private DatumDecoder decoder(Resolver.Action action, Conversion<?> conversion) {
    DatumDecoder raw = rawDecoder(action);
    LogicalType logical = action.reader.getLogicalType();
    if (conversion == null || logical == null) {
      return raw;
    }
    @SuppressWarnings("unchecked")
    Conversion<Object> c = (Conversion<Object>) conversion;
    Schema schema = action.reader;
    return in -> {
      Object value = raw.decode(in);
      return value == null ? null : Conversions.convertToLogicalType(value, schema, logical, c);
    };
  }

  private DatumDecoder rawDecoder(Resolver.Action action) {
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

  private DatumDecoder sameType(Schema schema) {
    return switch (schema.getType()) {
      case NULL -> in -> null;
      case BOOLEAN -> BoundedBinaryDecoder::readBoolean;
      case INT -> BoundedBinaryDecoder::readInt;
      case LONG -> BoundedBinaryDecoder::readLong;
      case FLOAT -> BoundedBinaryDecoder::readFloat;
      case DOUBLE -> BoundedBinaryDecoder::readDouble;
      case STRING -> stringDecoder(schema);
      case BYTES -> in -> in.readBytes(null);
      case FIXED -> {
        int size = schema.getFixedSize();
        yield in -> {
          GenericFixed fixed = (GenericFixed) model.createFixed(null, schema);
          in.readFixed(fixed.bytes(), 0, size);
          return fixed;
        };
      }
      default -> throw new Unsupported("no plain reader for " + schema.getType());
    };
  }

  private static DatumDecoder stringDecoder(Schema schema) {
    if ("String".equals(schema.getProp(GenericData.STRING_PROP))) {
      return BoundedBinaryDecoder::readString;
    }
    return BoundedBinaryDecoder::readUtf8;
  }

  private static DatumDecoder promote(Schema.Type from, Schema reader) {
    return switch (reader.getType()) {
      case LONG -> in -> (long) in.readInt();
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

  private DatumDecoder enumDecoder(Resolver.EnumAdjust action) {
    int[] adjustments = action.adjustments;
    Object[] values = action.values;
    String name = action.reader.getFullName();
    return in -> {
      int index = in.readEnum();
      if (index < 0 || index >= adjustments.length) {
        throw new AvroTypeException("enum index " + index + " out of range for " + name);
      }
      int adjusted = adjustments[index];
      if (adjusted < 0) {
        throw new AvroTypeException("no match for the writer's enum symbol " + index + " in " + name);
      }
      return values[adjusted];
    };
  }

  private DatumDecoder container(Resolver.Container action) {
    Schema reader = action.reader;
    DatumDecoder element = decoder(action.elementAction, action.elementAction.conversion);
    if (reader.getType() == Schema.Type.ARRAY) {
      return in -> {
        long count = in.readArrayStart();
        GenericData.Array<Object> array = new GenericData.Array<>((int) count, reader);
        while (count > 0) {
          for (long i = 0; i < count; i++) {
            array.add(element.decode(in));
          }
          count = in.arrayNext();
        }
        return array;
      };
    }
    DatumDecoder key = stringDecoder(reader);
    return in -> {
      long count = in.readMapStart();
      Map<Object, Object> map = new HashMap<>(); // as Avro: same capacity, same iteration order
      while (count > 0) {
        for (long i = 0; i < count; i++) {
          Object k = key.decode(in);
          map.put(k, element.decode(in));
        }
        count = in.mapNext();
      }
      return map;
    };
  }

  private DatumDecoder writerUnion(Resolver.WriterUnion action) {
    DatumDecoder[] branches = new DatumDecoder[action.actions.length];
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

  /** One step of a record: read (or skip) one writer field, or fill one reader field from its default. */
  @FunctionalInterface
  private interface Step {
    void apply(IndexedRecord record, BoundedBinaryDecoder in) throws IOException;
  }

  private DatumDecoder record(Resolver.RecordAdjust action) {
    if (inProgress.put(action, Boolean.TRUE) != null) {
      throw new Unsupported("recursive record " + action.reader.getFullName());
    }
    try {
      Object sample = action.instanceSupplier.newInstance(null, action.reader);
      Step[] steps = new Step[action.fieldActions.length + action.readerOrder.length - action.firstDefault];
      int i = 0;
      int j = 0;
      for (; i < action.fieldActions.length; i++) {
        Resolver.Action fieldAction = action.fieldActions[i];
        if (fieldAction.type == Resolver.Action.Type.SKIP) {
          Schema skipped = fieldAction.writer;
          steps[i] = (record, in) -> org.apache.avro.generic.GenericDatumReader.skip(skipped, in);
        } else {
          Schema.Field field = action.readerOrder[j++];
          int pos = field.pos();
          Conversion<?> conversion = conversion(sample, field);
          Step direct = conversion == null ? directStep(fieldAction, pos) : null;
          if (direct != null) {
            steps[i] = direct;
          } else {
            DatumDecoder value = decoder(fieldAction, conversion);
            steps[i] = (record, in) -> record.put(pos, value.decode(in));
          }
        }
      }
      for (; i < steps.length; i++) {
        Schema.Field field = action.readerOrder[j++];
        steps[i] = defaulting(field);
      }
      GenericData.InstanceSupplier supplier = action.instanceSupplier;
      Schema reader = action.reader;
      return in -> {
        IndexedRecord record = (IndexedRecord) supplier.newInstance(null, reader);
        for (Step step : steps) {
          step.apply(record, in);
        }
        return record;
      };
    } finally {
      inProgress.remove(action);
    }
  }

  /**
   * A single-dispatch step for the commonest fields, a plain primitive or a nullable one, or {@code null}:
   * one call per field instead of a step calling a value decoder.
   */
  private static Step directStep(Resolver.Action action, int pos) {
    if (action.type == Resolver.Action.Type.DO_NOTHING) {
      return switch (action.reader.getType()) {
        case INT -> (record, in) -> record.put(pos, in.readInt());
        case LONG -> (record, in) -> record.put(pos, in.readLong());
        case DOUBLE -> (record, in) -> record.put(pos, in.readDouble());
        case FLOAT -> (record, in) -> record.put(pos, in.readFloat());
        case BOOLEAN -> (record, in) -> record.put(pos, in.readBoolean());
        case STRING -> "String".equals(action.reader.getProp(GenericData.STRING_PROP))
            ? (record, in) -> record.put(pos, in.readString())
            : (record, in) -> record.put(pos, in.readUtf8());
        default -> null;
      };
    }
    if (action.type == Resolver.Action.Type.WRITER_UNION) {
      Resolver.WriterUnion union = (Resolver.WriterUnion) action;
      if (union.actions.length == 2 && union.actions[0].writer.getType() == Schema.Type.NULL
          && union.actions[1].type == Resolver.Action.Type.DO_NOTHING && union.actions[1].conversion == null
          && union.actions[1].reader.getType() == Schema.Type.STRING
          && !"String".equals(union.actions[1].reader.getProp(GenericData.STRING_PROP))) {
        return (record, in) -> {
          int index = in.readIndex();
          if (index == 0) {
            record.put(pos, null);
          } else if (index == 1) {
            record.put(pos, in.readUtf8());
          } else {
            throw new AvroTypeException("union index " + index + " out of range 0..1");
          }
        };
      }
    }
    return null;
  }

  /** The conversion Avro's reader applies to a field: the generated class's own, else the model's. */
  private Conversion<?> conversion(Object sample, Schema.Field field) {
    if (sample instanceof SpecificRecordBase specific) {
      return specific.getConversion(field.pos());
    }
    LogicalType logical = field.schema().getLogicalType();
    return logical == null ? null : model.getConversionFor(logical);
  }

  private Step defaulting(Schema.Field field) {
    int pos = field.pos();
    Object value = model.getDefaultValue(field);
    if (value == null || value instanceof Number || value instanceof Boolean || value instanceof String
        || value instanceof Enum<?> || value instanceof org.apache.avro.generic.GenericData.EnumSymbol) {
      return (record, in) -> record.put(pos, value);
    }
    Schema schema = field.schema();
    return (record, in) -> record.put(pos, model.deepCopy(schema, value));
  }
}
