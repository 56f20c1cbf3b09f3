package io.kavro.serde;

import org.apache.avro.Schema;

/**
 * What the Avro on the class path can do. Kavro runs on Avro 1.11.4 to 1.12.x and asks for a feature, never
 * for a version number: each answer is whether a class that the feature brought is there.
 */
final class AvroFeatures {
  /** Avro 1.12: nanosecond timestamps, and the reflection that writes and reads Java records. */
  static final boolean AVRO_1_12 = present("org.apache.avro.data.TimeConversions$TimestampNanosConversion");

  /**
   * Avro 1.12.2: every class that Avro loads by a name in a schema must pass its JVM-wide
   * {@code ClassSecurityValidator}, not only the {@code java-class} properties that a reader loads.
   */
  static final boolean VALIDATES_EVERY_CLASS = present("org.apache.avro.util.ClassSecurityValidator");

  private AvroFeatures() {}

  /** The Avro version on the class path, as its jar's manifest gives it, for messages. */
  static String version() {
    String version = Schema.class.getPackage().getImplementationVersion();
    return version != null ? version : AVRO_1_12 ? "1.12 (version not in its manifest)" : "older than 1.12";
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, Schema.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
