package io.kavro.serde;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The bytes of one class file (version 61, Java 17): a final class {@code io.kavro.serde.SpunWriter$Spun}
 * implementing {@link CompiledEncoder}, with one field, {@code CompiledEncoder[] encoders}, set by its only
 * constructor, and an {@code encode(Object, ByteSink)} that writes one record class's fields in schema
 * order, straight-line:
 *
 * <pre>
 *   aload_1; checkcast TheClass; astore_3
 *   per field, a leaf:   aload_3; sipush pos; invokevirtual TheClass.get(I)Object; aload_2;
 *                        invokestatic SpunWriter.leaf
 *   any other field k:   aload_0; getfield encoders; sipush k; aaload;
 *                        aload_3; sipush pos; invokevirtual TheClass.get(I)Object;
 *                        [invokestatic SpunWriter.nonNull, for a field whose schema does not take null]
 *                        aload_2; invokeinterface encode
 *   return
 * </pre>
 *
 * <p>Why no {@code StackMapTable}: a class file of version 50 and later is verified by type checking, which needs a
 * frame only where control flow merges (a branch target or an exception handler). This code has no branch, no
 * switch and no handler (each null check, each {@code instanceof} is inside a leaf of {@link SpunWriter}), so the
 * implicit frame at the method's start is all the verifier needs. A constant index is what lets the JIT fold
 * {@code get(int)}'s switch and drop the boxes of primitive fields, where it inlines {@code get(int)} (a class of
 * some 30 fields or fewer: a larger method is past HotSpot's inlining limits, and the boxes stay).
 *
 * <p>A record whose {@code encode} would be longer than {@link ClassFileWriter#MAX_CODE_BYTES} gets no class
 * ({@code null}): HotSpot never compiles a method that long, and interpreted code would be slower than the loop.
 */
final class SpunClassFile {
  static final String NAME = "io/kavro/serde/SpunWriter$Spun";
  private static final String ENCODER = "io/kavro/serde/CompiledEncoder";
  private static final String ENCODERS = "[L" + ENCODER + ";";
  private static final String ENCODE = "(Ljava/lang/Object;Lio/kavro/serde/ByteSink;)V";
  private SpunClassFile() {
  }

  /**
   * The class file of the writer of {@code recordClass} (a binary name with dots): for field {@code i} of the
   * schema, in order, {@code get(positions[i])}, then the static {@code (Object, ByteSink)} method of
   * {@link SpunWriter} named {@code leaves[i]}, or, where that is {@code null}, {@code encoders[i]} (the value
   * checked by {@code SpunWriter.nonNull} first unless {@code nullable[i]}); {@code null} when its {@code encode}
   * would be longer than {@link ClassFileWriter#MAX_CODE_BYTES}.
   */
  static byte[] of(String recordClass, int[] positions, List<String> leaves, boolean[] nullable) {
    return write(new ClassFileWriter(), recordClass.replace('.', '/'), positions, leaves, nullable);
  }

  private static byte[] write(ClassFileWriter file, String record, int[] positions, List<String> leaves,
      boolean[] nullable) {
    int encodersField = file.ref(9, NAME, "encoders", ENCODERS);
    int recordClass = file.classRef(record);
    int get = file.ref(10, record, "get", "(I)Ljava/lang/Object;");
    int encode = file.ref(11, ENCODER, "encode", ENCODE);

    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(0x2b); // aload_1
    ClassFileWriter.op2(body, 0xc0, recordClass); // checkcast
    body.write(0x4e); // astore_3
    for (int i = 0; i < positions.length; i++) {
      String leaf = leaves.get(i);
      if (leaf == null) {
        body.write(0x2a); // aload_0
        ClassFileWriter.op2(body, 0xb4, encodersField); // getfield encoders
        ClassFileWriter.op2(body, 0x11, i); // sipush i
        body.write(0x32); // aaload
      }
      body.write(0x2d); // aload_3
      ClassFileWriter.op2(body, 0x11, positions[i]); // sipush pos
      ClassFileWriter.op2(body, 0xb6, get); // invokevirtual get(I)
      if (leaf == null && !nullable[i]) {
        ClassFileWriter.op2(body, 0xb8, file.ref(10, "io/kavro/serde/SpunWriter", "nonNull",
            "(Ljava/lang/Object;)Ljava/lang/Object;"));
      }
      body.write(0x2c); // aload_2
      if (leaf == null) {
        ClassFileWriter.op2(body, 0xb9, encode); // invokeinterface encode, 3 argument slots
        body.write(3);
        body.write(0);
      } else {
        // invokestatic the leaf
        ClassFileWriter.op2(body, 0xb8, file.ref(10, "io/kavro/serde/SpunWriter", leaf, ENCODE));
      }
    }
    body.write(0xb1); // return
    if (body.size() > ClassFileWriter.MAX_CODE_BYTES) {
      return null;
    }
    return file.write(NAME, ENCODER, List.of(new ClassFileWriter.Field("encoders", ENCODERS)), List.of(
        file.constructor("(" + ENCODERS + ")V", encodersField),
        new ClassFileWriter.Method("encode", ENCODE, 4, 4, body.toByteArray())));
  }
}
