package io.kavro.serde;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of one class file (version 61, Java 17): a final class {@code io.kavro.serde.SpunWriter$Spun}
 * implementing {@link CompiledEncoder}, with one field, {@code CompiledEncoder[] encoders}, set by its only
 * constructor, and an {@code encode(Object, ByteSink)} that writes one generated record class's fields in schema
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
 * <p>A record whose {@code encode} would be longer than {@link #MAX_CODE_BYTES} gets no class ({@code null}): HotSpot
 * never compiles a method that long, and interpreted code would be slower than the loop encoder.
 */
final class SpunClassFile {
  static final String NAME = "io/kavro/serde/SpunWriter$Spun";
  private static final String ENCODER = "io/kavro/serde/CompiledEncoder";
  private static final String ENCODERS = "[L" + ENCODER + ";";
  private static final String ENCODE = "(Ljava/lang/Object;Lio/kavro/serde/ByteSink;)V";
  /**
   * The longest {@code encode} spun, in bytes of code: HotSpot's {@code HugeMethodLimit}, past which a method is
   * never compiled (a leaf field takes 11 bytes, any other 21 or 24: some 300 to 700 fields).
   */
  static final int MAX_CODE_BYTES = 8_000;

  private final ByteArrayOutputStream pool = new ByteArrayOutputStream();
  private final DataOutputStream poolOut = new DataOutputStream(pool);
  private final Map<String, Integer> entries = new HashMap<>();
  private int poolCount = 1;

  private SpunClassFile() {
  }

  /**
   * The class file of the writer of {@code recordClass} (a binary name with dots): for field {@code i} of the
   * schema, in order, {@code get(positions[i])}, then the static {@code (Object, ByteSink)} method of
   * {@link SpunWriter} named {@code leaves[i]}, or, where that is {@code null}, {@code encoders[i]} (the value
   * checked by {@code SpunWriter.nonNull} first unless {@code nullable[i]}); {@code null} when its {@code encode}
   * would be longer than {@link #MAX_CODE_BYTES}.
   */
  static byte[] of(String recordClass, int[] positions, List<String> leaves, boolean[] nullable) {
    return new SpunClassFile().write(recordClass.replace('.', '/'), positions, leaves, nullable);
  }

  private byte[] write(String record, int[] positions, List<String> leaves, boolean[] nullable) {
    int thisClass = classRef(NAME);
    int superClass = classRef("java/lang/Object");
    int encoderClass = classRef(ENCODER);
    int encodersField = ref(9, NAME, "encoders", ENCODERS);
    int objectInit = ref(10, "java/lang/Object", "<init>", "()V");
    int recordClass = classRef(record);
    int get = ref(10, record, "get", "(I)Ljava/lang/Object;");
    int encode = ref(11, ENCODER, "encode", ENCODE);
    int code = utf8("Code");

    ByteArrayOutputStream init = new ByteArrayOutputStream();
    init.write(0x2a); // aload_0
    op2(init, 0xb7, objectInit); // invokespecial Object.<init>
    init.write(0x2a);
    init.write(0x2b); // aload_1
    op2(init, 0xb5, encodersField); // putfield encoders
    init.write(0xb1); // return

    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(0x2b); // aload_1
    op2(body, 0xc0, recordClass); // checkcast
    body.write(0x4e); // astore_3
    for (int i = 0; i < positions.length; i++) {
      String leaf = leaves.get(i);
      if (leaf == null) {
        body.write(0x2a); // aload_0
        op2(body, 0xb4, encodersField); // getfield encoders
        op2(body, 0x11, i); // sipush i
        body.write(0x32); // aaload
      }
      body.write(0x2d); // aload_3
      op2(body, 0x11, positions[i]); // sipush pos
      op2(body, 0xb6, get); // invokevirtual get(I)
      if (leaf == null && !nullable[i]) {
        op2(body, 0xb8, ref(10, "io/kavro/serde/SpunWriter", "nonNull", "(Ljava/lang/Object;)Ljava/lang/Object;"));
      }
      body.write(0x2c); // aload_2
      if (leaf == null) {
        op2(body, 0xb9, encode); // invokeinterface encode, 3 argument slots
        body.write(3);
        body.write(0);
      } else {
        op2(body, 0xb8, ref(10, "io/kavro/serde/SpunWriter", leaf, ENCODE)); // invokestatic the leaf
      }
    }
    body.write(0xb1); // return
    if (body.size() > MAX_CODE_BYTES) {
      return null;
    }

    int initName = utf8("<init>");
    int initType = utf8("(" + ENCODERS + ")V");
    int encodeName = utf8("encode");
    int encodeType = utf8(ENCODE);
    int fieldName = utf8("encoders");
    int fieldType = utf8(ENCODERS);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(0xCAFEBABE);
      out.writeShort(0);
      out.writeShort(61);
      out.writeShort(poolCount);
      poolOut.flush();
      pool.writeTo(out);
      out.writeShort(0x0030); // ACC_FINAL | ACC_SUPER
      out.writeShort(thisClass);
      out.writeShort(superClass);
      out.writeShort(1);
      out.writeShort(encoderClass);
      out.writeShort(1); // one field
      out.writeShort(0x0012); // private final
      out.writeShort(fieldName);
      out.writeShort(fieldType);
      out.writeShort(0);
      out.writeShort(2); // two methods
      method(out, initName, initType, code, 2, 2, init.toByteArray());
      method(out, encodeName, encodeType, code, 4, 4, body.toByteArray());
      out.writeShort(0); // no class attributes
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
  }

  private static void method(DataOutputStream out, int name, int type, int codeName, int maxStack, int maxLocals,
      byte[] code) throws IOException {
    out.writeShort(0x0001); // public
    out.writeShort(name);
    out.writeShort(type);
    out.writeShort(1); // one attribute: Code
    out.writeShort(codeName);
    out.writeInt(12 + code.length);
    out.writeShort(maxStack);
    out.writeShort(maxLocals);
    out.writeInt(code.length);
    out.write(code);
    out.writeShort(0); // no exception table
    out.writeShort(0); // no attributes: no StackMapTable (see the class's javadoc)
  }

  private static void op2(ByteArrayOutputStream out, int opcode, int operand) {
    out.write(opcode);
    out.write(operand >>> 8);
    out.write(operand);
  }

  private int utf8(String text) {
    return entry("U" + text, out -> {
      out.writeByte(1);
      out.writeUTF(text);
    });
  }

  private int classRef(String internalName) {
    int name = utf8(internalName);
    return entry("C" + internalName, out -> {
      out.writeByte(7);
      out.writeShort(name);
    });
  }

  /** A field (tag 9), method (10) or interface method (11) reference. */
  private int ref(int tag, String owner, String name, String descriptor) {
    int ownerClass = classRef(owner);
    int nameIndex = utf8(name);
    int typeIndex = utf8(descriptor);
    int nameAndType = entry("N" + name + ' ' + descriptor, out -> {
      out.writeByte(12);
      out.writeShort(nameIndex);
      out.writeShort(typeIndex);
    });
    return entry("R" + tag + owner + '.' + name + descriptor, out -> {
      out.writeByte(tag);
      out.writeShort(ownerClass);
      out.writeShort(nameAndType);
    });
  }

  private interface Entry {
    void write(DataOutputStream out) throws IOException;
  }

  private int entry(String key, Entry entry) {
    Integer index = entries.get(key);
    if (index != null) {
      return index;
    }
    try {
      entry.write(poolOut);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    entries.put(key, poolCount);
    return poolCount++;
  }
}
