package io.kavro.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * {@code kavro consume}: a topic's records, one line each. By default as Confluent's
 * {@code kafka-avro-console-consumer} prints them ({@link ConfluentLine}): the value in Avro's JSON encoding, and
 * what its {@code --property print.*} settings add; with {@code --format json} or {@code avro-json}, as Kavro's JSON
 * envelope ({@link EnvelopeLine}). A record that cannot be decoded stops Confluent's lines (exit 1), is an error
 * line in the envelope (consumption goes on, exit 1), and with {@code --skip-message-on-error} is skipped with a
 * line on standard error.
 */
@Command(name = "consume", mixinStandardHelpOptions = true,
    description = "Print a topic's records: as Confluent's console consumer does, or as JSON envelopes.")
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

  @Option(names = "--format", paramLabel = "confluent|json|avro-json", defaultValue = "confluent",
      description = "confluent (default): lines as Confluent's console consumer prints them, shaped by "
          + "--property print.key, key.separator, ...; json or avro-json: a JSON envelope per record (partition, "
          + "offset, timestamp, key, value, schema ids), values as plain JSON or in Avro's JSON encoding.")
  String format;

  @Option(names = "--skip-message-on-error", description = "Skip a record that cannot be decoded, with a line on "
      + "standard error naming its partition and offset, and go on (as Confluent's console consumer does).")
  boolean skipMessageOnError;

  @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000",
      description = "Stop when no record came for this long (default 10000; -1: never).")
  long timeoutMs;

  @Override
  public Integer call() {
    Optional<JsonLines.Format> envelope = envelope(format);
    if (offset != null && partition == null) {
      throw new CliException("--offset needs --partition", 2);
    }
    // What prints is the --property values' alone, as Kafka's and Confluent's formatters read them: a consumer
    // config file's key.deserializer (the Kafka consumer's) neither lays out lines nor reads keys.
    Map<String, String> printing = broker.client.properties;
    ConsumeProperties.check(printing);
    Integer limit = maxMessages == null || maxMessages < 0 ? null : maxMessages;
    PrintSettings settings = envelope.isPresent() ? PrintSettings.envelope(printing)
        : PrintSettings.confluent(printing);
    Map<String, Object> config = ConsumeProperties.clientConfig(broker.kafkaConfig());
    config.putIfAbsent("group.id", group != null ? group : "kavro-cli-" + UUID.randomUUID());
    config.put("auto.offset.reset", fromBeginning ? "earliest" : "latest");
    // Only what was printed is committed, after it was printed: a group never skips a record it did not show.
    config.put("enable.auto.commit", false);
    // A console tool: a fetch in flight holds the consumer's close for up to fetch.max.wait.ms (Kafka's 500 ms),
    // so every run would end up to half a second late.
    config.putIfAbsent("fetch.max.wait.ms", 100);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int errors = 0;
    int handled = 0;
    try (RecordLayout layout = envelope.isPresent() ? new EnvelopeLine(envelope.get(), settings)
            : new ConfluentLine(settings, NamedDeserializer.load(PrintSettings.HEADERS_DESERIALIZER, printing, false));
        RecordDecoder decoder = new RecordDecoder(topic, config, keyFormat,
            NamedDeserializer.load(PrintSettings.KEY_DESERIALIZER, printing, true));
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      BrokerCheck.check(consumer, config.get("bootstrap.servers"), topic, true,
          Duration.ofMillis(timeoutMs >= 0 ? Math.max(timeoutMs, 1000) : BrokerOptions.MAX_BLOCK_MS));
      start(consumer);
      long idleSince = System.nanoTime();
      boolean stopped = false;
      while (!stopped && (limit == null || handled < limit)) {
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
          if (limit != null && handled >= limit) {
            break;
          }
          String text;
          try {
            text = layout.render(record, decoder.decode(record, settings.key()));
          } catch (org.apache.kafka.common.errors.RetriableException e) {
            throw e; // the registry or a KMS is down: no record can be read, stop with one clear line
          } catch (RuntimeException e) {
            String why = Kavro.message(e);
            String where = "the record at partition " + record.partition() + ", offset " + record.offset();
            out.flush(); // the lines before it first
            if (skipMessageOnError) {
              err.println("kavro: skipped " + where + ": " + why);
              text = "";
            } else {
              errors++;
              Optional<String> failure = layout.failure(record, why);
              if (failure.isEmpty()) {
                err.println("kavro: cannot print " + where + ": " + why + " (--skip-message-on-error skips such "
                    + "records)");
                stopped = true;
                break;
              }
              text = failure.get();
            }
          }
          out.print(text);
          handled++;
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
    if (errors > 0 && envelope.isPresent()) {
      err.println("kavro: " + errors + " record(s) could not be decoded (see their \"error\" lines)");
    }
    return errors > 0 ? 1 : 0;
  }

  /** Assigns the partition, or subscribes to the topic. */
  private void start(KafkaConsumer<byte[], byte[]> consumer) {
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
  }

  /** The envelope's rendering of {@code --format}, or empty for Confluent's lines. */
  private static Optional<JsonLines.Format> envelope(String format) {
    if (format.equals("confluent")) {
      return Optional.empty();
    }
    if (format.equals("json") || format.equals("avro-json")) {
      return Optional.of(JsonLines.Format.of(format));
    }
    throw new CliException("--format must be confluent, json or avro-json, was '" + format + "'", 2);
  }
}
