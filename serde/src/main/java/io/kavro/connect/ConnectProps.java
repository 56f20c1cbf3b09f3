package io.kavro.connect;

/**
 * Names that carry what one data model has and the other lacks, so that Avro to Connect to Avro (and back)
 * gives the same schema.
 */
final class ConnectProps {
  private ConnectProps() {}

  /** Connect schema parameter: which Avro type a Connect schema stands for ("enum", "fixed", "union"). */
  static final String AVRO_TYPE = "io.kavro.connect.avro.type";
  /** Connect schema parameter: the symbols of an Avro enum, comma-separated. */
  static final String ENUM_SYMBOLS = "io.kavro.connect.avro.enum.symbols";
  /** Connect schema parameter: the size of an Avro fixed. */
  static final String FIXED_SIZE = "io.kavro.connect.avro.fixed.size";
  /** Connect schema parameter: the full name of an Avro fixed (a Connect Decimal keeps its own name). */
  static final String FIXED_NAME = "io.kavro.connect.avro.fixed.name";
  /** Connect schema parameter: an Avro logical type that Connect has no type for (uuid, timestamp-micros...). */
  static final String LOGICAL_TYPE = "io.kavro.connect.avro.logical.type";
  /** Connect schema parameter: the doc of the Avro field that holds this schema. */
  static final String FIELD_DOC = "io.kavro.connect.avro.field.doc";
  /** Connect schema parameter of a Decimal: its precision (the name Confluent uses too). */
  static final String DECIMAL_PRECISION = "connect.decimal.precision";
  /** Precision given to Connect decimals that do not state one. */
  static final int DEFAULT_DECIMAL_PRECISION = 64;

  /** Avro property: the Connect type of an Avro int that was a Connect INT8 or INT16. */
  static final String CONNECT_TYPE = "connect.type";
  /** Avro property: the name of a Connect schema that Avro cannot name (a primitive). */
  static final String CONNECT_NAME = "connect.name";
  /** Avro property: the Connect version. */
  static final String CONNECT_VERSION = "connect.version";
  /** Avro property: Connect parameters that are not ours, as a map. */
  static final String CONNECT_PARAMETERS = "connect.parameters";
  /** Avro property of a record that is an entry of a Connect map with non-string keys. */
  static final String MAP_ENTRY = "io.kavro.connect.map.entry";

  /** Namespace of records that Connect did not name. */
  static final String DEFAULT_NAMESPACE = "io.kavro.connect";
  /** Name of the top-level record when Connect did not name it. */
  static final String DEFAULT_NAME = "ConnectDefault";
}
