package io.kavro.serde;

import java.io.IOException;
import org.apache.avro.io.Encoder;

/**
 * Writes the Avro binary body of one datum itself, for a caller whose values are not Avro's data (the Connect
 * converter writes its {@code Struct}s straight into the encoder, without building a {@code GenericRecord}).
 * Given to {@link KafkaAvroSerializer#serialize(String, org.apache.kafka.common.header.Headers, Object,
 * org.apache.avro.Schema, DatumEncoder)}, which still does everything else: the subject, the registration or
 * lookup of the schema id, the framing (prefix or header), the rules, the metrics and the error mapping.
 *
 * <p>An implementation must write exactly one value of the schema given with it, in Avro's binary encoding, and
 * hold no state of its own between calls: the serializer calls it from many threads.
 */
@FunctionalInterface
public interface DatumEncoder {
  /**
   * Writes {@code datum} to {@code out} as one value of the schema given with this encoder.
   *
   * <p>An unchecked exception thrown here comes out of the serializer as it is (the caller's own error type, such
   * as Connect's {@code DataException}), after the serializer has dropped whatever was written; an
   * {@link IOException} comes out as a {@code SerializationException} naming the record.
   *
   * @throws IOException when the encoder fails
   */
  void encode(Object datum, Encoder out) throws IOException;
}
