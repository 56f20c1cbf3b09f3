package io.kavro.serde;

import org.apache.kafka.common.errors.SerializationException;

/** The schema id in a payload's header is unknown to the registry (HTTP 404, error code 40403): the record was written against another registry, or its schema was deleted. */
public class UnknownSchemaIdException extends SerializationException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the topic, side, schema id and payload length where known. */
  public UnknownSchemaIdException(String message, Throwable cause) {
    super(message, cause);
  }
}
