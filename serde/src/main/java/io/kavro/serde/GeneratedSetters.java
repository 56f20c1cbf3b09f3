package io.kavro.serde;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;

/**
 * The setters through which a {@link SpunReader} stores the string fields of a generated record class, instead of
 * {@code put(int, Object)}: a class of many fields has a {@code put} too large for the JIT to inline, so each field
 * read paid a call and its switch (81 string fields: most of what a read took beyond the objects themselves).
 *
 * <p>A setter is taken only when both hold:
 * <ul>
 *   <li>its code, as the class's class file holds it, is one store of its argument into a field of the class and
 *       nothing else ({@code aload_0; aload_1; putfield; return}); a class rewritten when loaded (an agent, an
 *       enhancer), or one a child-first loader defined from another file than its resource lookup finds, is taken as
 *       the file found says;</li>
 *   <li>on two records made as records are, the setter and {@code put} given the same value (and a null, for a
 *       field that may read one) leave them alike: {@code get} gives that very value at the field's position in
 *       both, and every other field the same (so a {@code put} that converts what it is given, as a custom
 *       template's may, keeps {@code put}); state {@code get} cannot show is not compared.</li>
 * </ul>
 * Its name is the one avro-maven-plugin gives ({@code set} and the field's name in camel case); any field without
 * such a setter is stored by {@code put}. Only string fields: their values are objects a setter takes as they are.
 */
final class GeneratedSetters {
  /** Per class, {@link #singleStores}: its class file read once. */
  private static final ClassValue<Set<String>> STORES = new ClassValue<>() {
    @Override
    protected Set<String> computeValue(Class<?> type) {
      return singleStores(type);
    }
  };

  private GeneratedSetters() {
  }

  /**
   * Per writer field, the setter that stores it in a record of {@code type} (made by {@code supplier}, of
   * {@code schema}), or {@code null} where {@code put} does; {@code null} if no field has one.
   */
  static List<Method> of(Class<?> type, GenericData.InstanceSupplier supplier, Schema schema, int[] kinds,
      int[] positions) {
    if (!Modifier.isPublic(type.getModifiers()) || !JavaTypes.visible(type)) {
      return null;
    }
    List<Method> setters = new ArrayList<>(kinds.length);
    boolean any = false;
    for (int i = 0; i < kinds.length; i++) {
      Class<?> value = LeafDecoders.stringLeafType(kinds[i]);
      Method setter = value == null || positions[i] < 0 ? null
          : setter(type, schema.getFields().get(positions[i]).name(), value);
      if (setter != null) {
        if (!STORES.get(type).contains(setter.getName() + descriptor(setter))
            || !storesAsPut(setter, supplier, schema, positions[i], value, LeafDecoders.readsNull(kinds[i]))) {
          setter = null;
        }
      }
      setters.add(setter);
      any |= setter != null;
    }
    return any ? setters : null;
  }

  /** The public setter {@code set<Name>} declared by {@code type} that takes a {@code value}, or {@code null}. */
  private static Method setter(Class<?> type, String field, Class<?> value) {
    String name = "set" + camelCase(field);
    for (Method method : type.getDeclaredMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == 1 && method.getReturnType() == void.class
          && Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
          && !method.isSynthetic() && method.getParameterTypes()[0].isAssignableFrom(value)) {
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

  private static String descriptor(Method method) {
    return MethodType.methodType(method.getReturnType(), method.getParameterTypes()).toMethodDescriptorString();
  }

  /**
   * The methods of {@code type}'s class file (name and descriptor) whose code stores their one argument in a field
   * of {@code type} and does nothing else: {@code aload_0; aload_1; putfield type.f; return}. Empty where the file
   * cannot be read or is not as expected.
   */
  static Set<String> singleStores(Class<?> type) {
    String file = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
    Set<String> stores = new HashSet<>();
    try (InputStream in = type.getResourceAsStream(file)) {
      if (in == null) {
        return Set.of();
      }
      DataInputStream data = new DataInputStream(new BufferedInputStream(in));
      if (data.readInt() != 0xCAFEBABE) {
        return Set.of();
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
            return Set.of(); // a tag this reader does not know
          }
        }
      }
      data.readUnsignedShort(); // access
      String self = className(pool, data.readUnsignedShort());
      if (!type.getName().replace('.', '/').equals(self)) {
        return Set.of();
      }
      data.readUnsignedShort(); // super
      data.skipBytes(2 * data.readUnsignedShort()); // interfaces
      for (int f = data.readUnsignedShort(); f > 0; f--) { // fields
        data.skipBytes(6);
        for (int a = data.readUnsignedShort(); a > 0; a--) {
          data.skipBytes(2);
          data.skipBytes(data.readInt());
        }
      }
      for (int m = data.readUnsignedShort(); m > 0; m--) {
        data.readUnsignedShort(); // access
        String name = (String) pool[data.readUnsignedShort()];
        String descriptor = (String) pool[data.readUnsignedShort()];
        for (int a = data.readUnsignedShort(); a > 0; a--) {
          String attribute = (String) pool[data.readUnsignedShort()];
          int length = data.readInt();
          if (!"Code".equals(attribute)) {
            data.skipBytes(length);
            continue;
          }
          data.skipBytes(4); // max stack and locals
          int codeLength = data.readInt();
          if (codeLength != 6) { // never allocated: a length read from the file may be anything
            data.skipBytes(length - 8);
            continue;
          }
          byte[] code = new byte[6];
          data.readFully(code);
          data.skipBytes(length - 14); // the handler table and the code's own attributes (line numbers...)
          if (code[0] == 0x2a && code[1] == 0x2b && (code[2] & 0xFF) == 0xb5 && code[5] == (byte) 0xb1
              && self.equals(className(pool, ((int[]) pool[(code[3] & 0xFF) << 8 | code[4] & 0xFF])[0]))) {
            stores.add(name + descriptor);
          }
        }
      }
      return Set.copyOf(stores);
    } catch (IOException | RuntimeException e) {
      return Set.of(); // unreadable or not as expected: put stores every field
    }
  }

  private static String className(Object[] pool, int classEntry) {
    return (String) pool[((int[]) pool[classEntry])[0]];
  }

  /**
   * Whether {@code setter} and {@code put(position, v)}, given the same fresh value of class {@code value} on two
   * fresh records (and, where the field may read a null, a null on two more), leave them alike: {@code get(position)}
   * that very value in both, every other field of the record's own schema equal. State {@code get} cannot show (a
   * flag a {@code put} sets, a cached hash) is not compared.
   */
  private static boolean storesAsPut(Method setter, GenericData.InstanceSupplier supplier, Schema schema,
      int position, Class<?> value, boolean nullable) {
    // A new object, never an interned one: get(position) must give this very one back.
    Object probe = value == String.class ? new String("kavro's setter probe") : new Utf8("kavro's setter probe");
    return storesAsPut(setter, supplier, schema, position, probe) && (!nullable
        || storesAsPut(setter, supplier, schema, position, null));
  }

  private static boolean storesAsPut(Method setter, GenericData.InstanceSupplier supplier, Schema schema,
      int position, Object probe) {
    try {
      IndexedRecord set = (IndexedRecord) supplier.newInstance(null, schema);
      IndexedRecord put = (IndexedRecord) supplier.newInstance(null, schema);
      setter.invoke(set, probe);
      put.put(position, probe);
      if (set.get(position) != probe || put.get(position) != probe) {
        return false;
      }
      for (int i = 0; i < set.getSchema().getFields().size(); i++) {
        if (i != position && !Objects.equals(set.get(i), put.get(i))) {
          return false;
        }
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false; // a setter or a put that refuses a probe: put stores the field
    }
  }
}
