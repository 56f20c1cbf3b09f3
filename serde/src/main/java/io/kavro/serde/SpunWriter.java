package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.util.Utf8;

/**
 * The encoder of one generated record class (avro-maven-plugin's, with Avro's {@code SpecificData}) through a
 * writer spun for that class once, when the route's encoder is compiled: a hidden class (see {@link SpunClassFile})
 * that reads every field through {@code get(int)} with a constant index, as Avro's {@code SpecificDatumWriter}
 * reads it, and writes a primitive, string, bytes, enum or nullable string field by a static leaf here (so the JIT
 * folds {@code get}'s switch and drops the boxes), any other field by its compiled encoder, from a call site of its
 * own. Avro's generic records ({@code GenericData.Record}) get the same, one class per shape of record
 * ({@link #ofGeneric}), their strings by the generic model's rule and their enums and nullable strings by their
 * encoders.
 *
 * <p>The loop encoder stays the one that decides failures: a value of another class goes to it; a spun write that
 * throws a {@code RuntimeException} or a {@code LinkageError} is rewound and done again by it, which throws what it
 * always threw (the null in a non-nullable field named, the wrong type...). A leaf therefore checks nothing itself:
 * it casts and lets a bad value throw. What a nested record's loop threw (an exception, or a class of the datum
 * that fails to link) is not done again by the loops of the records around it (see {@link #encode}): a bad value
 * deep down costs a write or two per level. A
 * {@code LinkageError} (which the JVM repeats for good) after which the loop writes the record switches the spun
 * class off for this encoder (every leaf a class calls is resolved when it is spun, so none is expected); one the
 * loop meets too is the datum's, thrown on, and the spun class stays. Thread-safe: the one state of a write is on its
 * sink, one per thread.
 */
final class SpunWriter implements CompiledEncoder {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SpunWriter.class);

  /** The classes spun for generic records, by shape ({@link #ofGeneric}); none kept where one cannot be spun. */
  private static final Cache<String, MethodHandle> GENERIC_SHAPES = Caffeine.newBuilder()
      .maximumSize(SpunReader.SHAPES_CACHED).build();
  private static final MethodType LEAF = MethodType.methodType(void.class, Object.class, ByteSink.class);
  /** Every leaf, for the shape keys of generic records. */
  private static final List<String> LEAVES = List.of("writeBoolean", "writeInt", "writeLong", "writeFloat",
      "writeDouble", "writeSpecificString", "writeString", "writeBytes", "writeEnum", "writeNullOrString",
      "writeStringOrNull");

  private final Class<?> type;
  private final CompiledEncoder spun;
  private final CompiledEncoder loop;
  /** Set once the spun class failed to link: every record goes to the loop (a plain field: a race only delays). */
  private boolean unlinked;

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
    MethodHandle constructor = spin(type, type.getName(), Fields.of(schema, SpunWriter::leaf));
    return constructor == null ? loop : construct(type, constructor, encoders, loop);
  }

  /**
   * The spun encoder of Avro's generic records ({@code GenericData.Record}, exactly) of {@code schema} by the
   * generic model, or {@code loop} itself when none can be spun. Its class depends only on the record's shape (per
   * field its leaf and whether it takes null; a field's position is its index), not on the schema: one class, spun
   * once and held in a bounded cache ({@value SpunReader#SHAPES_CACHED} shapes), serves every schema of one shape.
   */
  static CompiledEncoder ofGeneric(Schema schema, CompiledEncoder[] encoders, CompiledEncoder loop) {
    if (schema.getFields().size() > ClassFileWriter.MAX_CODE_BYTES / 11) { // 11 bytes of code the shortest field
      return loop; // too long for a compiled method, whatever its fields
    }
    Fields fields = Fields.of(schema, SpunWriter::genericLeaf);
    MethodHandle constructor = GENERIC_SHAPES.get(fields.key(),
        key -> spin(GenericData.Record.class, schema.getFullName(), fields)); // null: not kept, the loop writes
    return constructor == null ? loop : construct(GenericData.Record.class, constructor, encoders, loop);
  }

  /** Per field of a record, in order: its position, the leaf writing it (or {@code null}), whether it takes null. */
  private record Fields(int[] positions, List<String> leaves, boolean[] nullable) {
    static Fields of(Schema schema, Function<Schema, String> leafOf) {
      List<Schema.Field> fields = schema.getFields();
      // A field's position is its index (Field.pos()): positions[i] == i, the bytes' sipush operands.
      int[] positions = new int[fields.size()];
      boolean[] nullable = new boolean[fields.size()];
      List<String> leaves = new ArrayList<>(fields.size());
      for (int i = 0; i < positions.length; i++) {
        positions[i] = fields.get(i).pos();
        nullable[i] = fields.get(i).schema().isNullable();
        leaves.add(leafOf.apply(fields.get(i).schema()));
      }
      return new Fields(positions, leaves, nullable);
    }

    /** What the class's bytes depend on besides the record class, a character per field (positions are indexes). */
    String key() {
      char[] key = new char[nullable.length];
      for (int i = 0; i < key.length; i++) {
        String leaf = leaves.get(i);
        key[i] = (char) ((leaf == null ? 0 : LEAVES.indexOf(leaf) + 1) * 2 + (nullable[i] ? 1 : 0));
      }
      return new String(key);
    }
  }

  private static CompiledEncoder construct(Class<?> type, MethodHandle constructor, CompiledEncoder[] encoders,
      CompiledEncoder loop) {
    try {
      // The loop's own array, shared: neither changes it (one array less per record schema held).
      return new SpunWriter(type, (CompiledEncoder) constructor.invoke(encoders), loop);
    } catch (Throwable e) { // the constructor only stores its argument
      if (e instanceof VirtualMachineError error) {
        throw error;
      }
      log.debug("{} is written by the loop encoder: its spun writer failed to construct: {}", type.getName(),
          e.toString());
      return loop;
    }
  }

  /**
   * The constructor of the class spun for {@code type}'s records of {@code fields} ({@code name}: what the log
   * calls them), or {@code null}.
   */
  private static MethodHandle spin(Class<?> type, String name, Fields fields) {
    if (fields.positions().length == 0) {
      return null;
    }
    if (!JavaTypes.visible(type)) {
      log.debug("{} is written by the loop encoder: Kavro's class loader does not see it", name);
      return null;
    }
    byte[] classFile = SpunClassFile.of(type.getName(), fields.positions(), fields.leaves(), fields.nullable());
    if (classFile == null) {
      log.debug("{} is written by the loop encoder: {} fields are too many for one compiled method", name,
          fields.positions().length);
      return null;
    }
    try {
      SpunWriter.class.getModule().addReads(type.getModule()); // on the module path: the generated class's module
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      lookup.accessClass(type);
      lookup.findVirtual(type, "get", MethodType.methodType(Object.class, int.class));
      for (String leaf : fields.leaves()) { // resolved now: a leaf missing would fail over to the loop per record
        if (leaf != null) {
          lookup.findStatic(SpunWriter.class, leaf, LEAF);
        }
      }
      MethodHandles.Lookup spun = lookup.defineHiddenClass(classFile, true);
      return spun.findConstructor(spun.lookupClass(), MethodType.methodType(void.class, CompiledEncoder[].class));
    } catch (Throwable e) { // a VerifyError, a LinkageError, an access refused...: the loop writes instead
      if (e instanceof VirtualMachineError error) {
        throw error;
      }
      log.debug("{} is written by the loop encoder: no writer could be spun for it: {}", name, e.toString());
      return null;
    }
  }

  /** The name of the leaf that writes a field of {@code schema}, or {@code null} for its compiled encoder. */
  static String leaf(Schema schema) {
    if (schema.getLogicalType() != null || hasJavaClass(schema)) {
      return null; // a conversion, or a string held as another Java class: the field's own encoder
    }
    return switch (schema.getType()) {
      case BOOLEAN -> "writeBoolean";
      case INT -> "writeInt";
      case LONG -> "writeLong";
      case FLOAT -> "writeFloat";
      case DOUBLE -> "writeDouble";
      case STRING -> "writeSpecificString";
      case BYTES -> "writeBytes";
      case ENUM -> "writeEnum";
      case UNION -> {
        List<Schema> branches = schema.getTypes();
        if (branches.size() != 2 || branches.get(0).getLogicalType() != null
            || branches.get(1).getLogicalType() != null || hasJavaClass(branches.get(0))
            || hasJavaClass(branches.get(1))) {
          yield null; // a string of another Java class (java-class): the union's encoder takes it without a throw
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
   * The name of the leaf that writes a field of {@code schema} of a generic record, as the generic model's encoders
   * write it, or {@code null} for its compiled encoder: as {@link #leaf}, but a string by the generic model's rule,
   * and an enum and a nullable string by their encoders.
   */
  private static String genericLeaf(Schema schema) {
    String leaf = leaf(schema);
    return switch (leaf == null ? "" : leaf) {
      case "writeSpecificString" -> "writeString";
      // An enum symbol is no Java enum; the nullable strings' leaves take a String or a Utf8 alone, and a generic
      // record may hold any CharSequence (or JsonProperties.NULL_VALUE) there, which would fail over per record:
      // the union's encoder, which resolves every value without a throw.
      case "writeEnum", "writeNullOrString", "writeStringOrNull", "" -> null;
      default -> leaf;
    };
  }

  /**
   * For tests: the spun class's own writer of {@code encoder}, without the loop to fall back on (so that a spun
   * write that throws is seen), or {@code null} if {@code encoder} does not write through one.
   */
  static CompiledEncoder spunOnly(CompiledEncoder encoder) {
    return encoder instanceof SpunWriter writer ? writer.spun : null;
  }

  private static boolean hasJavaClass(Schema schema) {
    return schema.getProp(org.apache.avro.specific.SpecificData.CLASS_PROP) != null;
  }

  /**
   * Writes {@code value} by the spun class, or by the loop where the spun class does not take it. A failure that a
   * nested record's loop threw (noted on {@code out}) is thrown on as it is, not written again by this
   * record's loop: that loop would write the same fields up to the same nested record (it takes every value the
   * spun class takes, with the same bytes), which would fail the same way. Each level of nesting redoing its
   * nested records, and theirs in turn, cost 2^depth writes for one bad value deep down; this costs one spun write
   * per level and one loop's write.
   */
  @Override
  public void encode(Object value, ByteSink out) {
    if (value != null && value.getClass() == type && !unlinked) {
      int start = out.size();
      try {
        spun.encode(value, out);
        return;
      } catch (RuntimeException e) {
        if (out.isRefusal(e)) {
          throw e; // a nested record's loop refused it: what this record's loop would throw
        }
        out.forgetRefusal(); // any note is stale: this failure is caught and the record written again
        out.truncate(start); // the loop writes it again and fails as it always did, or writes it as it is
      } catch (LinkageError e) {
        if (out.isRefusal(e) || e instanceof ExceptionInInitializerError) {
          // A nested record's loop met it, or a static initializer failed (a spun class has none): the datum's,
          // thrown on as it is (the loop would meet only "Could not initialize class", without its cause).
          out.refused(e);
          throw e;
        }
        out.forgetRefusal();
        out.truncate(start);
        // The loop writes it again: whatever it throws (a class of the datum's accessor or of a value that fails to
        // link, a bad value) is the datum's, thrown on from here, and the spun class stays. Only a record the loop
        // writes tells that the spun class itself failed to link.
        loop(value, out);
        unlinked = true;
        log.warn("The writer spun for {} failed to link; its records are written by the loop encoder: {}",
            type.getName(), e.toString());
        return;
      }
    }
    loop(value, out);
  }

  private void loop(Object value, ByteSink out) {
    try {
      loop.encode(value, out);
    } catch (RuntimeException | LinkageError e) {
      out.refused(e); // for the records around this one: see above
      throw e;
    }
  }

  /** For tests: whether {@code encoder} is a spun writer switched off for good (its spun class failed to link). */
  static boolean unlinked(CompiledEncoder encoder) {
    return encoder instanceof SpunWriter writer && writer.unlinked;
  }

  /** {@code value}, which must not be null: a field whose schema takes no null (the loop names it). */
  static Object nonNull(Object value) {
    if (value == null) {
      throw new NullPointerException(); // caught: the loop throws its own, naming the field
    }
    return value;
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

  static void writeSpecificString(Object value, ByteSink out) {
    EncoderCompiler.writeSpecificString(value, out);
  }

  /** A string as the generic model's encoder writes it ({@link EncoderCompiler#writeString}). */
  static void writeString(Object value, ByteSink out) {
    EncoderCompiler.writeString(value, out);
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
