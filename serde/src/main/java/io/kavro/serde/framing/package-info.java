/**
 * Where a record's schema id is and how it is read or written: one concept, split as Confluent's
 * {@code SchemaIdSerializer} / {@code SchemaIdDeserializer} are. The serializer's {@link
 * io.kavro.serde.framing.SchemaIdWriter} puts the id before the Avro body (the {@code 0x00} prefix) or in a record
 * header; the deserializer's {@link io.kavro.serde.framing.SchemaIdReader} finds it, once per record, in Confluent's
 * id header, Apicurio's id headers, the prefix (Confluent's id, a GUID, or an Apicurio id of the configured
 * {@link io.kavro.serde.framing.SchemaIdPrefix} form), or through a {@link io.kavro.serde.framing.FramingResolver}.
 * The bytes of Confluent's framing are in {@link io.kavro.serde.WireFormat}.
 */
package io.kavro.serde.framing;
