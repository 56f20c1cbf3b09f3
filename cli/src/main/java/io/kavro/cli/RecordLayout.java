package io.kavro.cli;

import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** How {@code consume} lays out a record: {@link ConfluentLine} or {@link EnvelopeLine}. */
interface RecordLayout extends AutoCloseable {
  /** The record's text, with its line separator; empty when nothing of it is to be printed. */
  String render(ConsumerRecord<byte[], byte[]> record, RecordDecoder.Decoded decoded);

  /** The text that stands for a record that could not be decoded, or empty when such a record ends the output. */
  Optional<String> failure(ConsumerRecord<byte[], byte[]> record, String error);

  @Override
  default void close() {}
}
