package io.kavro.connect;

/**
 * The names Confluent's {@code AvroData} gives to what one data model has and the other lacks: Avro
 * properties on the schemas it writes, and Connect schema parameters on the schemas it reads. Kavro writes and
 * reads the same names, so that both converters produce the same schemas from the same data.
 */
final class ConnectProps {
  private ConnectProps() {}

  /** Namespace of everything Confluent's converter names. */
  static final String NAMESPACE = "io.confluent.connect.avro";
  /** Name of a struct that Connect did not name; the second is {@code ConnectDefault2}, and so on. */
  static final String DEFAULT_SCHEMA_NAME = "ConnectDefault";
  static final String DEFAULT_SCHEMA_FULL_NAME = NAMESPACE + "." + DEFAULT_SCHEMA_NAME;
  /** Record of a map with non-string keys: an array of these, with fields {@code key} and {@code value}. */
  static final String MAP_ENTRY_TYPE_NAME = "MapEntry";
  static final String KEY_FIELD = "key";
  static final String VALUE_FIELD = "value";

  // Avro properties written by connect.meta.data=true.
  static final String CONNECT_NAME_PROP = "connect.name";
  static final String CONNECT_DOC_PROP = "connect.doc";
  static final String CONNECT_RECORD_DOC_PROP = "connect.record.doc";
  static final String CONNECT_ENUM_DOC_PROP = "connect.enum.doc";
  static final String CONNECT_VERSION_PROP = "connect.version";
  static final String CONNECT_DEFAULT_VALUE_PROP = "connect.default";
  static final String CONNECT_PARAMETERS_PROP = "connect.parameters";
  static final String CONNECT_INTERNAL_TYPE_NAME = "connect.internal.type";
  /** Avro property of an int that was a Connect INT8 or INT16: {@code int8} or {@code int16}. */
  static final String CONNECT_TYPE_PROP = "connect.type";
  static final String CONNECT_TYPE_INT8 = "int8";
  static final String CONNECT_TYPE_INT16 = "int16";

  // Connect parameters.
  static final String AVRO_RECORD_DOC_PROP = NAMESPACE + ".record.doc";
  static final String AVRO_ENUM_DOC_PREFIX_PROP = NAMESPACE + ".enum.doc.";
  static final String AVRO_FIELD_DOC_PREFIX_PROP = NAMESPACE + ".field.doc.";
  static final String AVRO_FIELD_DEFAULT_FLAG_PROP = NAMESPACE + ".field.default";
  static final String AVRO_ENUM_DEFAULT_PREFIX_PROP = NAMESPACE + ".enum.default.";
  /** Name of the Connect struct that stands for an Avro union (one optional field per branch). */
  static final String AVRO_TYPE_UNION = NAMESPACE + ".Union";
  /** Parameter of a Connect string that was an Avro enum: its full name; {@code .<symbol>} lists each symbol. */
  static final String AVRO_TYPE_ENUM = NAMESPACE + ".Enum";
  /** Name of the Avro record that carries schemaless Connect data. */
  static final String AVRO_TYPE_ANYTHING = NAMESPACE + ".Anything";
  /** Parameter of a Connect bytes that was an Avro fixed: its size. */
  static final String CONNECT_AVRO_FIXED_SIZE_PROP = "connect.fixed.size";
  /** Parameter of a Connect Decimal: its precision, when not the default. */
  static final String CONNECT_AVRO_DECIMAL_PRECISION_PROP = "connect.decimal.precision";
  static final int CONNECT_AVRO_DECIMAL_PRECISION_DEFAULT = 64;
  /** Schema parameters that start with this are copied to Avro properties as they are, and back. */
  static final String AVRO_PROP = "avro";

  // generalized.sum.type.support: the names of Confluent's format-neutral unions and enums.
  static final String GENERALIZED_TYPE_UNION = "org.apache.kafka.connect.data.Union";
  static final String GENERALIZED_TYPE_ENUM = "org.apache.kafka.connect.data.Enum";
  static final String GENERALIZED_TYPE_UNION_PREFIX = "connect_union_";
  static final String GENERALIZED_TYPE_UNION_FIELD_PREFIX = GENERALIZED_TYPE_UNION_PREFIX + "field_";

  /**
   * Kavro's own parameter, written only with {@code enhanced.avro.schema.support=true}: an Avro logical type
   * that Connect has no type for ({@code uuid}, {@code timestamp-micros}...), so that it comes back.
   */
  static final String KAVRO_LOGICAL_TYPE = "io.kavro.connect.avro.logical.type";
  /**
   * Kavro's own parameter, written only with {@code enhanced.avro.schema.support=true}: the full name of an Avro
   * fixed that holds a decimal, which Confluent's converter replaces with the Connect Decimal's name.
   */
  static final String KAVRO_FIXED_NAME = "io.kavro.connect.avro.fixed.name";
}
