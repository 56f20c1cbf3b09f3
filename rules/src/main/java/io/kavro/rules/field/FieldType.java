package io.kavro.rules.field;

import org.apache.avro.Schema;

/**
 * The kind of a field's value as field rules see it: Confluent's {@code RuleContext.Type}, whose names CEL_FIELD
 * rules compare {@code typeName} with. A union of two branches, one of them null, is {@link #NULLABLE}; any other
 * union is {@link #COMBINED}.
 */
public enum FieldType {
  /** An Avro record. */
  RECORD(false),
  /** An Avro enum. */
  ENUM(false),
  /** An Avro array. */
  ARRAY(false),
  /** An Avro map. */
  MAP(false),
  /** A union other than {@code [null, X]}. */
  COMBINED(false),
  /** A union of null and one other branch. */
  NULLABLE(false),
  /** An Avro fixed. */
  FIXED(false),
  /** A string. */
  STRING(true),
  /** Bytes. */
  BYTES(true),
  /** A 32-bit integer. */
  INT(true),
  /** A 64-bit integer. */
  LONG(true),
  /** A 32-bit float. */
  FLOAT(true),
  /** A 64-bit float. */
  DOUBLE(true),
  /** A boolean. */
  BOOLEAN(true),
  /** Null. */
  NULL(true);

  private final boolean primitive;

  FieldType(boolean primitive) {
    this.primitive = primitive;
  }

  /**
   * Whether the type is one of Confluent's primitives (STRING to NULL). ENUM and FIXED are not, though the walk
   * hands their values to transforms as it does primitives.
   */
  public boolean isPrimitive() {
    return primitive;
  }

  /** The type of values of {@code schema}. */
  public static FieldType of(Schema schema) {
    return switch (schema.getType()) {
      case RECORD -> RECORD;
      case ENUM -> ENUM;
      case ARRAY -> ARRAY;
      case MAP -> MAP;
      case UNION -> isNullable(schema) ? NULLABLE : COMBINED;
      case FIXED -> FIXED;
      case STRING -> STRING;
      case BYTES -> BYTES;
      case INT -> INT;
      case LONG -> LONG;
      case FLOAT -> FLOAT;
      case DOUBLE -> DOUBLE;
      case BOOLEAN -> BOOLEAN;
      case NULL -> NULL;
    };
  }

  private static boolean isNullable(Schema union) {
    return union.getTypes().size() == 2
        && union.getTypes().stream().anyMatch(branch -> branch.getType() == Schema.Type.NULL);
  }
}
