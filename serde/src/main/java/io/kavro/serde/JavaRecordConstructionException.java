package io.kavro.serde;

import org.apache.avro.AvroRuntimeException;

/**
 * The application's class refused the values read: a Java record's canonical constructor (or a fixed class's)
 * threw, or was given a null for a primitive. The payload is valid Avro; the message names the class and the
 * cause.
 */
final class JavaRecordConstructionException extends AvroRuntimeException {
  private static final long serialVersionUID = 1L;

  JavaRecordConstructionException(String message, Throwable cause) {
    super(message, cause);
  }
}
