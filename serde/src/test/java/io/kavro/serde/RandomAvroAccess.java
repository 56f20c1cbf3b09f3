package io.kavro.serde;

import org.apache.avro.Schema;

/** {@link RandomAvro} for tests in other packages. */
public final class RandomAvroAccess {
  private final RandomAvro random;

  public RandomAvroAccess(long seed) {
    this.random = new RandomAvro(seed);
  }

  public Schema record(int depth) {
    return random.record(depth);
  }

  public Object datum(Schema schema) {
    return random.datum(schema);
  }
}
