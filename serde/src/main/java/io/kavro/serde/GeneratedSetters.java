package io.kavro.serde;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;

/**
 * The setters through which a {@link SpunReader} stores the string fields of a generated record class, instead of
 * {@code put(int, Object)}: a class of many fields has a {@code put} too large for the JIT to inline, so each field
 * read paid a call and its switch (81 string fields: most of what a read took beyond the objects themselves).
 *
 * <p>A setter is taken only when its code is one store of its argument into a field of the class and nothing else
 * (read from the class file), and it is shown, on an instance made as records are, to store where {@code put}
 * does: the value set is the one {@code get} then gives at the field's position (the same object), and no other
 * field changes. Its name is the one avro-maven-plugin gives ({@code set} and the field's name in
 * camel case); any field without such a setter (another name, a template's setter that converts, a field of
 * another kind) is stored by {@code put}. Only string fields: their values are objects a setter takes as they are.
 */
final class GeneratedSetters {
  private GeneratedSetters() {
  }

  /**
   * Per writer field, the setter that stores it in a record of {@code type} (made by {@code supplier}, of
   * {@code schema}), or {@code null} where {@code put} does; {@code null} if no field has one.
   */
  static List<Method> of(Class<?> type, GenericData.InstanceSupplier supplier, Schema schema, int[] kinds,
      int[] positions) {
    if (!Modifier.isPublic(type.getModifiers()) || !SpunWriter.visible(type)) {
      return null;
    }
    List<Method> setters = new ArrayList<>(kinds.length);
    boolean any = false;
    for (int i = 0; i < kinds.length; i++) {
      Class<?> value = LeafDecoders.stringLeafType(kinds[i]);
      Method setter = value == null || positions[i] < 0 ? null
          : setter(type, schema.getFields().get(positions[i]).name(), value);
      if (setter != null && !(storesOneField(type, setter)
          && storesAsPut(setter, supplier, schema, positions[i], value))) {
        setter = null;
      }
      setters.add(setter);
      any |= setter != null;
    }
    return any ? setters : null;
  }

  /** The public setter {@code set<Name>} of {@code type} that takes a {@code value}, or {@code null}. */
  private static Method setter(Class<?> type, String field, Class<?> value) {
    String name = "set" + camelCase(field);
    for (Method method : type.getMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == 1 && method.getReturnType() == void.class
          && !Modifier.isStatic(method.getModifiers()) && method.getParameterTypes()[0].isAssignableFrom(value)
          && Modifier.isPublic(method.getDeclaringClass().getModifiers())) {
        return method;
      }
    }
    return null;
  }

  /** A field's name as avro-maven-plugin's accessors spell it: each part between underscores capitalized. */
  static String camelCase(String field) {
    StringBuilder name = new StringBuilder(field.length());
    boolean upper = true;
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '_') {
        upper = true;
      } else {
        name.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return name.toString();
  }

  /**
   * Whether {@code setter}'s code, as {@code type}'s class file holds it, stores its argument in one field of
   * {@code type} and does nothing else ({@code aload_0; aload_1; putfield type.f; return}): so it cannot change
   * any other field, whatever values they hold. A class file that cannot be read, or any other code: {@code false}.
   */
  static boolean storesOneField(Class<?> type, Method setter) {
    String file = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
    try (java.io.InputStream in = type.getResourceAsStream(file)) {
      if (in == null) {
        return false;
      }
      java.io.DataInputStream data = new java.io.DataInputStream(new java.io.BufferedInputStream(in));
      if (data.readInt() != 0xCAFEBABE) {
        return false;
      }
      data.readInt(); // the versions
      int count = data.readUnsignedShort();
      Object[] pool = new Object[count]; // a String for a Utf8 entry, an int[] of its indexes for a reference
      for (int i = 1; i < count; i++) {
        int tag = data.readUnsignedByte();
        switch (tag) {
          case 1 -> pool[i] = data.readUTF();
          case 7, 8, 16, 19, 20 -> pool[i] = new int[] {data.readUnsignedShort()};
          case 9, 10, 11, 12, 17, 18 -> pool[i] = new int[] {data.readUnsignedShort(), data.readUnsignedShort()};
          case 3, 4 -> data.readInt();
          case 5, 6 -> {
            data.readLong();
            i++; // a long or a double takes two entries
          }
          case 15 -> {
            data.readUnsignedByte();
            data.readUnsignedShort();
          }
          default -> {
            return false; // a tag this reader does not know
          }
        }
      }
      data.readUnsignedShort(); // access
      String self = className(pool, data.readUnsignedShort());
      data.readUnsignedShort(); // super
      data.skipBytes(2 * data.readUnsignedShort()); // interfaces
      for (int f = data.readUnsignedShort(); f > 0; f--) { // fields
        data.skipBytes(6);
        skipAttributes(data);
      }
      String descriptor = java.lang.invoke.MethodType.methodType(void.class, setter.getParameterTypes()[0])
          .toMethodDescriptorString();
      for (int m = data.readUnsignedShort(); m > 0; m--) {
        data.readUnsignedShort(); // access
        boolean target = setter.getName().equals(pool[data.readUnsignedShort()])
            & descriptor.equals(pool[data.readUnsignedShort()]);
        for (int a = data.readUnsignedShort(); a > 0; a--) {
          String name = (String) pool[data.readUnsignedShort()];
          int length = data.readInt();
          if (!target || !"Code".equals(name)) {
            data.skipBytes(length);
            continue;
          }
          data.skipBytes(4); // max stack and locals
          byte[] code = new byte[data.readInt()];
          data.readFully(code);
          return code.length == 6 && code[0] == 0x2a && code[1] == 0x2b && (code[2] & 0xFF) == 0xb5
              && code[5] == (byte) 0xb1 && type.getName().replace('.', '/').equals(self)
              && self.equals(className(pool, ((int[]) pool[(code[3] & 0xFF) << 8 | code[4] & 0xFF])[0]));
        }
      }
      return false;
    } catch (java.io.IOException | RuntimeException e) {
      return false; // unreadable or not as expected: put stores the field
    }
  }

  private static String className(Object[] pool, int classEntry) {
    return (String) pool[((int[]) pool[classEntry])[0]];
  }

  private static void skipAttributes(java.io.DataInputStream data) throws java.io.IOException {
    for (int a = data.readUnsignedShort(); a > 0; a--) {
      data.skipBytes(2);
      data.skipBytes(data.readInt());
    }
  }

  /**
   * Whether {@code setter}, given a fresh value of class {@code value}, leaves a fresh record exactly as
   * {@code put(position, thatValue)} would: {@code get(position)} the same object, every other field unchanged.
   */
  private static boolean storesAsPut(Method setter, GenericData.InstanceSupplier supplier, Schema schema,
      int position, Class<?> value) {
    try {
      IndexedRecord record = (IndexedRecord) supplier.newInstance(null, schema);
      int fields = schema.getFields().size();
      Object[] before = new Object[fields];
      for (int i = 0; i < fields; i++) {
        before[i] = record.get(i);
      }
      // A new object, never an interned one: get(position) must give this very one back.
      Object probe = value == String.class ? new String("kavro's setter probe") : new Utf8("kavro's setter probe");
      setter.invoke(record, probe);
      if (record.get(position) != probe) {
        return false;
      }
      for (int i = 0; i < fields; i++) {
        if (i != position && !Objects.equals(before[i], record.get(i))) {
          return false;
        }
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false; // a setter that refuses a probe or cannot be called: put stores the field
    }
  }
}
