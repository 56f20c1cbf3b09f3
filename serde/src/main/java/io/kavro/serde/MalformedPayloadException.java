package io.kavro.serde;

import org.apache.kafka.common.errors.SerializationException;

/** A payload that is not Kavro/Confluent framed Avro: empty or shorter than the 5-byte header, an unknown magic byte, a truncated or corrupt body, or bytes left over after the datum. Skipping the record is the only remedy; retrying cannot help. */
public class MalformedPayloadException extends SerializationException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the topic, side, schema id and payload length where known. */
  public MalformedPayloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
