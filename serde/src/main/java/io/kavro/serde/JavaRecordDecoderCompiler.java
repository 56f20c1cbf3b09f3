package io.kavro.serde;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Conversion;
import org.apache.avro.Resolver;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * Compiles a (writer, reader) schema pair into a {@link CompiledDecoder} that reads straight into a Java record
 * class: each record whose Java type is a record class is decoded field by field, in the writer's order, into the
 * slots of its components (by the reader field's name), and built with its canonical constructor, bound once; no
 * generic record is built between. The resolution is Avro's {@link Resolver}'s, as {@link DecoderCompiler} does
 * it: skipped writer fields, defaults for reader-only fields, promotions, union branches.
 *
 * <p>The Java types lead: records, collections ({@code List}, {@code Set}) of arrays, maps, and unions are read
 * structurally; {@code String} and {@code byte[]} leaves directly. Every other value (enums, logical types,
 * narrow primitives, fixed classes, stringable classes, and any value whose schema does not match its component's
 * kind, such as a record read into an {@code Object}) is decoded by {@link DecoderCompiler} and converted by
 * {@link JavaValues}, exactly as the two-step path ({@link JavaRecordReader}) does. The values are those of the
 * two-step path; map entries keep the payload's order.
 *
 * <p>Errors are the two-step path's too: where the direct decoder throws a {@code RuntimeException} (a constructor
 * that refuses its values, which the two-step path meets only after decoding the whole payload), the payload is read
 * again on the two-step path, which throws what it throws (a malformed payload first). Recursive schemas are not
 * compiled ({@code null}).
 */
final class JavaRecordDecoderCompiler {
  private final DecoderCompiler leaves;
  private final IdentityHashMap<Resolver.Action, Boolean> inProgress = new IdentityHashMap<>();

  private JavaRecordDecoderCompiler(GenericData model) {
    this.leaves = new DecoderCompiler(model);
  }

  /**
   * A decoder of {@code writer} data as {@code reader} into the Java record class {@code type}, or {@code null} if
   * the pair cannot be compiled.
   *
   * @param model the model the two-step path reads with ({@link JavaRecordReader#readModel})
   * @param twoStep the two-step path's compiled decoder of the same pair, which reads again where this one fails
   */
  static CompiledDecoder compile(Schema writer, Schema reader, Class<?> type, GenericData model,
      CompiledDecoder twoStep) {
    CompiledDecoder direct;
    try {
      Resolver.Action action = Resolver.resolve(writer, reader, model);
      direct = new JavaRecordDecoderCompiler(model).decoder(action, action.conversion, type);
    } catch (Unsupported e) {
      return null;
    }
    return in -> {
      int position = in.position();
      long itemBudget = in.itemBudget();
      try {
        return direct.decode(in);
      } catch (RuntimeException e) {
        in.rewind(position, itemBudget);
        twoStep.decode(in); // the two-step path's error: a malformed payload before a refused value
        throw e;
      }
    };
  }

  private CompiledDecoder decoder(Resolver.Action action, Conversion<?> conversion, Type target) {
    Class<?> raw = JavaTypes.rawClass(target);
    switch (action.type) {
      case RECORD -> {
        if (raw.isRecord()) {
          return record((Resolver.RecordAdjust) action, raw);
        }
      }
      case CONTAINER -> {
        Resolver.Container container = (Resolver.Container) action;
        if (action.reader.getType() == Schema.Type.ARRAY && Collection.class.isAssignableFrom(raw)) {
          return collection(container, target, Set.class.isAssignableFrom(raw));
        }
        if (action.reader.getType() == Schema.Type.MAP && Map.class.isAssignableFrom(raw)) {
          return map(container, target);
        }
      }
      case WRITER_UNION -> {
        return writerUnion((Resolver.WriterUnion) action, target);
      }
      case READER_UNION -> {
        Resolver.Action actual = ((Resolver.ReaderUnion) action).actualAction;
        return decoder(actual, actual.conversion, target);
      }
      default -> { }
    }
    return leaf(action, conversion, target, raw);
  }

  /**
   * A value of no structure of its own here: the compiled generic decoder's, converted to the Java type as the
   * two-step path converts it, the conversion left out where it would change nothing.
   */
  private CompiledDecoder leaf(Resolver.Action action, Conversion<?> conversion, Type target, Class<?> raw) {
    Schema reader = action.reader;
    boolean plain = action.type == Resolver.Action.Type.DO_NOTHING
        && (conversion == null || reader.getLogicalType() == null);
    if (plain && reader.getType() == Schema.Type.STRING && (raw == String.class || raw == Object.class)) {
      return LeafDecoders.STRING;
    }
    if (plain && reader.getType() == Schema.Type.BYTES && raw == byte[].class) {
      return BoundedBinaryDecoder::readByteArray;
    }
    if (plain && reader.getType() == Schema.Type.FIXED && raw == byte[].class) {
      int size = reader.getFixedSize();
      return in -> {
        in.require(size); // before allocating: a registry's schema may claim gigabytes
        byte[] bytes = new byte[size];
        in.readFixed(bytes, 0, size);
        return bytes;
      };
    }
    CompiledDecoder generic = leaves.decoder(action, conversion);
    Function<Object, Object> converter = JavaValues.converter(target);
    boolean text = reader.getType() == Schema.Type.STRING && (conversion == null || reader.getLogicalType() == null);
    if (JavaValues.changesOnlyText(converter) && !text) {
      return generic;
    }
    return in -> {
      Object value = generic.decode(in);
      return value == null ? null : converter.apply(value);
    };
  }

  private CompiledDecoder collection(Resolver.Container action, Type target, boolean set) {
    CompiledDecoder element = decoder(action.elementAction, action.elementAction.conversion,
        JavaTypes.typeArgument(target, 0));
    int kind = LeafDecoders.kindOf(element);
    if (set) {
      return in -> {
        Set<Object> items = new LinkedHashSet<>();
        for (long count = in.readArrayStart(); count > 0; count = in.arrayNext()) {
          for (long i = 0; i < count; i++) {
            items.add(LeafDecoders.decode(kind, element, in));
          }
        }
        return Collections.unmodifiableSet(items);
      };
    }
    return in -> {
      long count = in.readArrayStart();
      List<Object> items = new ArrayList<>((int) count);
      while (count > 0) {
        for (long i = 0; i < count; i++) {
          items.add(LeafDecoders.decode(kind, element, in));
        }
        count = in.arrayNext();
      }
      return Collections.unmodifiableList(items);
    };
  }

  private CompiledDecoder map(Resolver.Container action, Type target) {
    CompiledDecoder value = decoder(action.elementAction, action.elementAction.conversion,
        JavaTypes.typeArgument(target, 1));
    Type keyType = JavaTypes.typeArgument(target, 0);
    Class<?> keyRaw = JavaTypes.rawClass(keyType);
    CompiledDecoder key;
    if (keyRaw == String.class || keyRaw == Object.class) {
      key = LeafDecoders.STRING;
    } else {
      CompiledDecoder text = DecoderCompiler.stringDecoder(action.reader);
      Function<Object, Object> converter = JavaValues.converter(keyType);
      key = in -> converter.apply(text.decode(in));
    }
    int keyKind = LeafDecoders.kindOf(key);
    int valueKind = LeafDecoders.kindOf(value);
    return in -> {
      Map<Object, Object> map = new LinkedHashMap<>();
      for (long count = in.readMapStart(); count > 0; count = in.mapNext()) {
        for (long i = 0; i < count; i++) {
          Object k = LeafDecoders.decode(keyKind, key, in);
          map.put(k, LeafDecoders.decode(valueKind, value, in));
        }
      }
      return map;
    };
  }

  private CompiledDecoder writerUnion(Resolver.WriterUnion action, Type target) {
    CompiledDecoder[] branches = new CompiledDecoder[action.actions.length];
    for (int i = 0; i < branches.length; i++) {
      branches[i] = decoder(action.actions[i], action.actions[i].conversion, target);
    }
    int last = branches.length - 1;
    // ["null", T] whose null reads as null; a reader that cannot hold one resolves it to an error, which must throw.
    if (branches.length == 2 && action.actions[0].writer.getType() == Schema.Type.NULL
        && action.actions[0].type == Resolver.Action.Type.DO_NOTHING) {
      CompiledDecoder second = branches[1]; // ["null", T], the commonest union: no array between
      return in -> {
        int index = in.readIndex();
        if (index == 0) {
          return null;
        }
        if (index == 1) {
          return second.decode(in);
        }
        throw new AvroTypeException("union index " + index + " out of range 0..1");
      };
    }
    return in -> {
      int index = in.readIndex();
      if (index < 0 || index > last) {
        throw new AvroTypeException("union index " + index + " out of range 0.." + last);
      }
      return branches[index].decode(in);
    };
  }

  /**
   * A Java record: one decoder per writer field, in the writer's order, each stored in the slot of the component
   * its reader field names (or skipped, or decoded and dropped where no component has the name), then the
   * components whose fields only the reader has, from their defaults; then the canonical constructor.
   */
  private CompiledDecoder record(Resolver.RecordAdjust action, Class<?> type) {
    if (inProgress.put(action, Boolean.TRUE) != null) {
      throw new Unsupported("recursive record " + action.reader.getFullName());
    }
    try {
      RecordComponent[] components = type.getRecordComponents();
      Map<String, Integer> slotsByName = new HashMap<>();
      for (int i = 0; i < components.length; i++) {
        slotsByName.put(components[i].getName(), i);
      }
      int writerFields = action.fieldActions.length;
      CompiledDecoder[] values = new CompiledDecoder[writerFields];
      int[] slots = new int[writerFields];
      int j = 0;
      for (int i = 0; i < writerFields; i++) {
        Resolver.Action fieldAction = action.fieldActions[i];
        if (fieldAction.type == Resolver.Action.Type.SKIP) {
          values[i] = DecoderCompiler.skipper(fieldAction.writer);
          slots[i] = -1;
          continue;
        }
        Schema.Field field = action.readerOrder[j++];
        Conversion<?> conversion = leaves.conversion(null, field);
        Integer slot = slotsByName.get(field.name());
        // A field no component names is still decoded, as the two-step path decodes it: its errors are the same.
        values[i] = slot == null ? leaves.decoder(fieldAction, conversion)
            : decoder(fieldAction, conversion, components[slot].getGenericType());
        slots[i] = slot == null ? -1 : slot;
      }
      List<CompiledDecoder> defaults = new ArrayList<>();
      List<Integer> defaultSlots = new ArrayList<>();
      for (; j < action.readerOrder.length; j++) {
        Schema.Field field = action.readerOrder[j];
        Integer slot = slotsByName.get(field.name());
        if (slot != null) {
          CompiledDecoder generic = leaves.defaultValue(field);
          Function<Object, Object> converter = JavaValues.converter(components[slot].getGenericType());
          defaults.add(in -> {
            Object value = generic.decode(in);
            return value == null ? null : converter.apply(value);
          });
          defaultSlots.add(slot);
        }
      }
      CompiledDecoder[] defaultValues = defaults.toArray(new CompiledDecoder[0]);
      int[] defaultPositions = defaultSlots.stream().mapToInt(Integer::intValue).toArray();
      MethodHandle constructor = JavaValues.canonicalConstructor(type);
      Schema reader = action.reader;
      int arity = components.length;
      int[] kinds = LeafDecoders.kindsOf(values);
      return in -> {
        Object[] args = new Object[arity];
        for (int i = 0; i < values.length; i++) {
          Object value = LeafDecoders.decode(kinds[i], values[i], in);
          int slot = slots[i];
          if (slot >= 0) {
            args[slot] = value;
          }
        }
        for (int i = 0; i < defaultValues.length; i++) {
          args[defaultPositions[i]] = defaultValues[i].decode(in);
        }
        return JavaValues.construct(constructor, type, reader, args);
      };
    } finally {
      inProgress.remove(action);
    }
  }
}
