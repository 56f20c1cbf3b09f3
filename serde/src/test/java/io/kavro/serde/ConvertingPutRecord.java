package io.kavro.serde;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * For {@link GeneratedSettersTest}: a record whose {@code put} turns any string into a {@code String} (as a custom
 * template's may), while its setter stores what it is given: the setter must not be taken, or a read would hold
 * a {@code Utf8} where Avro's reader holds a {@code String}.
 */
public class ConvertingPutRecord extends SpecificRecordBase {
  public static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\","
      + "\"name\":\"ConvertingPutRecord\",\"namespace\":\"io.kavro.serde\","
      + "\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}");

  private CharSequence name;

  public ConvertingPutRecord() {
  }

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public Object get(int field) {
    if (field != 0) {
      throw new IndexOutOfBoundsException("no field " + field);
    }
    return name;
  }

  @Override
  public void put(int field, Object value) {
    if (field != 0) {
      throw new IndexOutOfBoundsException("no field " + field);
    }
    name = value == null ? null : value.toString();
  }

  public void setName(CharSequence value) {
    name = value;
  }
}
