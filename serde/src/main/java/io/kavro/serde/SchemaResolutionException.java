package io.kavro.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * The writer schema of a record cannot be resolved to the reader schema (Avro schema resolution failed), no reader
 * class exists for it, or its reader cannot run (a class it uses fails to link or initialize: compiled against
 * another Avro, missing at run time). Retrying cannot help: fix the reader's configuration or deployment.
 */
public class SchemaResolutionException extends SerializationException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the topic, side, schema id and payload length where known. */
  public SchemaResolutionException(String message, Throwable cause) {
    super(message, cause);
  }
}
