package io.kavro.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.serde.AvroValue;
import io.kavro.serde.KafkaAvroDeserializer;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kavro consume}: a topic as JSON lines, one per record, with partition, offset, timestamp, key, value
 * and schema id. A record that cannot be decoded is a line with its offset and an {@code error}, and
 * consumption goes on; the exit status is then 1.
 */
@Command(name = "consume", mixinStandardHelpOptions = true,
    description = "Print a topic's records as JSON lines.")
final class ConsumeCommand implements Callable<Integer> {
  @Mixin
  BrokerOptions broker;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--topic", required = true, description = "The topic to read.")
  String topic;

  @Option(names = "--from-beginning", description = "Start at the earliest offset (otherwise at the end).")
  boolean fromBeginning;

  @Option(names = "--max-messages", paramLabel = "N", description = "Stop after N records (-1: no limit).")
  Integer maxMessages;

  /** How a record's key is printed. */
  enum KeyFormat {
    /** Decoded as Avro when it is framed (0x00 and an id, or 0x01 and a GUID) and decodes, else as UTF-8 text. */
    AUTO,
    /** Decoded as Avro; a key that does not decode is the record's error. */
    AVRO,
    /** As UTF-8 text. */
    STRING
  }

  @Option(names = "--key-format", paramLabel = "FORMAT", defaultValue = "auto",
      description = "How keys print: auto (Avro when the key is framed and decodes, else text), avro or string.")
  KeyFormat keyFormat;

  @Option(names = "--partition", paramLabel = "P", description = "Read only this partition.")
  Integer partition;

  @Option(names = "--offset", paramLabel = "O", description = "Start at this offset (needs --partition).")
  Long offset;

  @Option(names = "--group", paramLabel = "GROUP", description = "Consumer group (a new one by default).")
  String group;

  @Mixin
  FormatOption format;

  @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000",
      description = "Stop when no record came for this long (default 10000; -1: never).")
  long timeoutMs;

  /** Whether schema ids print ({@code print.schema.ids}). */
  private boolean printIds = true;

  @Override
  public Integer call() {
    JsonLines.Format rendering = format.rendering();
    if (offset != null && partition == null) {
      throw new CliException("--offset needs --partition", 2);
    }
    Integer limit = maxMessages == null || maxMessages < 0 ? null : maxMessages;
    Map<String, Object> config = broker.kafkaConfig();
    config.putIfAbsent("group.id", group != null ? group : "kavro-cli-" + UUID.randomUUID());
    config.put("auto.offset.reset", fromBeginning ? "earliest" : "latest");
    // Only what was printed is committed, after it was printed: a group never skips a record it did not show.
    config.put("enable.auto.commit", false);
    // Confluent's console consumer prints neither unless asked; Kavro prints both unless told not to.
    boolean printKey = !"false".equalsIgnoreCase(String.valueOf(config.getOrDefault("print.key", "true")));
    printIds = !"false".equalsIgnoreCase(String.valueOf(config.getOrDefault("print.schema.ids", "true")));
    PrintWriter out = spec.commandLine().getOut();
    int errors = 0;
    int printed = 0;
    try (KafkaAvroDeserializer values = new KafkaAvroDeserializer();
        KafkaAvroDeserializer keys = new KafkaAvroDeserializer();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      values.configure(config, false);
      keys.configure(config, true);
      BrokerCheck.check(consumer, config.get("bootstrap.servers"), topic, true,
          Duration.ofMillis(timeoutMs >= 0 ? Math.max(timeoutMs, 1000) : BrokerOptions.MAX_BLOCK_MS));
      if (partition != null) {
        TopicPartition tp = new TopicPartition(topic, partition);
        consumer.assign(List.of(tp));
        if (offset != null) {
          consumer.seek(tp, offset);
        } else if (fromBeginning) {
          consumer.seekToBeginning(List.of(tp));
        }
      } else {
        consumer.subscribe(List.of(topic));
      }
      long idleSince = System.nanoTime();
      while (limit == null || printed < limit) {
        var records = consumer.poll(Duration.ofMillis(200));
        if (records.isEmpty()) {
          if (timeoutMs >= 0 && System.nanoTime() - idleSince > timeoutMs * 1_000_000) {
            break;
          }
          continue;
        }
        idleSince = System.nanoTime();
        Map<TopicPartition, OffsetAndMetadata> shown = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
          if (limit != null && printed >= limit) {
            break;
          }
          ObjectNode line = JsonLines.MAPPER.createObjectNode();
          line.put("partition", record.partition());
          line.put("offset", record.offset());
          line.put("timestamp", record.timestamp());
          try {
            if (printKey) {
              putKey(line, keys, record, rendering);
            }
            AvroValue value = record.value() == null ? null
                : values.deserializeWithSchema(topic, record.headers(), ByteBuffer.wrap(record.value()));
            line.set("value", value == null ? JsonLines.MAPPER.nullNode()
                : JsonLines.datum(value.datum(), value.schema(), rendering));
            if (value != null && printIds) {
              JsonLines.putSchemaKey(line, "", value);
            }
          } catch (io.kavro.serde.RetriableSerdeException e) {
            throw e; // the registry is down: no record can be read, stop with one clear line
          } catch (RuntimeException e) {
            errors++;
            line.put("error", e.getMessage());
            putPayload(line, record.value());
          }
          out.println(JsonLines.line(line));
          printed++;
          shown.put(new TopicPartition(record.topic(), record.partition()),
              new OffsetAndMetadata(record.offset() + 1));
        }
        out.flush();
        if (group != null && !shown.isEmpty()) {
          consumer.commitSync(shown);
        }
      }
    }
    out.flush();
    if (errors > 0) {
      spec.commandLine().getErr().println("kavro: " + errors + " record(s) could not be decoded (see their "
          + "\"error\" lines)");
      return 1;
    }
    return 0;
  }

  /** The key: Avro when it decodes as {@link #keyFormat} allows, with its schema id, else text. */
  private void putKey(ObjectNode line, KafkaAvroDeserializer keys, ConsumerRecord<byte[], byte[]> record,
      JsonLines.Format rendering) {
    byte[] key = record.key();
    if (key == null) {
      line.putNull("key");
      return;
    }
    if (keyFormat == KeyFormat.AVRO || keyFormat == KeyFormat.AUTO && framed(key)) {
      try {
        AvroValue decoded = keys.deserializeWithSchema(topic, record.headers(), ByteBuffer.wrap(key));
        line.set("key", JsonLines.datum(decoded.datum(), decoded.schema(), rendering));
        if (printIds) {
          JsonLines.putSchemaKey(line, "key", decoded);
        }
        return;
      } catch (io.kavro.serde.MalformedPayloadException | io.kavro.serde.UnknownSchemaIdException e) {
        if (keyFormat == KeyFormat.AVRO) {
          throw e;
        }
      }
    }
    line.put("key", new String(key, StandardCharsets.UTF_8));
  }

  /** Payloads up to this size go into their error line, in hex, for {@code kavro decode --hex}. */
  static final int MAX_PAYLOAD_SHOWN = 64 * 1024;

  /** The payload of a record that could not be decoded, so that it can be handed to {@code decode}. */
  private static void putPayload(ObjectNode line, byte[] payload) {
    if (payload != null && payload.length <= MAX_PAYLOAD_SHOWN) {
      line.put("payload", java.util.HexFormat.of().formatHex(payload));
    } else if (payload != null) {
      line.put("payloadBytes", payload.length);
    }
  }

  /** Whether a key starts as a framed Avro payload does: 0x00 and an id, or 0x01 and a GUID. */
  private static boolean framed(byte[] key) {
    return key.length >= 5 && key[0] == 0 || key.length >= 17 && key[0] == 1;
  }
}
