package io.kavro.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.schematools.SchemaFiles;
import io.kavro.serde.KafkaAvroSerializer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kavro produce}: JSON lines from standard input as Avro records, in Avro's JSON encoding (as
 * Confluent's console producer reads them) or plain JSON ({@code --format json}). Without a key schema a line is
 * the value, and the key is null; with one, a line is {@code {"key": ..., "value": ...}}; a line that
 * {@code consume} printed gives its key and value. A line that does not match its schema stops the tool with its
 * line number and the field: the lines before it are sent, nothing after it is. So does a line that is not
 * valid UTF-8, or longer than {@code --max-line-bytes} (8 MiB by default). A schema the registry refuses (as
 * incompatible with the subject, say) stops the tool too, saying so and why, without blaming the line.
 */
@Command(name = "produce", mixinStandardHelpOptions = true,
    description = "Send JSON lines from standard input as Avro records.")
final class ProduceCommand implements Callable<Integer> {
  @Mixin
  BrokerOptions broker;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--topic", required = true, description = "The topic to write.")
  String topic;

  @ArgGroup(exclusive = true)
  SchemaSource value;

  @ArgGroup(exclusive = true)
  KeySchemaSource key;

  /** The value schema: a file (registered under the subject) or an id (written with that id). */
  static final class SchemaSource {
    @Option(names = "--value-schema", paramLabel = "FILE|JSON", description = "Value schema: a file (.avsc) or "
        + "the schema's JSON itself. Or --property value.schema=JSON, value.schema.file=FILE, value.schema.id=ID.")
    String file;

    @Option(names = "--value-schema-id", paramLabel = "ID", description = "Value schema by registry id.")
    Integer id;
  }

  /** The key schema, likewise; none for null keys. */
  static final class KeySchemaSource {
    @Option(names = "--key-schema", paramLabel = "FILE|JSON", description = "Key schema: a file (.avsc) or the "
        + "schema's JSON. Or --property key.schema=JSON, key.schema.file=FILE, key.schema.id=ID.")
    String file;

    @Option(names = "--key-schema-id", paramLabel = "ID", description = "Key schema by registry id.")
    Integer id;
  }

  @Option(names = "--format", paramLabel = "avro-json|json", defaultValue = "avro-json",
      description = "How lines are written: Avro's JSON encoding (default, as Confluent's console producer reads "
          + "them: unions as {\"string\": \"x\"}) or plain JSON (as consume prints by default). A line that "
          + "consume printed is taken as it is: its key and value.")
  String format;

  @Option(names = "--max-line-bytes", paramLabel = "N", defaultValue = "" + Utf8Lines.DEFAULT_MAX_LINE_BYTES,
      description = "The longest line read, in bytes (8388608, 8 MiB, by default). A longer line stops the tool "
          + "with its number, as a line that is not valid UTF-8 does.")
  int maxLineBytes;

  InputStream input = System.in;

  @Override
  public Integer call() throws IOException {
    JsonLines.Format rendering = JsonLines.Format.of(format);
    Map<String, Object> config = broker.kafkaConfig();
    Schema valueSchema;
    Schema keySchema = null;
    String valueText = value != null ? value.file : property(config, "value.schema", "value.schema.file");
    Integer valueId = value != null ? value.id : id(config, "value.schema.id");
    String keyText = key != null ? key.file : property(config, "key.schema", "key.schema.file");
    Integer keyId = key != null ? key.id : id(config, "key.schema.id");
    if (maxLineBytes < 1) {
      throw new CliException("--max-line-bytes must be at least 1, was " + maxLineBytes, 2);
    }
    if (valueText == null && valueId == null) {
      throw new CliException("produce needs the value's schema: --value-schema FILE|JSON, --value-schema-id ID, "
          + "or --property value.schema=JSON (value.schema.file, value.schema.id)", 2);
    }
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(config)) {
      valueSchema = schema(ids(registry, false), valueText, valueId, "--value-schema");
      if (keyText != null || keyId != null) {
        keySchema = schema(ids(registry, true), keyText, keyId, "--key-schema");
      }
    }
    InputLines inputLines = InputLines.of(config, keySchema != null);
    BrokerCheck.reachable(config, BrokerOptions.maxBlock(config), "max.block.ms");
    KafkaAvroSerializer values = serializer(config, valueId, false);
    KafkaAvroSerializer keys = keySchema == null ? null : serializer(config, keyId, true);
    Sends sends = new Sends();
    try (values; KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
        new ByteArraySerializer())) {
      Utf8Lines lines = new Utf8Lines(input, maxLineBytes);
      while (sends.failure() == null) {
        String line;
        try {
          line = lines.next();
        } catch (Utf8Lines.BadLineException e) {
          producer.flush();
          throw new CliException(e.getMessage() + " (" + sends.acknowledged() + " record(s) before it were sent, "
              + "nothing after it)");
        }
        if (line == null) {
          break;
        }
        int number = lines.number();
        if (line.isBlank()) {
          continue;
        }
        byte[] keyBytes;
        byte[] valueBytes;
        try {
          InputLines.Parts parts = inputLines.parse(line);
          keyBytes = keyBytes(keys, keySchema, parts.key(), rendering);
          valueBytes = values.serialize(topic, datum(parts.value(), valueSchema, rendering));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          producer.flush();
          throw new CliException("line " + number + " is not JSON" + SchemaFiles.why(e)
              + " (" + sends.acknowledged() + " record(s) before it were sent, nothing after it)");
        } catch (IllegalArgumentException | org.apache.avro.AvroRuntimeException
            | org.apache.kafka.common.errors.SerializationException e) {
          producer.flush();
          String registry = RegistryRefusals.describe(e);
          if (registry != null) {
            // The registry's doing, not the line's: the schema refused, or the registry not answering.
            throw new CliException(registry + " (" + RegistryRefusals.sentBefore(sends.acknowledged(), number)
                + ")");
          }
          // A rule of the subject's data contract that failed (a condition, say) refuses a line that matches.
          String why = e.getMessage() != null && e.getMessage().startsWith("Rule failed: ")
              ? " is refused by the subject's data contract: " : " does not match the schema: ";
          throw new CliException("line " + number + why + e.getMessage()
              + " (" + sends.acknowledged() + " record(s) before it were sent, nothing after it)");
        }
        // In flight, as Kafka batches them; the first failure stops the reading and is reported with its line.
        producer.send(new ProducerRecord<>(topic, keyBytes, valueBytes), sends.callback(number));
      }
      producer.flush();
    } finally {
      if (keys != null) {
        keys.close();
      }
    }
    Sends.Failure failure = sends.failure();
    if (failure != null) {
      throw new CliException("line " + failure.line() + " could not be sent: " + failure.cause().getMessage()
          + " (" + sends.acknowledged() + " record(s) were sent)");
    }
    spec.commandLine().getErr().println("kavro: sent " + sends.acknowledged() + " record(s) to " + topic);
    return 0;
  }

  /** A datum of {@code schema} from a JSON value in {@code rendering}, checked field by field. */
  private static Object datum(JsonNode value, Schema schema, JsonLines.Format rendering) throws IOException {
    return JsonLines.parse(JsonInput.avroJson(value, schema, rendering).toString(), schema);
  }

  /** The key: Avro with a key schema, the text of a printed line's key without one, or none. */
  private byte[] keyBytes(KafkaAvroSerializer keys, Schema keySchema, JsonNode key, JsonLines.Format rendering)
      throws IOException {
    if (key == null || key.isNull()) {
      return null;
    }
    if (keySchema != null) {
      return keys.serialize(topic, datum(key, keySchema, rendering));
    }
    return (key.isTextual() ? key.asText() : key.toString()).getBytes(StandardCharsets.UTF_8);
  }

  /** The records in flight: how many the broker acknowledged, and the first that failed. Thread-safe. */
  private static final class Sends {
    /** A record the broker did not take, and why. */
    record Failure(int line, Exception cause) {}

    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicReference<Failure> failure = new AtomicReference<>();

    Callback callback(int line) {
      return (metadata, e) -> {
        if (e == null) {
          acknowledged.incrementAndGet();
        } else {
          failure.compareAndSet(null, new Failure(line, e));
        }
      };
    }

    long acknowledged() {
      return acknowledged.get();
    }

    Failure failure() {
      return failure.get();
    }
  }

  /** The text of a schema property, or the file another property names. */
  private static String property(Map<String, Object> config, String inline, String fileKey) {
    Object text = config.get(inline);
    if (text != null) {
      return text.toString();
    }
    Object file = config.get(fileKey);
    return file == null ? null : file.toString();
  }

  private static Integer id(Map<String, Object> config, String key) {
    Object value = config.get(key);
    if (value == null) {
      return null;
    }
    try {
      return Integer.valueOf(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new CliException(key + " must be a schema id, was '" + value + "'", 2);
    }
  }

  /**
   * The client whose ids the topic's keys or values carry: the registry's, or where ids count per subject
   * (schema-repo), the subject the serializer writes under, which is the topic's ({@code TopicNameStrategy}, the
   * only strategy such a registry takes).
   */
  private SchemaRegistryClient ids(SchemaRegistryClient registry, boolean isKey) {
    return registry.idsPerSubject() ? registry.forSubject(topic + (isKey ? "-key" : "-value")) : registry;
  }

  /** The schema of an id, or of a file or the schema's JSON itself (which starts with {, [ or "). */
  private static Schema schema(SchemaRegistryClient registry, String fileOrJson, Integer id, String option) {
    if (id != null) {
      return registry.schemaById(id);
    }
    String text = fileOrJson.strip();
    boolean inline = text.startsWith("{") || text.startsWith("[") || text.startsWith("\"");
    String what = inline ? option : option + " " + text;
    return SchemaFiles.parse(new Schema.Parser(), what, inline ? text : SchemaFiles.read(what, Path.of(text)));
  }

  private static KafkaAvroSerializer serializer(Map<String, Object> config, Integer id, boolean isKey) {
    Map<String, Object> settings = new HashMap<>(config);
    if (id != null) {
      settings.put("auto.register.schemas", false);
      settings.put("use.schema.id", id);
    }
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(settings, isKey);
    return serializer;
  }
}
