package io.kavro.serde;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of one small class file (version 61, Java 17) of Kavro's package, as {@link SpunClassFile} and
 * {@link SpunReaderClassFile} spin them: a final class extending {@code Object}, implementing one interface, with
 * private final fields and public methods whose code its caller writes. No method holds a branch, a switch or an
 * exception handler, so none needs a {@code StackMapTable} (see {@link SpunClassFile}). One instance writes one
 * class: its constant pool fills as the code asks for entries, so every entry (the constructor's too) must be asked
 * for before {@link #write}.
 */
final class ClassFileWriter {
  /**
   * The longest method spun, in bytes of code: HotSpot's {@code HugeMethodLimit}, past which a method is never
   * compiled (interpreted, a spun class would be slower than the loop it replaces).
   */
  static final int MAX_CODE_BYTES = 8_000;

  private final ByteArrayOutputStream pool = new ByteArrayOutputStream();
  private final DataOutputStream poolOut = new DataOutputStream(pool);
  private final Map<String, Integer> entries = new HashMap<>();
  private int poolCount = 1;

  /** A private final field. */
  record Field(String name, String descriptor) {}

  /** A public method and its code. */
  record Method(String name, String descriptor, int maxStack, int maxLocals, byte[] code) {}

  /** The class file of final class {@code name} implementing {@code iface} (internal names), as described. */
  byte[] write(String name, String iface, List<Field> fields, List<Method> methods) {
    int thisClass = classRef(name);
    int superClass = classRef("java/lang/Object");
    int interfaceClass = classRef(iface);
    int code = utf8("Code");
    int[][] fieldEntries = new int[fields.size()][];
    for (int i = 0; i < fieldEntries.length; i++) {
      fieldEntries[i] = new int[] {utf8(fields.get(i).name()), utf8(fields.get(i).descriptor())};
    }
    int[][] methodEntries = new int[methods.size()][];
    for (int i = 0; i < methodEntries.length; i++) {
      methodEntries[i] = new int[] {utf8(methods.get(i).name()), utf8(methods.get(i).descriptor())};
    }
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
      out.writeShort(interfaceClass);
      out.writeShort(fields.size());
      for (int[] field : fieldEntries) {
        out.writeShort(0x0012); // private final
        out.writeShort(field[0]);
        out.writeShort(field[1]);
        out.writeShort(0);
      }
      out.writeShort(methods.size());
      for (int i = 0; i < methodEntries.length; i++) {
        Method method = methods.get(i);
        out.writeShort(0x0001); // public
        out.writeShort(methodEntries[i][0]);
        out.writeShort(methodEntries[i][1]);
        out.writeShort(1); // one attribute: Code
        out.writeShort(code);
        out.writeInt(12 + method.code().length);
        out.writeShort(method.maxStack());
        out.writeShort(method.maxLocals());
        out.writeInt(method.code().length);
        out.write(method.code());
        out.writeShort(0); // no exception table
        out.writeShort(0); // no attributes: no StackMapTable
      }
      out.writeShort(0); // no class attributes
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
  }

  /**
   * The constructor of type {@code descriptor} that calls {@code Object}'s, then stores each of its arguments (all
   * references, at most three) in the field of the same rank in {@code fields} (field references of this pool).
   */
  Method constructor(String descriptor, int... fields) {
    if (fields.length > 3) {
      throw new IllegalArgumentException("aload_1..aload_3 only: " + fields.length + " fields");
    }
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    code.write(0x2a); // aload_0
    op2(code, 0xb7, ref(10, "java/lang/Object", "<init>", "()V")); // invokespecial Object.<init>
    for (int i = 0; i < fields.length; i++) {
      code.write(0x2a); // aload_0
      code.write(0x2b + i); // aload_1, aload_2, aload_3
      op2(code, 0xb5, fields[i]); // putfield
    }
    code.write(0xb1); // return
    return new Method("<init>", descriptor, 2, fields.length + 1, code.toByteArray());
  }

  /** Writes {@code opcode} and its two-byte operand. */
  static void op2(ByteArrayOutputStream out, int opcode, int operand) {
    out.write(opcode);
    out.write(operand >>> 8);
    out.write(operand);
  }

  int utf8(String text) {
    return entry("U" + text, out -> {
      out.writeByte(1);
      out.writeUTF(text);
    });
  }

  int classRef(String internalName) {
    int name = utf8(internalName);
    return entry("C" + internalName, out -> {
      out.writeByte(7);
      out.writeShort(name);
    });
  }

  /** A field (tag 9), method (10) or interface method (11) reference. */
  int ref(int tag, String owner, String name, String descriptor) {
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
