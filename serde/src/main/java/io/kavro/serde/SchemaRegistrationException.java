package io.kavro.serde;

import org.apache.kafka.common.errors.SerializationException;

/** The registry refused the writer schema: incompatible with the subject (409), invalid (422), not found with auto.register.schemas=false, or access denied. */
public class SchemaRegistrationException extends SerializationException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the topic, side, schema id and payload length where known. */
  public SchemaRegistrationException(String message, Throwable cause) {
    super(message, cause);
  }
}
