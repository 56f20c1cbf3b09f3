package io.kavro.rules;

import io.kavro.serde.rules.RuleAction;
import io.kavro.serde.rules.RuleOutcome;
import io.kavro.serde.rules.RuleTarget;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The {@code DLQ} action, as Confluent's Java serde has it: the record goes to a dead letter topic, then fails as
 * {@code ERROR} does, so the application still sees the failure.
 *
 * <p>Settings: {@code dlq.topic} (else the rule's {@code dlq.topic} parameter), {@code dlq.auto.flush} (false:
 * flush after each record when true), {@code dlq.redact.rule.types} (rule types redacted besides {@code ENCRYPT} and
 * {@code ENCRYPT_PAYLOAD}, which always are); the producer takes the serde's own producer settings
 * ({@code bootstrap.servers}, security) over safe defaults (acks=all, no idempotence, one request in flight), and is
 * made on first use.
 *
 * <p>The record: on read, the payload as it was; on write, what {@link DlqRedaction} lets through: nothing when the
 * contract encrypts the payload ({@code ENCRYPT_PAYLOAD}), else the message as Avro JSON with every value that the
 * rules of the redacted types select written as {@code "<REDACTED>"}, so that a dead letter topic never holds what
 * the contract says to encrypt. Rule failures never quote values, so neither does {@code __rule.exception}.
 * Headers: the record's own, and {@code __rule.name}, {@code __rule.mode}, {@code __rule.subject},
 * {@code __rule.topic}, {@code __rule.exception}. A record re-read with its {@code __rule.name} header skips that
 * rule, unless it encrypts (the serde never skips an encryption rule by a header).
 */
public final class DlqAction implements RuleAction {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(DlqAction.class);
  static final String TOPIC = "dlq.topic";
  static final String AUTO_FLUSH = "dlq.auto.flush";
  static final String REDACT = "dlq.redact.rule.types";
  /** The rule types whose fields are redacted whatever {@code dlq.redact.rule.types} says. */
  static final Set<String> ALWAYS_REDACTED = Set.of(DlqRedaction.ENCRYPT, DlqRedaction.ENCRYPT_PAYLOAD);

  private final Object lock = new Object();
  private Map<String, Object> producerConfigs = Map.of();
  private String topic;
  private boolean autoFlush;
  private Set<String> redacted = ALWAYS_REDACTED;
  private Producer<byte[], byte[]> producer;

  /** For Kafka's ServiceLoader and for {@code rule.actions.<name>.class}. */
  public DlqAction() {}

  /** With a producer of the caller's, for tests. */
  DlqAction(Producer<byte[], byte[]> producer) {
    this.producer = producer;
  }

  @Override
  public String type() {
    return "DLQ";
  }

  @Override
  public void configure(Map<String, ?> configs) {
    Object t = configs.get(TOPIC);
    topic = t == null || t.toString().isBlank() ? null : t.toString().trim();
    autoFlush = Boolean.parseBoolean(String.valueOf(configs.get(AUTO_FLUSH)));
    Object types = configs.get(REDACT);
    Set<String> redact = new HashSet<>(ALWAYS_REDACTED);
    if (types != null) {
      Arrays.stream(types.toString().split(",")).map(String::trim).filter(s -> !s.isEmpty())
          .map(s -> s.toUpperCase(Locale.ROOT)).forEach(redact::add);
    }
    redacted = Set.copyOf(redact);
    Map<String, Object> producer = new HashMap<>();
    producer.put(ProducerConfig.ACKS_CONFIG, "all");
    producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
    producer.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    Set<String> known = ProducerConfig.configNames();
    configs.forEach((key, value) -> {
      if (known.contains(key) && !key.equals(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG)
          && !key.equals(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG) && value != null) {
        producer.put(key, value);
      }
    });
    producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    producerConfigs = producer;
  }

  @Override
  public void run(RuleOutcome outcome) {
    RuleTarget target = outcome.target();
    String dlqTopic = topic != null ? topic : target.parameter(TOPIC);
    if (dlqTopic == null || dlqTopic.isBlank()) {
      log.warn("{} sent nothing to a dead letter queue: no topic is configured (dlq.topic)", target);
    } else {
      send(outcome, dlqTopic);
    }
    String why = outcome.failure() == null ? "sent to the dead letter queue" : outcome.failure().getMessage();
    throw new SerializationException("Rule failed: " + target.rule().name() + " (" + target + ", topic '"
        + outcome.input().topic() + "'): " + why, outcome.failure());
  }

  private void send(RuleOutcome outcome, String dlqTopic) {
    RuleTarget target = outcome.target();
    byte[] bytes = bytesOf(outcome);
    RecordHeaders headers = new RecordHeaders();
    if (outcome.input().headers() != null) {
      outcome.input().headers().forEach(headers::add);
    }
    header(headers, "__rule.name", target.rule().name());
    header(headers, "__rule.mode", target.phase().name());
    header(headers, "__rule.subject", target.subject());
    header(headers, "__rule.topic", outcome.input().topic());
    if (outcome.failure() != null) {
      header(headers, "__rule.exception", outcome.failure().getMessage());
    }
    boolean isKey = outcome.input().isKey();
    try {
      Producer<byte[], byte[]> dlq = producer();
      dlq.send(new ProducerRecord<>(dlqTopic, null, isKey ? bytes : null, isKey ? null : bytes, headers),
          (metadata, e) -> {
            if (e != null) {
              log.error("{} could not send a record to the dead letter queue {}: {}", target, dlqTopic, e.toString());
            }
          });
      if (autoFlush) {
        dlq.flush();
      }
    } catch (RuntimeException e) {
      log.error("{} could not send a record to the dead letter queue {}: {}", target, dlqTopic, e.toString());
    }
  }

  private static void header(RecordHeaders headers, String name, String value) {
    headers.add(name, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
  }

  /** The payload on read; on write, what {@link DlqRedaction} lets through of the message. */
  private byte[] bytesOf(RuleOutcome outcome) {
    Object original = outcome.original();
    if (original instanceof byte[] bytes) {
      return bytes;
    }
    if (original == null) {
      return null;
    }
    return DlqRedaction.json(outcome.target(), original, redacted);
  }

  private Producer<byte[], byte[]> producer() {
    synchronized (lock) {
      if (producer == null) {
        producer = new KafkaProducer<>(producerConfigs);
      }
      return producer;
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (producer != null) {
        producer.close(java.time.Duration.ofSeconds(5));
        producer = null;
      }
    }
  }
}
