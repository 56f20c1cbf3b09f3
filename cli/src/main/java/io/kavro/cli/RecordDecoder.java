package io.kavro.cli;

import io.kavro.serde.AvroValue;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.MalformedPayloadException;
import io.kavro.serde.UnknownSchemaIdException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes a record's key and value for {@code consume}: values through Kavro's deserializer, keys as
 * {@code --key-format} says, or through a {@code key.deserializer} when one is given. Not thread-safe.
 */
final class RecordDecoder implements AutoCloseable {
  /** A record's key, as it is printed. */
  sealed interface Key {}

  /** No key. */
  record NullKey() implements Key {}

  /** A key read as Avro, with its schema. */
  record AvroKey(AvroValue decoded) implements Key {}

  /** A key printed as text: its UTF-8 bytes, or what the {@code key.deserializer} made of it. */
  record TextKey(String text) implements Key {}

  /**
   * A decoded record.
   *
   * @param key the key, when it is printed ({@code print.key})
   * @param value the value, empty for a tombstone
   */
  record Decoded(Optional<Key> key, Optional<AvroValue> value) {}

  private final String topic;
  private final ConsumeCommand.KeyFormat keyFormat;
  private final KafkaAvroDeserializer values = new KafkaAvroDeserializer();
  private final KafkaAvroDeserializer keys = new KafkaAvroDeserializer();
  private final Optional<Deserializer<?>> keyDeserializer;

  /**
   * @param config the deserializers' configuration
   * @param keyDeserializer a {@code key.deserializer} whose {@code toString()} prints keys, instead of Avro
   */
  RecordDecoder(String topic, Map<String, Object> config, ConsumeCommand.KeyFormat keyFormat,
      Optional<Deserializer<?>> keyDeserializer) {
    this.topic = topic;
    this.keyFormat = keyFormat;
    this.keyDeserializer = keyDeserializer;
    values.configure(config, false);
    keys.configure(config, true);
  }

  /**
   * The record's value, and its key if {@code withKey}.
   *
   * @throws RuntimeException when the value, or a key that must be Avro, cannot be decoded
   */
  Decoded decode(ConsumerRecord<byte[], byte[]> record, boolean withKey) {
    Optional<Key> key = withKey ? Optional.of(key(record)) : Optional.empty();
    Optional<AvroValue> value = record.value() == null ? Optional.empty()
        : Optional.of(values.deserializeWithSchema(topic, record.headers(), ByteBuffer.wrap(record.value())));
    return new Decoded(key, value);
  }

  private Key key(ConsumerRecord<byte[], byte[]> record) {
    byte[] key = record.key();
    if (key == null) {
      return new NullKey();
    }
    if (keyDeserializer.isPresent()) {
      Object read = keyDeserializer.get().deserialize(topic, record.headers(), key);
      return read == null ? new NullKey() : new TextKey(read.toString());
    }
    if (keyFormat == ConsumeCommand.KeyFormat.AVRO || keyFormat == ConsumeCommand.KeyFormat.AUTO && framed(key)) {
      try {
        return new AvroKey(keys.deserializeWithSchema(topic, record.headers(), ByteBuffer.wrap(key)));
      } catch (MalformedPayloadException | UnknownSchemaIdException e) {
        if (keyFormat == ConsumeCommand.KeyFormat.AVRO) {
          throw e;
        }
      }
    }
    return new TextKey(new String(key, StandardCharsets.UTF_8));
  }

  /** Whether a key starts as a framed Avro payload does: 0x00 and an id, or 0x01 and a GUID. */
  private static boolean framed(byte[] key) {
    return key.length >= 5 && key[0] == 0 || key.length >= 17 && key[0] == 1;
  }

  @Override
  public void close() {
    try (values; keys) {
      keyDeserializer.ifPresent(Deserializer::close);
    }
  }
}
