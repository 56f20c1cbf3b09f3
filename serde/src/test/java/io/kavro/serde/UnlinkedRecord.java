package io.kavro.serde;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * A class shaped as avro-maven-plugin generates one, whose {@code put} uses a class that fails to initialize: the
 * deployment fault of a generated class compiled against a library missing at run time. For tests only.
 */
public class UnlinkedRecord extends SpecificRecordBase {
  public static final Schema SCHEMA$ = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"UnlinkedRecord\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":[{\"name\":\"count\",\"type\":\"int\"}]}");

  private int count;

  @Override
  public Schema getSchema() {
    return SCHEMA$;
  }

  @Override
  public Object get(int field) {
    if (field != 0) {
      throw new IndexOutOfBoundsException("Invalid index: " + field);
    }
    return count;
  }

  @Override
  public void put(int field, Object value) {
    if (field != 0) {
      throw new IndexOutOfBoundsException("Invalid index: " + field);
    }
    count = Unlinkable.check((Integer) value);
  }

  /** A class whose initializer fails: its first use throws an ExceptionInInitializerError, then NoClassDefFound. */
  static final class Unlinkable {
    static final int BOUND = fail();

    private Unlinkable() {}

    private static int fail() {
      throw new IllegalStateException("a library missing at run time");
    }

    static int check(int value) {
      return Math.min(value, BOUND);
    }
  }
}
