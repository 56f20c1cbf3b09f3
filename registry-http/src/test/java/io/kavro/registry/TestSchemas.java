package io.kavro.registry;

import org.apache.avro.Schema;

/** Schemas shared by the registry tests: a record, a compatible evolution and an incompatible one. */
public final class TestSchemas {
  private TestSchemas() {}

  /** {@code User} with a name. */
  public static final Schema USER_V1 = parse("""
      {"type":"record","name":"User","namespace":"io.kavro.test","fields":[
        {"name":"name","type":"string"}]}""");

  /** V1 plus an optional email with a default: backward and forward compatible. */
  public static final Schema USER_V2 = parse("""
      {"type":"record","name":"User","namespace":"io.kavro.test","fields":[
        {"name":"name","type":"string"},
        {"name":"email","type":["null","string"],"default":null}]}""");

  /** V2 plus a required age without default: the new schema cannot read V2 data (not backward). */
  public static final Schema USER_V3_INCOMPATIBLE = parse("""
      {"type":"record","name":"User","namespace":"io.kavro.test","fields":[
        {"name":"name","type":"string"},
        {"name":"email","type":["null","string"],"default":null},
        {"name":"age","type":"int"}]}""");

  /** An unrelated record. */
  public static final Schema ORDER = parse("""
      {"type":"record","name":"Order","namespace":"io.kavro.test","fields":[
        {"name":"id","type":"long"},{"name":"amount","type":"double"}]}""");

  public static Schema parse(String json) {
    return new Schema.Parser().parse(json);
  }

  /** A distinct record schema per index, for tests that need many schemas. */
  public static Schema numbered(int i) {
    return parse("{\"type\":\"record\",\"name\":\"R" + i + "\",\"namespace\":\"io.kavro.test\",\"fields\":["
        + "{\"name\":\"f\",\"type\":\"string\"}]}");
  }
}
