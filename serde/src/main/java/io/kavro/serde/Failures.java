package io.kavro.serde;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.WrongRegistryUrlException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Messages that name the record, and the one mapping of registry errors to Kafka exceptions.
 *
 * <p>Each concept has one name per layer. The registry layer says why ({@link RegistryUnavailableException},
 * {@link SchemaNotFoundException}...); the serde layer says what it means for the record, in Kafka's terms,
 * and keeps the registry's exception as the cause. An unreachable registry is therefore a
 * {@link RetriableSerdeException}, a Kafka {@code RetriableException}, caused by a
 * {@link RegistryUnavailableException}; a URL that leads to no registry's API (a
 * {@link WrongRegistryUrlException}) is a configuration error: a {@link RegistryUrlException}, not retriable.
 */
final class Failures {
  private Failures() {}

  /** "value of topic 'orders' (schema id 7, 42 bytes)": the record a failure is about. */
  static String record(String topic, boolean isKey, int schemaId, int length) {
    StringBuilder text = new StringBuilder(isKey ? "key" : "value").append(" of topic '").append(topic).append('\'');
    if (schemaId >= 0 || length >= 0) {
      text.append(" (");
      if (schemaId >= 0) {
        text.append("schema id ").append(schemaId);
      }
      if (length >= 0) {
        text.append(schemaId >= 0 ? ", " : "").append(length).append(" bytes");
      }
      text.append(')');
    }
    return text.toString();
  }

  /**
   * "value of topic 'orders' (schema guid 0f…, 42 bytes)": the record, naming its writer schema as the record
   * does: an {@code Integer} schema id, a GUID, an Apicurio id or a framing resolver's key.
   */
  static String record(String topic, boolean isKey, Object schemaKey, int length) {
    if (schemaKey instanceof Integer id) {
      return record(topic, isKey, id.intValue(), length);
    }
    return (isKey ? "key" : "value") + " of topic '" + topic + "' (" + describe(schemaKey)
        + (length >= 0 ? ", " + length + " bytes)" : ")");
  }

  /** "schema id 7", "schema guid 0f…", "Apicurio global id 7": how a record names its writer schema. */
  static String describe(Object schemaKey) {
    if (schemaKey instanceof Integer id) {
      return "schema id " + id;
    }
    return schemaKey instanceof java.util.UUID guid ? "schema guid " + guid : String.valueOf(schemaKey);
  }

  /** A registry failure while reading a record: retriable when the registry is down, typed otherwise. */
  static RuntimeException whileReading(String record, SchemaRegistryException e) {
    return whileReading("cannot deserialize ", record, e);
  }

  /** The same, for another reader of a record's schema id ({@code "cannot translate the schema id of "}). */
  static RuntimeException whileReading(String action, String record, SchemaRegistryException e) {
    RuntimeException common = common(action + record, e);
    if (common != null) {
      return common;
    }
    if (e instanceof SchemaNotFoundException) {
      return new UnknownSchemaIdException(action + record + ": the registry does not know this schema id: "
          + e.getMessage(), e);
    }
    return new SerializationException(action + record + ": " + e.getMessage(), e);
  }

  /**
   * A registry failure while the subject name strategy chose a record's subject (asking for the topic's
   * association): retriable when the registry is down, typed otherwise.
   */
  static RuntimeException whileChoosingSubject(String action, String record, SchemaRegistryException e) {
    String prefix = action + record + ": the subject name strategy could not choose the subject";
    RuntimeException common = common(prefix, e);
    return common != null ? common : new SerializationException(prefix + ": " + e.getMessage(), e);
  }

  /** A registry failure while writing a record. */
  static RuntimeException whileWriting(String record, String subject, SchemaRegistryException e) {
    String prefix = "cannot serialize " + record + " under subject '" + subject + "'";
    RuntimeException common = common(prefix, e);
    if (common != null) {
      return common;
    }
    String why;
    if (e instanceof IncompatibleSchemaException) {
      why = "the registry rejected the schema as incompatible";
    } else if (e instanceof InvalidSchemaException) {
      why = "the schema is invalid";
    } else if (e instanceof SchemaNotFoundException) {
      why = "the schema is not registered (auto.register.schemas=false: register it first, or turn "
          + "auto.register.schemas on)";
    } else if (e instanceof RegistryAccessDeniedException) {
      why = "access was denied (by the registry, or by the HTTP proxy in front of it)";
    } else if (e instanceof io.kavro.registry.InvalidSubjectException) {
      why = "the subject name is refused, so nothing was sent to the registry (check subject.name.strategy)";
    } else if (e instanceof io.kavro.registry.UnsupportedRulesException) {
      why = "the subject's schema has data contract rules";
    } else {
      why = "the registry failed";
    }
    return new SchemaRegistrationException(prefix + ": " + why + ": " + e.getMessage(), subject, e);
  }

  private static RuntimeException common(String prefix, SchemaRegistryException e) {
    if (e instanceof RegistryUnavailableException) {
      return new RetriableSerdeException(prefix + ": schema registry unavailable: " + e.getMessage(), e);
    }
    if (e instanceof WrongRegistryUrlException) {
      return new RegistryUrlException(prefix + ": schema.registry.url does not lead to a schema registry's API: "
          + e.getMessage(), e);
    }
    if (e instanceof RegistryInterruptedException) {
      InterruptedException cause = new InterruptedException(e.getMessage());
      cause.initCause(e);
      return new InterruptException(prefix + ": interrupted", cause);
    }
    return null;
  }
}
