package io.kavro.examples.springboot;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.stereotype.Component;

/**
 * Reads {@value OrdersApplication#DEAD_LETTER_TOPIC} as raw bytes (a dead letter is, by definition, what Kavro
 * could not read) and keeps what each one says; an application would alert, or repair and resend.
 */
@Component
public class DeadLetterListener {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterListener.class);

  private final List<DeadLetter> letters = new CopyOnWriteArrayList<>();

  /** One dead letter. */
  @KafkaListener(id = "orders-dead-letters", topics = OrdersApplication.DEAD_LETTER_TOPIC,
      properties = "value.deserializer=org.apache.kafka.common.serialization.ByteArrayDeserializer")
  public void on(ConsumerRecord<String, byte[]> record) {
    DeadLetter letter = new DeadLetter(record.key(), record.value(),
        text(record, KafkaHeaders.DLT_ORIGINAL_TOPIC), offset(record),
        text(record, KafkaHeaders.DLT_EXCEPTION_FQCN), text(record, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN),
        text(record, KafkaHeaders.DLT_EXCEPTION_MESSAGE));
    log.warn("dead letter {} from {}@{}: {} ({})", letter.key(), letter.originalTopic(), letter.originalOffset(),
        letter.cause(), letter.message());
    letters.add(letter);
  }

  /** The dead letters read so far. */
  public List<DeadLetter> all() {
    return List.copyOf(letters);
  }

  private static String text(ConsumerRecord<?, ?> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static long offset(ConsumerRecord<?, ?> record) {
    Header header = record.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET);
    return header == null ? -1 : ByteBuffer.wrap(header.value()).getLong();
  }
}
