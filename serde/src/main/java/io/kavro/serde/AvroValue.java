package io.kavro.serde;

import org.apache.avro.Schema;

/**
 * A deserialized datum with the schema it conforms to.
 *
 * @param schemaId the writer schema id from the payload's header
 * @param schema the schema of {@code datum}: the reader schema when one applied, else the writer schema
 * @param datum the value; {@code null} only for a datum of type {@code null}
 */
public record AvroValue(int schemaId, Schema schema, Object datum) {}
