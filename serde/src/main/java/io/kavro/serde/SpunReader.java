package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * The decoder of one record schema through a reader spun once per shape of record: a hidden class (see
 * {@link SpunReaderClassFile}) that reads every field straight-line, a leaf (a primitive, a string, a nullable
 * string, a date...) by a static method of {@link LeafDecoders}, any other value by its own compiled decoder, and
 * stores each at its reader position, a constant. Where the loop of {@link DecoderCompiler} reaches every field
 * through one switch and one call site that all fields of all schemas share (which the JIT cannot inline past two
 * kinds of decoder), each field here has its call site, shared only by the schemas of one shape: the nested
 * record, array or enum decoders it calls are the few its profile sees.
 *
 * <p>A shape is what the class's bytes depend on: per writer field its leaf kind (or none: the decoder called) and
 * reader position, and the positions of the defaults. The record, its schema, the supplier that makes it and the
 * other decoders are the instance's, so one class serves every schema of one shape: thousands of schemas of a few
 * shapes spin a few classes, held in a bounded cache ({@value #SHAPES_CACHED} shapes; a shape evicted is spun again
 * when a schema of it is next compiled, and the class evicted is unloaded with its last reader). A generated class
 * whose string fields have setters that store as {@code put} does ({@link GeneratedSetters}) gets a class for each
 * reader of it, which names it and calls those setters, spun when the reader is compiled and unloaded with it.
 *
 * <p>The spun reader calls the very decoders the loop calls, in the same order, so it reads the same values and
 * throws the same exceptions for the same bytes; it has no mutable state (thread-safe). Any failure to spin (a class
 * refused by the JVM, too many fields for a compiled method) leaves the loop in its place, and is not remembered
 * (a compile asks again).
 */
final class SpunReader {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SpunReader.class);
  /** A leaf that reads nothing: the spun code pushes {@code null} (not a method). */
  static final String NULL_LEAF = "null";
  /** The most shapes whose classes are held. */
  static final int SHAPES_CACHED = 1_024;
  private static final MethodType CONSTRUCTOR = MethodType.methodType(void.class, CompiledDecoder[].class,
      GenericData.InstanceSupplier.class, Schema.class);
  /** The constructors of the classes spun by shape (none kept where a shape cannot be spun). */
  private static final Cache<String, MethodHandle> SHAPES = Caffeine.newBuilder().maximumSize(SHAPES_CACHED).build();
  private static final MethodType LEAF = MethodType.methodType(Object.class, BoundedBinaryDecoder.class);

  private SpunReader() {
  }

  /**
   * The spun reader of records of {@code schema} made by {@code supplier}: writer field {@code i} decoded by
   * {@code values[i]} (whose {@link LeafDecoders#kindOf} is {@code kinds[i]}) and stored at {@code positions[i]}
   * (-1: read and dropped), then default {@code d} by {@code defaults[d]} at {@code defaultPositions[d]}; or
   * {@code null} when no reader can be spun for it (the caller keeps its loop). {@code generated}: the generated
   * class the supplier makes, whose string fields' setters may store them ({@link GeneratedSetters}), or
   * {@code null}.
   */
  static CompiledDecoder of(GenericData.InstanceSupplier supplier, Schema schema, Class<?> generated,
      CompiledDecoder[] values, int[] kinds, int[] positions, CompiledDecoder[] defaults, int[] defaultPositions) {
    int count = values.length + defaults.length;
    if (count == 0 || count > (ClassFileWriter.MAX_CODE_BYTES - 20) / 2) { // 2 bytes the shortest: a null skipped
      return null; // nothing to read, or surely too long for a compiled method
    }
    if (Arrays.stream(positions).anyMatch(p -> p > Short.MAX_VALUE)
        || Arrays.stream(defaultPositions).anyMatch(p -> p > Short.MAX_VALUE)) {
      return null; // a position past sipush's (a reader of 32,768 fields or more)
    }
    // The shape, two characters a writer field (its leaf's kind, 0 for a decoder's call; its position + 1) and one
    // a default (its position + 1): by kind, never by name (a null field pushes a null, a decoder call has no name).
    List<String> leaves = new ArrayList<>(kinds.length);
    StringBuilder shape = new StringBuilder(2 * kinds.length + 1 + defaultPositions.length);
    for (int i = 0; i < kinds.length; i++) {
      String leaf = LeafDecoders.spunLeaf(kinds[i]);
      leaves.add(leaf);
      shape.append((char) (leaf == null ? 0 : kinds[i])).append((char) (positions[i] + 1));
    }
    shape.append('|');
    for (int position : defaultPositions) {
      shape.append((char) (position + 1));
    }
    List<Method> setters = generated == null ? null
        : GeneratedSetters.of(generated, supplier, schema, kinds, positions);
    // A class naming a generated class is its reader's alone, unloaded with it: held in a cache of Kavro's, it would
    // keep the generated class's loader, or, held with that class, Kavro's (a loader apart: a redeploy's leak).
    MethodHandle constructor = setters != null ? spin(positions, leaves, defaultPositions, generated, setters)
        : SHAPES.get(shape.toString(), key -> spin(positions, leaves, defaultPositions, null, null));
    if (constructor == null) {
      return null;
    }
    CompiledDecoder[] decoders = Arrays.copyOf(values, values.length + defaults.length);
    System.arraycopy(defaults, 0, decoders, values.length, defaults.length);
    try {
      return (CompiledDecoder) constructor.invoke(decoders, supplier, schema);
    } catch (Throwable e) { // the constructor only stores its arguments
      if (e instanceof VirtualMachineError error) {
        throw error;
      }
      log.debug("{} is read by the loop decoder: its spun reader failed to construct: {}", schema.getFullName(),
          e.toString());
      return null;
    }
  }

  private static MethodHandle spin(int[] positions, List<String> leaves, int[] defaultPositions, Class<?> owner,
      List<Method> setters) {
    byte[] classFile = SpunReaderClassFile.of(positions, leaves, defaultPositions,
        owner == null ? null : owner.getName(), setters);
    if (classFile == null) {
      log.debug("a record of {} fields is read by the loop decoder: too many for one compiled method",
          positions.length + defaultPositions.length);
      return null;
    }
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      for (String leaf : leaves) { // resolved now: a leaf missing would fail each record of the shape, mid-read
        if (leaf != null && !leaf.equals(NULL_LEAF)) {
          lookup.findStatic(LeafDecoders.class, leaf, LEAF);
        }
      }
      if (owner != null) { // checked now, as a leaf is: a refusal at the first record would fail every record
        SpunReader.class.getModule().addReads(owner.getModule());
        lookup.accessClass(owner);
        for (Method setter : setters) {
          if (setter != null) {
            lookup.unreflect(setter);
          }
        }
      }
      MethodHandles.Lookup spun = lookup.defineHiddenClass(classFile, true);
      return spun.findConstructor(spun.lookupClass(), CONSTRUCTOR);
    } catch (Throwable e) { // a VerifyError, a LinkageError...: the loop reads instead
      if (e instanceof VirtualMachineError error) {
        throw error;
      }
      log.debug("records of {} fields are read by the loop decoder: no reader could be spun: {}",
          positions.length + defaultPositions.length, e.toString());
      return null;
    }
  }
}
