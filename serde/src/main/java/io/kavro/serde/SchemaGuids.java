package io.kavro.serde;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.config.RegistryConfig;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The serializer's {@code use.schema.guid}, as Confluent's serializer resolves it: the schema of the GUID
 * ({@code GET /schemas/guids/{guid}}), then the id the subject has for that schema (a lookup under the subject),
 * which the prefix carries while the header carries the GUID. Both answers are asked once per route, never per
 * record. A registry without GUIDs (Apicurio, Karapace, Confluent before 8) fails the record with a message that
 * names the setting and the registry; it never writes an id in the GUID's place.
 */
final class SchemaGuids {
  private SchemaGuids() {}

  /**
   * The schema of {@code guid}.
   *
   * @param registry the configured registry URLs, for messages (their user info is removed)
   * @param record the record, for messages
   * @throws SerializationException when the registry lacks the GUID API or has no schema with this GUID
   * @throws io.kavro.registry.SchemaRegistryException when the registry fails otherwise (unavailable...)
   */
  static Schema schema(SchemaRegistryClient client, UUID guid, RegistryConfig registry, String record) {
    try {
      return client.schemaByGuid(guid);
    } catch (UnsupportedRegistryApiException e) {
      throw new SerializationException("cannot serialize " + record + ": " + AvroSerdeConfig.USE_SCHEMA_GUID_CONFIG
          + "=" + guid + " needs a registry with schema GUIDs (Confluent 8 or later), and the registry at "
          + urls(registry) + " has none: unset " + AvroSerdeConfig.USE_SCHEMA_GUID_CONFIG + " and use "
          + AvroSerdeConfig.USE_SCHEMA_ID_CONFIG + " there. " + e.getMessage(), e);
    } catch (SchemaNotFoundException e) {
      throw new SerializationException("cannot serialize " + record + ": the registry at " + urls(registry)
          + " has no schema with GUID " + guid + " (" + AvroSerdeConfig.USE_SCHEMA_GUID_CONFIG + "): "
          + e.getMessage(), e);
    }
  }

  /**
   * The id that {@code subject} has for {@code schema}, the schema of {@code guid}.
   *
   * @throws SerializationException when the subject does not hold that schema
   * @throws io.kavro.registry.SchemaRegistryException when the registry fails otherwise
   */
  static int idUnder(SchemaRegistryClient client, String subject, UUID guid, Schema schema, String record) {
    try {
      return client.lookup(subject, schema).id();
    } catch (SchemaNotFoundException e) {
      throw new SerializationException("cannot serialize " + record + " under subject '" + subject + "': the "
          + "schema of GUID " + guid + " (" + AvroSerdeConfig.USE_SCHEMA_GUID_CONFIG + ") is not registered under "
          + "this subject, and the record's prefix needs the id it has there: register it under the subject: "
          + e.getMessage(), e);
    }
  }

  private static String urls(RegistryConfig registry) {
    return registry.urls().stream().map(RegistryConfig::redact).collect(Collectors.joining(", "));
  }
}
