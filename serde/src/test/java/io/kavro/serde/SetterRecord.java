package io.kavro.serde;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Shaped as avro-maven-plugin generates a record (public, a no-argument constructor, a field per member, setters
 * named after the fields), for {@link GeneratedSettersTest}: {@code setFirstName} stores as {@code put} does;
 * {@code setNick} stores another value than it is given (as a custom template's setter might); {@code setOther}
 * also clears {@code nick}; {@code count} is an int (no string leaf). Public: the spun reader calls its setters.
 */
public class SetterRecord extends SpecificRecordBase {
  public static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"SetterRecord\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":[{\"name\":\"first_name\",\"type\":\"string\"},"
      + "{\"name\":\"nick\",\"type\":[\"null\",\"string\"]},{\"name\":\"other\",\"type\":\"string\"},"
      + "{\"name\":\"count\",\"type\":\"int\"},{\"name\":\"alias\",\"type\":\"string\"},"
      + "{\"name\":\"middle\",\"type\":[\"null\",\"string\"]}]}");

  private CharSequence firstName;
  private CharSequence nick;
  private CharSequence other;
  private int count;
  private CharSequence alias;
  private CharSequence middle;

  public SetterRecord() {
  }

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public Object get(int field) {
    return switch (field) {
      case 0 -> firstName;
      case 1 -> nick;
      case 2 -> other;
      case 3 -> count;
      case 4 -> alias;
      case 5 -> middle;
      default -> throw new IndexOutOfBoundsException("no field " + field);
    };
  }

  @Override
  public void put(int field, Object value) {
    switch (field) {
      case 0 -> firstName = (CharSequence) value;
      case 1 -> nick = (CharSequence) value;
      case 2 -> other = (CharSequence) value;
      case 3 -> count = (Integer) value;
      case 4 -> alias = (CharSequence) value;
      case 5 -> middle = (CharSequence) value;
      default -> throw new IndexOutOfBoundsException("no field " + field);
    }
  }

  public void setFirstName(CharSequence value) {
    firstName = value;
  }

  public void setNick(CharSequence value) {
    nick = value == null ? null : "~" + value;
  }

  public void setOther(CharSequence value) {
    other = value;
    nick = null;
  }

  public void setAlias(CharSequence value) {
    nick = value; // one store, into another field than alias's
  }

  public void setMiddle(CharSequence value) {
    middle = value;
  }

  public void setCount(int value) {
    count = value;
  }
}
