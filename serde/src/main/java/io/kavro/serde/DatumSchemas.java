package io.kavro.serde;

import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.reflect.ReflectData;

/** Finds the Avro schema of a datum that the serializer is given. Thread-safe. */
final class DatumSchemas {
  private static final Schema STRING = Schema.create(Schema.Type.STRING);
  private static final Schema INT = Schema.create(Schema.Type.INT);
  private static final Schema LONG = Schema.create(Schema.Type.LONG);
  private static final Schema FLOAT = Schema.create(Schema.Type.FLOAT);
  private static final Schema DOUBLE = Schema.create(Schema.Type.DOUBLE);
  private static final Schema BOOLEAN = Schema.create(Schema.Type.BOOLEAN);
  private static final Schema BYTES = Schema.create(Schema.Type.BYTES);

  private final ReflectData reflect;

  /** @param reflect the model for plain classes, or {@code null} when reflection is off */
  DatumSchemas(ReflectData reflect) {
    this.reflect = reflect;
  }

  /**
   * The datum's schema: its own for Avro containers (records, enums, fixed, arrays), the primitive schema
   * for boxed primitives, strings and bytes, or the reflected one for other classes when reflection is on.
   *
   * @throws IllegalArgumentException naming the class when the datum has no Avro schema
   */
  Schema schemaOf(Object datum) {
    if (datum instanceof GenericContainer container) {
      return container.getSchema();
    }
    if (datum instanceof CharSequence) {
      return STRING;
    }
    if (datum instanceof Integer) {
      return INT;
    }
    if (datum instanceof Long) {
      return LONG;
    }
    if (datum instanceof byte[] || datum instanceof ByteBuffer) {
      return BYTES;
    }
    if (datum instanceof Boolean) {
      return BOOLEAN;
    }
    if (datum instanceof Double) {
      return DOUBLE;
    }
    if (datum instanceof Float) {
      return FLOAT;
    }
    if (reflect != null) {
      return reflect.getSchema(datum.getClass());
    }
    throw new IllegalArgumentException("Kavro cannot serialize a " + datum.getClass().getTypeName()
        + ": expected a GenericRecord, a generated SpecificRecord, an Avro enum, fixed or array, a String, "
        + "Integer, Long, Float, Double, Boolean, byte[] or ByteBuffer; set schema.reflection=true to "
        + "serialize plain Java classes and records");
  }

  /** Whether the datum is a plain class that only reflection handles. */
  static boolean needsReflection(Object datum) {
    return !(datum instanceof GenericContainer || datum instanceof CharSequence || datum instanceof Number
        || datum instanceof Boolean || datum instanceof byte[] || datum instanceof ByteBuffer);
  }
}
