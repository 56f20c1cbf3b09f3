package io.kavro.serde;

import java.util.Optional;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The registry refused the writer schema: incompatible with the subject (409), invalid (422), not found with
 * auto.register.schemas=false, or access denied. The cause is the registry client's exception, which says which:
 * an {@link io.kavro.registry.IncompatibleSchemaException} carries the registry's reason.
 */
public class SchemaRegistrationException extends SerializationException {
  private static final long serialVersionUID = 1L;

  private final String subject;

  /** With a message that names the topic, side, schema id and payload length where known. */
  public SchemaRegistrationException(String message, Throwable cause) {
    this(message, null, cause);
  }

  /**
   * With a message that names the topic, side, schema id and payload length where known.
   *
   * @param subject the subject the schema was refused under, or {@code null} when none is known
   */
  public SchemaRegistrationException(String message, String subject, Throwable cause) {
    super(message, cause);
    this.subject = subject;
  }

  /** The subject the schema was refused under; empty when the failure names none. */
  public Optional<String> subject() {
    return Optional.ofNullable(subject);
  }
}
