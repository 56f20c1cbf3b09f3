package io.kavro.serde.framing;

import java.io.Closeable;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.Headers;

/**
 * Reads a framing that Kavro does not resolve itself: another registry's, such as AWS Glue's ({@code 0x03}, a
 * compression byte and the schema version's UUID), whose schemas live behind an API Kavro does not call. Named by
 * {@code key.framing.resolver} / {@code value.framing.resolver}; the deserializer creates it with its public no-arg
 * constructor, calls {@link #configure} with its own configuration, and {@link #close()} when it closes.
 *
 * <p>It is asked only about payloads that Kavro cannot read otherwise: no schema id header, and a first byte that
 * is neither {@code 0x00} nor {@code 0x01}. Its writer schema is asked for once per key: the deserializer caches
 * the read plan built from it, as it does for its own ids. It must be thread-safe.
 *
 * <p>What {@link #locate} and {@link #writerSchema} throw, and its keys' {@code hashCode} and {@code equals},
 * fails the record: a Kafka {@code RetriableException} stays retriable, and a {@code SerializationException} keeps
 * its type; a {@code LinkageError} (a class it uses missing or failing to initialize, which every record it reads
 * would meet alike) is a {@link io.kavro.serde.SchemaResolutionException}, the deployment's fault, never the
 * record's; any other exception is a {@link io.kavro.serde.MalformedPayloadException}. What Kavro builds names the
 * record, with what the resolver threw as the cause (but a {@code StackOverflowError}, whose trace is the stack's
 * whole depth).
 */
public interface FramingResolver extends Closeable {

  /** Where a payload names its writer schema. */
  record Framed(Object key, int prefixSize) {
    /**
     * @param key the writer schema's key in this framing, with value equality (a UUID, a record) whose
     *     {@code hashCode} and {@code equals} give the same answers every time: the deserializer's cache calls them
     *     again when it evicts or clears routes, on the thread of whichever record that happens for
     * @param prefixSize the bytes before the Avro body
     * @throws IllegalArgumentException if {@code key} is {@code null} or {@code prefixSize} is negative
     */
    public Framed {
      if (key == null || prefixSize < 0) {
        throw new IllegalArgumentException("a key and a prefix size of 0 or more are required");
      }
    }
  }

  /** Called once, before any other method, with the deserializer's configuration. */
  default void configure(Map<String, ?> configs, boolean isKey) {}

  /**
   * Where the payload of {@code length} bytes at {@code offset} names its writer schema, or {@code null} when it
   * is not framed this way (the deserializer then fails the record as not framed). Called per record: keep it to
   * reading bytes.
   */
  Framed locate(String topic, Headers headers, byte[] payload, int offset, int length);

  /**
   * The writer schema of a key that {@link #locate} gave.
   *
   * @throws RuntimeException when it cannot be had; the record fails with it, as the type's javadoc says (a Kafka
   *     {@code RetriableException} keeps the record retriable)
   */
  Schema writerSchema(Object key);

  @Override
  default void close() {}
}
