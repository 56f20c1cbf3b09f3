package io.kavro.serde;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.util.Utf8;

/**
 * The encoder of one generated record class (avro-maven-plugin's, with Avro's {@code SpecificData}) through a
 * writer spun for that class once, when the route's encoder is compiled: a hidden class (see {@link SpunClassFile})
 * that reads every field through {@code get(int)} with a constant index, as Avro's {@code SpecificDatumWriter}
 * reads it, and writes a primitive, string, bytes, enum or nullable string field by a static leaf here (so the JIT
 * folds {@code get}'s switch and drops the boxes), any other field by its compiled encoder.
 *
 * <p>The loop encoder stays the one that decides failures: a value of another class goes to it; a spun write that
 * throws anything is rewound and done again by it, which throws what it always threw (the null in a non-nullable
 * field named, the wrong type...). A leaf therefore checks nothing itself: it casts and lets a bad value throw.
 * Immutable and thread-safe.
 */
final class SpunWriter implements CompiledEncoder {
  private final Class<?> type;
  private final CompiledEncoder spun;
  private final CompiledEncoder loop;

  private SpunWriter(Class<?> type, CompiledEncoder spun, CompiledEncoder loop) {
    this.type = type;
    this.spun = spun;
    this.loop = loop;
  }

  /**
   * The spun encoder of {@code type}'s records of {@code schema}, whose fields' encoders are {@code encoders}, or
   * {@code loop} itself when the class cannot be spun: one Kavro's class loader does not see as itself, one not
   * accessible from Kavro's package, or any failure to define it.
   */
  static CompiledEncoder of(Class<?> type, Schema schema, CompiledEncoder[] encoders, CompiledEncoder loop) {
    List<Schema.Field> fields = schema.getFields();
    if (fields.isEmpty() || fields.size() > SpunClassFile.MAX_FIELDS || !visible(type)) {
      return loop;
    }
    int[] positions = new int[fields.size()];
    List<String> leaves = new ArrayList<>(fields.size());
    for (int i = 0; i < positions.length; i++) {
      positions[i] = fields.get(i).pos();
      leaves.add(leaf(fields.get(i).schema()));
    }
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      lookup.accessClass(type);
      lookup.findVirtual(type, "get", MethodType.methodType(Object.class, int.class));
      Class<?> spun = lookup.defineHiddenClass(SpunClassFile.of(type.getName(), positions, leaves), true)
          .lookupClass();
      CompiledEncoder writer = (CompiledEncoder) lookup.findConstructor(spun,
          MethodType.methodType(void.class, CompiledEncoder[].class)).invoke(encoders.clone());
      return new SpunWriter(type, writer, loop);
    } catch (Throwable e) { // a VerifyError, a LinkageError, an access refused...: the loop writes instead
      if (e instanceof VirtualMachineError error) {
        throw error;
      }
      return loop;
    }
  }

  /** Whether {@code type} is the class Kavro's own loader finds by its name: the spun class links through it. */
  private static boolean visible(Class<?> type) {
    try {
      return Class.forName(type.getName(), false, SpunWriter.class.getClassLoader()) == type;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The name of the leaf that writes a field of {@code schema}, or {@code null} for its compiled encoder. */
  static String leaf(Schema schema) {
    if (schema.getLogicalType() != null) {
      return null;
    }
    return switch (schema.getType()) {
      case BOOLEAN -> "writeBoolean";
      case INT -> "writeInt";
      case LONG -> "writeLong";
      case FLOAT -> "writeFloat";
      case DOUBLE -> "writeDouble";
      case STRING -> "writeString";
      case BYTES -> "writeBytes";
      case ENUM -> "writeEnum";
      case UNION -> {
        List<Schema> branches = schema.getTypes();
        if (branches.size() != 2 || branches.get(0).getLogicalType() != null
            || branches.get(1).getLogicalType() != null) {
          yield null;
        }
        Schema.Type first = branches.get(0).getType();
        Schema.Type second = branches.get(1).getType();
        yield first == Schema.Type.NULL && second == Schema.Type.STRING ? "writeNullOrString"
            : first == Schema.Type.STRING && second == Schema.Type.NULL ? "writeStringOrNull" : null;
      }
      default -> null;
    };
  }

  /**
   * For tests: the spun class's own writer of {@code encoder}, without the loop to fall back on (so that a spun
   * write that throws is seen), or {@code null} if {@code encoder} does not write through one.
   */
  static CompiledEncoder spunOnly(CompiledEncoder encoder) {
    return encoder instanceof SpunWriter writer ? writer.spun : null;
  }

  @Override
  public void encode(Object value, ByteSink out) {
    if (value != null && value.getClass() == type) {
      int start = out.size();
      try {
        spun.encode(value, out);
        return;
      } catch (RuntimeException | LinkageError e) {
        out.truncate(start); // the loop writes it again and fails as it always did, or writes it as it is
      }
    }
    loop.encode(value, out);
  }

  static void writeBoolean(Object value, ByteSink out) {
    out.writeBoolean((Boolean) value);
  }

  static void writeInt(Object value, ByteSink out) {
    out.writeInt(((Number) value).intValue());
  }

  static void writeLong(Object value, ByteSink out) {
    out.writeLong(((Number) value).longValue());
  }

  static void writeFloat(Object value, ByteSink out) {
    out.writeFloat(((Number) value).floatValue());
  }

  static void writeDouble(Object value, ByteSink out) {
    out.writeDouble(((Number) value).doubleValue());
  }

  static void writeString(Object value, ByteSink out) {
    EncoderCompiler.writeSpecificString(value, out);
  }

  static void writeBytes(Object value, ByteSink out) {
    out.writeBytes((ByteBuffer) value);
  }

  /** A Java enum by its ordinal, as the specific writer writes one; an Avro enum symbol fails to the loop. */
  static void writeEnum(Object value, ByteSink out) {
    out.writeInt(((Enum<?>) value).ordinal());
  }

  /** {@code ["null", "string"]}: null, a {@code String} or a {@link Utf8}; anything else to the loop's resolution. */
  static void writeNullOrString(Object value, ByteSink out) {
    writeNullable(value, out, 0);
  }

  /** {@code ["string", "null"]}: as {@link #writeNullOrString}, branches swapped. */
  static void writeStringOrNull(Object value, ByteSink out) {
    writeNullable(value, out, 1);
  }

  private static void writeNullable(Object value, ByteSink out, int nullBranch) {
    if (value == null) {
      out.writeInt(nullBranch);
      return;
    }
    if (value.getClass() != String.class && value.getClass() != Utf8.class) {
      throw new ClassCastException(); // caught: the loop resolves the union as Avro does
    }
    out.writeInt(1 - nullBranch);
    EncoderCompiler.writeString(value, out);
  }
}
