package io.kavro.serde;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * For {@link GeneratedSettersTest}: a record whose {@code put} turns any string into a {@code String}, and a null
 * note into an empty one (as a custom template's may), while its setters store what they are given: neither setter
 * may be taken, or a read would hold a {@code Utf8}, or a null, where Avro's reader (which stores by {@code put})
 * holds a {@code String}, or an empty note.
 */
public class ConvertingPutRecord extends SpecificRecordBase {
  public static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\","
      + "\"name\":\"ConvertingPutRecord\",\"namespace\":\"io.kavro.serde\",\"fields\":["
      + "{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]}]}");

  private CharSequence name;
  private CharSequence note;

  public ConvertingPutRecord() {
  }

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public Object get(int field) {
    return switch (field) {
      case 0 -> name;
      case 1 -> note;
      default -> throw new IndexOutOfBoundsException("no field " + field);
    };
  }

  @Override
  public void put(int field, Object value) {
    switch (field) {
      case 0 -> name = value == null ? null : value.toString();
      case 1 -> note = value == null ? "" : (CharSequence) value;
      default -> throw new IndexOutOfBoundsException("no field " + field);
    }
  }

  public void setName(CharSequence value) {
    name = value;
  }

  public void setNote(CharSequence value) {
    note = value;
  }
}
