package io.kavro.compat.cell;

import java.util.HashMap;
import java.util.Map;

/** What this cell's JVM holds, as the matrix launched it. */
final class Cell {
  private Cell() {}

  static String kafka() {
    return property("kavro.cell.kafka");
  }

  static String avro() {
    return property("kavro.cell.avro");
  }

  static String artifact() {
    return property("kavro.cell.artifact");
  }

  /** Whether Kavro's KIP-877 metrics must show in this cell's clients. */
  static boolean metrics() {
    return Boolean.parseBoolean(property("kavro.cell.metrics"));
  }

  /** Whether this cell's Avro writes and reads Java records (1.12 and later). */
  static boolean avroReadsJavaRecords() {
    return !avro().startsWith("1.11.");
  }

  /** A serde configuration on an in-memory registry of its own, plus {@code keyValues}. */
  static Map<String, Object> config(String scope, Object... keyValues) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", "mock://" + scope);
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    return config;
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException(name + " is not set: the cell tests run only in CompatibilityMatrixTest's JVMs");
    }
    return value;
  }
}
