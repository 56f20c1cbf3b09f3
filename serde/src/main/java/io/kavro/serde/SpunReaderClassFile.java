package io.kavro.serde;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.util.List;

/**
 * The bytes of the class file of a {@link SpunReader}: a final class {@code io.kavro.serde.SpunReader$Spun}
 * implementing {@link CompiledDecoder}, with three fields set by its only constructor ({@code CompiledDecoder[]
 * decoders}, {@code GenericData.InstanceSupplier supplier}, {@code Schema schema}) and a {@code decode} that reads
 * one record of one shape, straight-line:
 *
 * <pre>
 *   aload_0; getfield supplier; aconst_null; aload_0; getfield schema; invokeinterface newInstance;
 *   checkcast IndexedRecord; astore_2
 *   per writer field i, stored:  aload_2; sipush pos; [the value]; invokeinterface IndexedRecord.put
 *                    skipped:    [the value]; pop
 *     the value of a leaf:       aload_1; invokestatic LeafDecoders.leaf   (aconst_null for a null)
 *     of any other decoder:      aload_0; getfield decoders; sipush i; aaload; aload_1; invokeinterface decode
 *   per default d, as a stored field of decoder (writer fields + d)
 *   aload_2; areturn
 * </pre>
 *
 * <p>A reader of one generated class's records may store a string field through the class's setter instead
 * ({@code aload_2; checkcast TheClass; astore_3} once, then {@code aload_3; [the value]; checkcast TheType;
 * invokevirtual TheClass.setField}): that class names the generated class, and is that class's alone.
 *
 * <p>Without setters the class names no schema's own class: the record is made by the supplier and stored through
 * {@code IndexedRecord}, so one class reads every record schema of one shape (see {@link SpunReader}). No
 * branch, no switch and no handler: no {@code StackMapTable} is needed (see {@link SpunClassFile}). A checked
 * exception a decoder throws goes through: the JVM checks none.
 */
final class SpunReaderClassFile {
  static final String NAME = "io/kavro/serde/SpunReader$Spun";
  private static final String DECODER = "io/kavro/serde/CompiledDecoder";
  private static final String DECODERS = "[L" + DECODER + ";";
  private static final String IN = "Lio/kavro/serde/BoundedBinaryDecoder;";
  private static final String DECODE = "(" + IN + ")Ljava/lang/Object;";
  private static final String SUPPLIER = "org/apache/avro/generic/GenericData$InstanceSupplier";
  private static final String SCHEMA = "Lorg/apache/avro/Schema;";
  private static final String INIT = "(" + DECODERS + "L" + SUPPLIER + ";" + SCHEMA + ")V";
  private static final String RECORD = "org/apache/avro/generic/IndexedRecord";

  private SpunReaderClassFile() {
  }

  /**
   * The class file of the reader of {@code positions.length} writer fields and {@code defaults.length} defaults:
   * writer field {@code i} read by the static method of {@link LeafDecoders} named {@code leaves[i]} (or, where that
   * is {@code null}, by {@code decoders[i]}) and stored at {@code positions[i]} (skipped where negative), then
   * default {@code d} read by {@code decoders[positions.length + d]} and stored at {@code defaults[d]};
   * {@code null} when its {@code decode} would be longer than {@link ClassFileWriter#MAX_CODE_BYTES}.
   */
  static byte[] of(int[] positions, List<String> leaves, int[] defaults) {
    return of(positions, leaves, defaults, null, null);
  }

  /**
   * As {@link #of(int[], List, int[])}, for records of generated class {@code owner} (a binary name with dots),
   * but writer field {@code i} stored by {@code setters.get(i)} where that is not {@code null}: a public setter of
   * {@code owner} of one parameter, which the value is cast to ({@code aload_3}, the record cast to
   * {@code owner} once; the value; {@code checkcast}; {@code invokevirtual} the setter).
   */
  static byte[] of(int[] positions, List<String> leaves, int[] defaults, String owner, List<Method> setters) {
    ClassFileWriter file = new ClassFileWriter();
    int decodersField = file.ref(9, NAME, "decoders", DECODERS);
    int supplierField = file.ref(9, NAME, "supplier", "L" + SUPPLIER + ";");
    int schemaField = file.ref(9, NAME, "schema", SCHEMA);
    int newInstance = file.ref(11, SUPPLIER, "newInstance", "(Ljava/lang/Object;" + SCHEMA + ")Ljava/lang/Object;");
    int recordClass = file.classRef(RECORD);
    int put = file.ref(11, RECORD, "put", "(ILjava/lang/Object;)V");
    int decode = file.ref(11, DECODER, "decode", DECODE);

    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(0x2a); // aload_0
    ClassFileWriter.op2(body, 0xb4, supplierField); // getfield supplier
    body.write(0x01); // aconst_null
    body.write(0x2a); // aload_0
    ClassFileWriter.op2(body, 0xb4, schemaField); // getfield schema
    ClassFileWriter.op2(body, 0xb9, newInstance); // invokeinterface newInstance, 3 argument slots
    body.write(3);
    body.write(0);
    ClassFileWriter.op2(body, 0xc0, recordClass); // checkcast IndexedRecord
    body.write(0x4d); // astore_2
    String ownerClass = owner == null ? null : owner.replace('.', '/');
    if (ownerClass != null) {
      body.write(0x2c); // aload_2
      ClassFileWriter.op2(body, 0xc0, file.classRef(ownerClass)); // checkcast the generated class
      body.write(0x4e); // astore_3
    }
    int count = positions.length + defaults.length;
    for (int i = 0; i < count; i++) {
      int position = i < positions.length ? positions[i] : defaults[i - positions.length];
      String leaf = i < positions.length ? leaves.get(i) : null;
      Method setter = setters != null && i < positions.length ? setters.get(i) : null;
      if (setter != null) {
        body.write(0x2d); // aload_3
      } else if (position >= 0) {
        body.write(0x2c); // aload_2
        ClassFileWriter.op2(body, 0x11, position); // sipush pos
      }
      if (SpunReader.NULL_LEAF.equals(leaf)) {
        body.write(0x01); // aconst_null
      } else if (leaf != null) {
        body.write(0x2b); // aload_1
        // invokestatic the leaf
        ClassFileWriter.op2(body, 0xb8, file.ref(10, "io/kavro/serde/LeafDecoders", leaf, DECODE));
      } else {
        body.write(0x2a); // aload_0
        ClassFileWriter.op2(body, 0xb4, decodersField); // getfield decoders
        ClassFileWriter.op2(body, 0x11, i); // sipush i
        body.write(0x32); // aaload
        body.write(0x2b); // aload_1
        ClassFileWriter.op2(body, 0xb9, decode); // invokeinterface decode, 2 argument slots
        body.write(2);
        body.write(0);
      }
      if (setter != null) {
        String parameter = setter.getParameterTypes()[0].getName().replace('.', '/');
        ClassFileWriter.op2(body, 0xc0, file.classRef(parameter)); // checkcast the setter's parameter
        ClassFileWriter.op2(body, 0xb6, file.ref(10, ownerClass, setter.getName(), "(L" + parameter + ";)V"));
      } else if (position >= 0) {
        ClassFileWriter.op2(body, 0xb9, put); // invokeinterface put, 3 argument slots
        body.write(3);
        body.write(0);
      } else {
        body.write(0x57); // pop
      }
    }
    body.write(0x2c); // aload_2
    body.write(0xb0); // areturn
    if (body.size() > ClassFileWriter.MAX_CODE_BYTES) {
      return null;
    }
    return file.write(NAME, DECODER, List.of(new ClassFileWriter.Field("decoders", DECODERS),
        new ClassFileWriter.Field("supplier", "L" + SUPPLIER + ";"), new ClassFileWriter.Field("schema", SCHEMA)),
        List.of(file.constructor(INIT, decodersField, supplierField, schemaField),
            new ClassFileWriter.Method("decode", DECODE, 4, ownerClass == null ? 3 : 4, body.toByteArray())));
  }
}
