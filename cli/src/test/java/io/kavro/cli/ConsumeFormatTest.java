package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37, item 7: with Confluent's options, {@code consume} prints what {@code kafka-avro-console-consumer} prints.
 * Each expected line is written from Confluent's {@code SchemaMessageFormatter.writeTo} (confluentinc/schema-registry
 * at 794611b) and Kafka's {@code ConsoleConsumer}, not from Kavro's output: fields in the order timestamp, partition,
 * offset, headers, key, value; {@code key.separator} (a tab) between them; {@code schema.id.separator} (a tab) before
 * an id; {@code null.literal} for a null key, value, key id or header value, but the plain word {@code null} for a
 * tombstone's id; values in Avro's JSON encoding.
 */
@ExtendWith(KavroStackExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsumeFormatTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
        {"name":"note","type":["null","string"],"default":null}]}""");
  private static final long T0 = 1_700_000_000_000L;

  private final TestStack stack;
  private final String topic = "cli-format-" + UUID.randomUUID();
  private int keyId;
  private int valueId;

  ConsumeFormatTest(TestStack stack) {
    this.stack = stack;
  }

  /** What one run printed, and its exit status. */
  private record Run(int status, String out, String err) {}

  /**
   * Three records on partition 0: an Avro key "k1" with two headers; no key and no header; the key "k3" and no
   * value (a tombstone). Each with its own CreateTime.
   */
  @BeforeAll
  void produce() throws Exception {
    byte[] k1 = serialize("k1", true);
    byte[] k3 = serialize("k3", true);
    keyId = ByteBuffer.wrap(k1, 1, 4).getInt();
    RecordHeaders headers = new RecordHeaders();
    headers.add("h1", "v1".getBytes(StandardCharsets.UTF_8));
    headers.add("h2", "v2".getBytes(StandardCharsets.UTF_8));
    byte[] first = serialize(order(1, "rush"), false);
    valueId = ByteBuffer.wrap(first, 1, 4).getInt();
    send(new ProducerRecord<>(topic, 0, T0, k1, first, headers),
        new ProducerRecord<>(topic, 0, T0 + 1, (byte[]) null, serialize(order(2, null), false)),
        new ProducerRecord<>(topic, 0, T0 + 2, k3, (byte[]) null));
  }

  @Test
  void noProperties_theValueAlone_inAvrosJsonEncoding() {
    assertLines(consume(), "{\"id\":1,\"note\":{\"string\":\"rush\"}}", "{\"id\":2,\"note\":null}", "null");
  }

  @Test
  void printKey_keySeparatorBetween_nullKeyAsNull() {
    assertLines(consume("--property", "print.key=true", "--property", "key.separator= | "),
        "\"k1\" | {\"id\":1,\"note\":{\"string\":\"rush\"}}",
        "null | {\"id\":2,\"note\":null}",
        "\"k3\" | null");
  }

  @Test
  void printTimestamp_typeAndTimeFirst() {
    assertLines(consume("--property", "print.timestamp=true"),
        "CreateTime:" + T0 + "\t{\"id\":1,\"note\":{\"string\":\"rush\"}}",
        "CreateTime:" + (T0 + 1) + "\t{\"id\":2,\"note\":null}",
        "CreateTime:" + (T0 + 2) + "\tnull");
  }

  @Test
  void printPartitionAndOffset() {
    assertLines(consume("--property", "print.offset=true", "--property", "print.partition=true"),
        "Partition:0\tOffset:0\t{\"id\":1,\"note\":{\"string\":\"rush\"}}",
        "Partition:0\tOffset:1\t{\"id\":2,\"note\":null}",
        "Partition:0\tOffset:2\tnull");
  }

  /** As Confluent's formatter: a header's value is the null literal unless headers.deserializer reads it. */
  @Test
  void printHeaders_nullLiteralValues_orDeserializedWithTheirSeparator() {
    assertLines(consume("--property", "print.headers=true"),
        "h1:null,h2:null\t{\"id\":1,\"note\":{\"string\":\"rush\"}}",
        "NO_HEADERS\t{\"id\":2,\"note\":null}",
        "NO_HEADERS\tnull");
    assertLines(consume("--property", "print.headers=true", "--property", "headers.separator=;",
            "--property", "headers.deserializer=org.apache.kafka.common.serialization.StringDeserializer"),
        "h1:v1;h2:v2\t{\"id\":1,\"note\":{\"string\":\"rush\"}}",
        "NO_HEADERS\t{\"id\":2,\"note\":null}",
        "NO_HEADERS\tnull");
  }

  @Test
  void printSchemaIds_afterKeyAndValue_nullForAbsentOnes() {
    assertLines(consume("--property", "print.key=true", "--property", "print.schema.ids=true"),
        "\"k1\"\t" + keyId + "\t{\"id\":1,\"note\":{\"string\":\"rush\"}}\t" + valueId,
        "null\tnull\t{\"id\":2,\"note\":null}\t" + valueId,
        "\"k3\"\t" + keyId + "\tnull\tnull");
    assertLines(consume("--property", "print.schema.ids=true", "--property", "schema.id.separator=#"),
        "{\"id\":1,\"note\":{\"string\":\"rush\"}}#" + valueId,
        "{\"id\":2,\"note\":null}#" + valueId,
        "null#null");
  }

  /** null.literal replaces a null key, key id and value, but a tombstone's id stays the word null, as Confluent's. */
  @Test
  void nullLiteral_forNullKeyAndValue() {
    assertLines(consume("--property", "print.key=true", "--property", "print.schema.ids=true",
            "--property", "null.literal=<NULL>"),
        "\"k1\"\t" + keyId + "\t{\"id\":1,\"note\":{\"string\":\"rush\"}}\t" + valueId,
        "<NULL>\t<NULL>\t{\"id\":2,\"note\":null}\t" + valueId,
        "\"k3\"\t" + keyId + "\t<NULL>\tnull");
  }

  @Test
  void everyField_inConfluentsOrder_withLineSeparator() {
    Run run = consume("--property", "print.key=true", "--property", "print.headers=true",
        "--property", "print.offset=true", "--property", "print.partition=true",
        "--property", "print.timestamp=true", "--property", "line.separator=~\n",
        "--property", "headers.deserializer=org.apache.kafka.common.serialization.StringDeserializer");
    assertThat(run.out()).as(run.err()).isEqualTo(
        "CreateTime:" + T0 + "\tPartition:0\tOffset:0\th1:v1,h2:v2\t\"k1\"\t{\"id\":1,\"note\":{\"string\":\"rush\"}}~\n"
        + "CreateTime:" + (T0 + 1) + "\tPartition:0\tOffset:1\tNO_HEADERS\tnull\t{\"id\":2,\"note\":null}~\n"
        + "CreateTime:" + (T0 + 2) + "\tPartition:0\tOffset:2\tNO_HEADERS\t\"k3\"\tnull~\n");
  }

  /** A key.deserializer prints keys by its toString(), and then (as Confluent's) no key schema id. */
  @Test
  void keyDeserializer_printsTheKeyAsItReadsIt() throws Exception {
    String plain = topic + "-plain";
    send(new ProducerRecord<>(plain, 0, T0, "order-1".getBytes(StandardCharsets.UTF_8),
        serialize(order(1, null), false)));
    Run run = consume(plain, 1, "--property", "print.key=true", "--property", "print.schema.ids=true",
        "--property", "key.deserializer=org.apache.kafka.common.serialization.StringDeserializer");
    assertThat(run.out()).as(run.err()).isEqualTo("order-1\t{\"id\":1,\"note\":null}\t" + valueId + "\n");
  }

  /**
   * A consumer config file commonly names key.deserializer, for the Kafka consumer: as in Kafka's and Confluent's
   * formatters, only --property shapes what prints. Neither is --format json refused, nor do keys print by it.
   */
  @Test
  void commandConfig_keyDeserializer_isTheConsumersNotThePrinters(@TempDir Path dir) throws Exception {
    String config = Files.writeString(dir.resolve("consumer.properties"),
        "key.deserializer=org.apache.kafka.common.serialization.ByteArrayDeserializer\n").toString();

    Run json = consume("--command-config", config, "--format", "json", "--property", "print.schema.ids=false");
    assertThat(json.status()).as(json.err()).isZero();
    assertThat(json.out().split("\n")[0]).startsWith("{\"partition\":0,\"offset\":0,\"timestamp\":" + T0
        + ",\"key\":\"k1\",");
    assertLines(consume("--command-config", config, "--property", "print.key=true"),
        "\"k1\"\t{\"id\":1,\"note\":{\"string\":\"rush\"}}",
        "null\t{\"id\":2,\"note\":null}",
        "\"k3\"\tnull");
  }

  @Test
  void unknownProperty_refusedNamingIt_andTheKeyMeant() {
    Run bogus = consume("--property", "bogus.prop=1");
    assertThat(bogus.status()).isEqualTo(2);
    assertThat(bogus.out()).isEmpty();
    assertThat(bogus.err()).startsWith("kavro: unknown --property 'bogus.prop': consume takes Confluent's "
        + "print.timestamp, print.partition").contains("--command-config");
    Run typo = consume("--property", "print.keys=true");
    assertThat(typo.status()).isEqualTo(2);
    assertThat(typo.err()).isEqualTo("kavro: unknown --property 'print.keys': did you mean print.key?\n");
    Run notBoolean = consume("--property", "print.key=yes");
    assertThat(notBoolean.status()).isEqualTo(2);
    assertThat(notBoolean.err()).contains("print.key must be true or false, was 'yes'");
    Run envelope = consume("--format", "json", "--property", "key.separator=,");
    assertThat(envelope.status()).isEqualTo(2);
    assertThat(envelope.err()).contains("key.separator lays out Confluent's lines");
  }

  /** Kavro's own JSON envelope stays behind --format json, with print.key and print.schema.ids. */
  @Test
  void formatJson_theEnvelope() {
    Run run = consume("--format", "json", "--property", "print.schema.ids=false");
    assertThat(run.out().split("\n")).hasSize(3);
    assertThat(run.out().split("\n")[0]).startsWith("{\"partition\":0,\"offset\":0,\"timestamp\":" + T0
        + ",\"key\":\"k1\",\"value\":{\"id\":1,\"note\":\"rush\"}}");
  }

  /**
   * A record that cannot be decoded ends Confluent's lines (as Confluent's console consumer ends), naming its
   * partition and offset; with --skip-message-on-error it is skipped with that line on standard error, and the
   * records after it print.
   */
  @Test
  void skipMessageOnError_goesPastABadRecord() throws Exception {
    String poisoned = topic + "-poison";
    send(new ProducerRecord<>(poisoned, 0, T0, (byte[]) null, serialize(order(1, null), false)),
        new ProducerRecord<>(poisoned, 0, T0 + 1, (byte[]) null, new byte[] {0, 0, 0}),
        new ProducerRecord<>(poisoned, 0, T0 + 2, (byte[]) null, serialize(order(3, null), false)));

    Run stops = consume(poisoned, 3);
    assertThat(stops.status()).isEqualTo(1);
    assertThat(stops.out()).isEqualTo("{\"id\":1,\"note\":null}\n");
    assertThat(stops.err()).startsWith("kavro: cannot print the record at partition 0, offset 1: ")
        .contains("shorter than the 5-byte header").contains("--skip-message-on-error");

    Run skips = consume(poisoned, 3, "--skip-message-on-error");
    assertThat(skips.status()).as(skips.err()).isZero();
    assertThat(skips.out()).isEqualTo("{\"id\":1,\"note\":null}\n{\"id\":3,\"note\":null}\n");
    assertThat(skips.err().strip().lines()).hasSize(1);
    assertThat(skips.err()).startsWith("kavro: skipped the record at partition 0, offset 1: ")
        .contains("shorter than the 5-byte header");
  }

  private static void assertLines(Run run, String... expected) {
    assertThat(run.out()).as(run.err()).isEqualTo(String.join("\n", expected) + "\n");
    assertThat(run.status()).isZero();
  }

  private Run consume(String... options) {
    return consume(topic, 3, options);
  }

  /** {@code kavro consume} of the topic's partition 0 from its start, for {@code records} records. */
  private Run consume(String from, int records, String... options) {
    List<String> args = new ArrayList<>(List.of("consume", "--topic", from, "--partition", "0",
        "--from-beginning", "--max-messages", String.valueOf(records), "--timeout-ms", "5000",
        "--bootstrap-server", stack.bootstrapServers(), "--schema-registry-url", stack.registryUrl()));
    args.addAll(List.of(options));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    return new Run(status, out.toString(), err.toString());
  }

  private static GenericRecord order(long id, String note) {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", id);
    order.put("note", note);
    return order;
  }

  private byte[] serialize(Object datum, boolean isKey) {
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", stack.registryUrl()), isKey);
      return serializer.serialize(topic, datum);
    }
  }

  @SafeVarargs
  private void send(ProducerRecord<byte[], byte[]>... records) throws Exception {
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
        stack.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
      for (ProducerRecord<byte[], byte[]> record : records) {
        producer.send(record).get();
      }
    }
  }
}
