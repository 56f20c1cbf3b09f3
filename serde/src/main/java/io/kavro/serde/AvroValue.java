package io.kavro.serde;

import org.apache.avro.Schema;

/**
 * A deserialized datum with the schema it conforms to, and how the record named its writer schema.
 *
 * @param schemaId the writer schema id from the record's prefix or id header; -1 when the record names its writer
 *     schema otherwise (see {@code schemaKey})
 * @param schema the schema of {@code datum}: the reader schema when one applied, else the writer schema
 * @param datum the value; {@code null} only for a datum of type {@code null}
 * @param schemaKey how the record named its writer schema: the {@code Integer} schema id, a {@link java.util.UUID}
 *     schema GUID (Confluent 8), an {@link io.kavro.registry.ApicurioId}, or a {@link io.kavro.serde.framing.FramingResolver}'s key
 */
public record AvroValue(int schemaId, Schema schema, Object datum, Object schemaKey) {

  /** A datum read under schema id {@code schemaId}. */
  public AvroValue(int schemaId, Schema schema, Object datum) {
    this(schemaId, schema, datum, schemaId);
  }

  /** "schema id 7", "schema guid 0f…", "Apicurio global id 7": {@code schemaKey} in words. */
  public String describeSchemaKey() {
    return Failures.describe(schemaKey);
  }
}
