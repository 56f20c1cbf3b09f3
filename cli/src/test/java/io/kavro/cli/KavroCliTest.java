package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Every command of {@code kavro}, end to end on a real broker and a real registry (the testkit's stack). */
@ExtendWith(KavroStackExtension.class)
class KavroCliTest {
  private static final String ORDER = """
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
        {"name":"note","type":["null","string"],"default":null}]}""";

  private final TestStack stack;

  @TempDir
  Path dir;

  KavroCliTest(TestStack stack) {
    this.stack = stack;
  }

  /** What one run printed, and its exit status. */
  record Run(int status, String out, String err) {
    List<String> lines() {
      return out.isBlank() ? List.of() : Arrays.asList(out.strip().split("\n"));
    }
  }

  private Run kavro(String stdin, String... args) {
    return kavro(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
  }

  private Run kavro(InputStream stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    InputStream original = System.in;
    System.setIn(stdin);
    try {
      int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
      return new Run(status, out.toString(), err.toString());
    } finally {
      System.setIn(original);
    }
  }

  /** The command with the stack's registry, and its broker for the commands that talk to Kafka. */
  private String[] with(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    if (args[0].equals("consume") || args[0].equals("produce")) {
      all.addAll(List.of("--bootstrap-server", stack.bootstrapServers()));
    }
    all.addAll(List.of("--schema-registry-url", stack.registryUrl()));
    return all.toArray(String[]::new);
  }

  private Path schemaFile() throws Exception {
    return Files.writeString(dir.resolve("order.avsc"), ORDER);
  }

  @Test
  void produceThenConsume_jsonLinesWithPartitionOffsetKeyValueAndSchemaId() throws Exception {
    String topic = "cli-orders-" + UUID.randomUUID();
    Run produced = kavro("""
        {"id": 1, "note": null}
        {"id": 2, "note": {"string": "rush"}}
        """, with("produce", "--topic", topic, "--value-schema", schemaFile().toString()));
    assertThat(produced.status()).as(produced.err()).isZero();
    assertThat(produced.err()).contains("sent 2 record(s)");

    Run consumed = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "2",
        "--format", "json"));

    assertThat(consumed.status()).as(consumed.err()).isZero();
    assertThat(consumed.lines()).hasSize(2);
    assertThat(consumed.lines().get(0)).startsWith("{\"partition\":0,\"offset\":0,\"timestamp\":")
        .contains("\"key\":null,\"value\":{\"id\":1,\"note\":null},\"schemaId\":");
    assertThat(consumed.lines().get(1)).contains("\"value\":{\"id\":2,\"note\":\"rush\"}");

    Run avroJson = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "2",
        "--format", "avro-json"));
    assertThat(avroJson.lines().get(1)).contains("\"value\":{\"id\":2,\"note\":{\"string\":\"rush\"}}");
  }

  /**
   * How many records {@code topic} holds, from its partitions' end offsets: that nothing more was sent, without
   * consuming until an idle timeout runs out.
   */
  private long records(String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers",
        stack.bootstrapServers()), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
  static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * Issue 25, item 2: a wrong broker or a missing topic is an error within seconds, with Kafka's reason, never an
   * empty success (consume printed nothing and exited 0; produce hung 62.8 s).
   */
  @Test
  void unreachableBrokerOrMissingTopic_exit1WithinSeconds() throws Exception {
    String deadBroker = "127.0.0.1:" + closedPort();
    long start = System.nanoTime();
    Run consumeDead = kavro("", "consume", "--topic", "t", "--bootstrap-server", deadBroker,
        "--schema-registry-url", stack.registryUrl(), "--timeout-ms", "1000");
    // Short timeouts, each waited out in full: the tool's defaults are bounded at the end without waiting them out.
    Run produceDead = kavro("{\"id\": 1, \"note\": null}\n", "produce", "--topic", "t", "--bootstrap-server",
        deadBroker, "--schema-registry-url", stack.registryUrl(), "--value-schema", schemaFile().toString(),
        "--property", "max.block.ms=1000");
    long seconds = (System.nanoTime() - start) / 1_000_000_000;

    assertThat(consumeDead.status()).isEqualTo(1);
    assertThat(consumeDead.err()).startsWith("kavro: cannot reach the Kafka broker at " + deadBroker);
    assertThat(produceDead.status()).isEqualTo(1);
    assertThat(produceDead.err()).startsWith("kavro: cannot reach the Kafka broker at " + deadBroker);
    assertThat(seconds).as("both, in seconds").isLessThan(40);
    // Without max.block.ms or default.api.timeout.ms, the tool waits seconds for a broker, not Kafka's minute.
    BrokerOptions broker = new BrokerOptions();
    broker.client = new ClientOptions();
    Map<String, Object> defaults = broker.kafkaConfig(Map.of(BrokerOptions.BOOTSTRAP_ENV, deadBroker,
        ClientOptions.REGISTRY_URL_ENV, stack.registryUrl()));
    assertThat(BrokerOptions.maxBlock(defaults)).as("produce's wait, by default").isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults).containsEntry("default.api.timeout.ms", 10_000);

    Run missing = kavro("", with("consume", "--topic", "cli-missing-" + UUID.randomUUID(), "--timeout-ms", "3000"));
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).contains("does not exist");
  }

  /**
   * Issue 25, item 9: with a group, each run prints the records after the last one it printed, none skipped
   * (the tool committed past what it printed); and -1 is no limit, as in Confluent's tool.
   */
  @Test
  void group_commitsOnlyWhatItPrinted_andMinusOneIsNoLimit() throws Exception {
    String topic = "cli-group-" + UUID.randomUUID();
    StringBuilder input = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      input.append("{\"id\": ").append(i).append(", \"note\": null}\n");
    }
    assertThat(kavro(input.toString(), with("produce", "--topic", topic, "--value-schema", schemaFile().toString()))
        .status()).isZero();
    String group = "cli-group-" + UUID.randomUUID();

    Run first = kavro("", with("consume", "--topic", topic, "--group", group, "--from-beginning",
        "--max-messages", "2", "--format", "json"));
    Run second = kavro("", with("consume", "--topic", topic, "--group", group, "--max-messages", "2",
        "--format", "json"));
    Run rest = kavro("", with("consume", "--topic", topic, "--group", group, "--max-messages", "2",
        "--format", "json"));
    // -1: no limit, until --timeout-ms passes without a record (waited out; assigned: no group join in it)
    Run unlimited = kavro("", with("consume", "--topic", topic, "--partition", "0", "--offset", "2",
        "--max-messages", "-1", "--timeout-ms", "3000", "--format", "json"));

    assertThat(first.lines()).extracting(l -> l.replaceAll(".*\"offset\":(\\d+).*", "$1")).containsExactly("0", "1");
    assertThat(second.lines()).extracting(l -> l.replaceAll(".*\"offset\":(\\d+).*", "$1")).containsExactly("2", "3");
    assertThat(rest.lines()).extracting(l -> l.replaceAll(".*\"offset\":(\\d+).*", "$1")).containsExactly("4", "5");
    assertThat(unlimited.lines()).extracting(l -> l.replaceAll(".*\"offset\":(\\d+).*", "$1"))
        .containsExactly("2", "3", "4", "5");
  }

  /**
   * Issue 25, items 1 and 5: Avro keys print decoded, with their schema id (they printed as raw bytes); the
   * broker and the registry may come from --broker-list and the command config, as Confluent's tools take them.
   */
  @Test
  void avroKeys_decoded_andConnectionFromBrokerListAndCommandConfig() throws Exception {
    String topic = "cli-keys-" + UUID.randomUUID();
    Path keySchema = Files.writeString(dir.resolve("key.avsc"),
        "{\"type\":\"record\",\"name\":\"OrderKey\",\"fields\":[{\"name\":\"region\",\"type\":\"string\"}]}");
    Run produced = kavro("{\"key\": {\"region\": \"eu\"}, \"value\": {\"id\": 1, \"note\": null}}\n",
        with("produce", "--topic", topic, "--value-schema", schemaFile().toString(), "--key-schema",
            keySchema.toString()));
    assertThat(produced.status()).as(produced.err()).isZero();
    Path config = Files.writeString(dir.resolve("cli.properties"), "schema.registry.url=" + stack.registryUrl()
        + "\n");

    Run consumed = kavro("", "consume", "--topic", topic, "--from-beginning", "--max-messages", "1",
        "--broker-list", stack.bootstrapServers(), "--command-config", config.toString(), "--format", "json");

    assertThat(consumed.status()).as(consumed.err()).isZero();
    assertThat(consumed.out()).contains("\"key\":{\"region\":\"eu\"},\"keySchemaId\":")
        .contains("\"value\":{\"id\":1,\"note\":null}");
    Run asText = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "1",
        "--key-format", "string", "--format", "json"));
    assertThat(asText.out()).doesNotContain("keySchemaId");
    Run noRegistry = kavro("", "consume", "--topic", topic, "--bootstrap-server", stack.bootstrapServers());
    assertThat(noRegistry.status()).isEqualTo(2);
    assertThat(noRegistry.err()).contains("schema.registry.url in --command-config");
  }

  /** Issue 25, item 7: records are sent in flight and flushed once (one at a time took 66 s for 10,000). */
  @Test
  void produce_manyLines_allSent() throws Exception {
    String topic = "cli-many-" + UUID.randomUUID();
    StringBuilder input = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      input.append("{\"id\": ").append(i).append(", \"note\": null}\n");
    }

    Run produced = kavro(input.toString(), with("produce", "--topic", topic, "--value-schema",
        schemaFile().toString()));

    assertThat(produced.status()).as(produced.err()).isZero();
    assertThat(produced.err()).contains("sent 5000 record(s)");
    Run consumed = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "5000",
        "--timeout-ms", "20000")); // ends at the last record
    assertThat(consumed.lines()).hasSize(5_000);
    assertThat(consumed.lines().get(4_999)).contains("\"id\":4999");
    assertThat(records(topic)).as("records on the topic").isEqualTo(5_000);
  }

  /**
   * Issue 25, items 8 and 10: what consume prints, produce reads back as it is (it refused consume's JSON), and
   * malformed JSON is one line that names the line (it was two, the second pointing at line 1).
   */
  @Test
  void consumeOutput_producedBackAsItIs_andMalformedJsonIsOneLine() throws Exception {
    String topic = "cli-copy-" + UUID.randomUUID();
    assertThat(kavro("{\"id\": 1, \"note\": {\"string\": \"rush\"}}\n{\"id\": 2, \"note\": null}\n",
        with("produce", "--topic", topic, "--value-schema", schemaFile().toString())).status()).isZero();
    Run printed = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "2",
        "--format", "json"));
    String copy = topic + "-copy";

    Run copied = kavro(printed.out(), with("produce", "--topic", copy, "--value-schema", schemaFile().toString(),
        "--format", "json"));
    assertThat(copied.status()).as(copied.err()).isZero();
    Run reread = kavro("", with("consume", "--topic", copy, "--from-beginning", "--max-messages", "2",
        "--format", "json"));
    assertThat(reread.lines()).extracting(l -> l.replaceAll(".*(\"value\":\\{[^}]*\\}).*", "$1"))
        .containsExactly("\"value\":{\"id\":1,\"note\":\"rush\"}", "\"value\":{\"id\":2,\"note\":null}");

    Run malformed = kavro("{\"id\": 1, \"note\": null}\n{\"id\": 2,\n", with("produce", "--topic", copy,
        "--value-schema", schemaFile().toString()));
    assertThat(malformed.status()).isEqualTo(1);
    assertThat(malformed.err().strip().lines()).hasSize(1);
    assertThat(malformed.err()).startsWith("kavro: line 2 is not JSON").doesNotContain("Source");
  }

  /**
   * Issue 25, item 5: Confluent's console command lines work as they are: --broker-list, --property with
   * value.schema (inline), key.schema, parse.key and print.key, --producer.config and --consumer.config; and the
   * broker and registry from the environment.
   */
  @Test
  void confluentsCommandLines_asTheyAre() throws Exception {
    String topic = "cli-confluent-" + UUID.randomUUID();
    Path config = Files.writeString(dir.resolve("client.properties"), "schema.registry.url=" + stack.registryUrl()
        + "\n");

    Run produced = kavro("\"k1\"\t{\"id\": 1, \"note\": null}\n\"k2\"\t{\"id\": 2, \"note\": {\"string\": \"rush\"}}\n",
        "produce", "--broker-list", stack.bootstrapServers(), "--topic", topic,
        "--producer.config", config.toString(),
        "--property", "value.schema=" + ORDER.replace("\n", " "),
        "--property", "key.schema=\"string\"",
        "--property", "parse.key=true");
    assertThat(produced.status()).as(produced.err()).isZero();

    Run consumed = kavro("", "consume", "--bootstrap-server", stack.bootstrapServers(), "--topic", topic,
        "--from-beginning", "--max-messages", "2", "--consumer.config", config.toString(),
        "--property", "print.key=true", "--property", "print.schema.ids=false");
    assertThat(consumed.status()).as(consumed.err()).isZero();
    // Issue 37, item 7: as Confluent's console consumer prints them (the key, a tab, the value in Avro's JSON).
    assertThat(consumed.lines()).containsExactly("\"k1\"\t{\"id\":1,\"note\":null}",
        "\"k2\"\t{\"id\":2,\"note\":{\"string\":\"rush\"}}");

    Run inline = kavro("{\"id\": 3, \"note\": null}\n", with("produce", "--topic", topic, "--value-schema",
        ORDER.replace("\n", " ")));
    assertThat(inline.status()).as(inline.err()).isZero();

    BrokerOptions broker = new BrokerOptions();
    broker.client = new ClientOptions();
    assertThat(broker.kafkaConfig(Map.of(BrokerOptions.BOOTSTRAP_ENV, "b:9092",
        ClientOptions.REGISTRY_URL_ENV, "http://r:8081")))
        .containsEntry("bootstrap.servers", "b:9092").containsEntry("schema.registry.url", "http://r:8081");
  }

  @Test
  void produce_badJsonLine_stopsWithItsNumber_andSendsNothingAfter() throws Exception {
    String topic = "cli-bad-" + UUID.randomUUID();

    Run produced = kavro("""
        {"id": 1, "note": null}
        {"id": "two", "note": null}
        {"id": 3, "note": null}
        """, with("produce", "--topic", topic, "--value-schema", schemaFile().toString()));

    assertThat(produced.status()).isEqualTo(1);
    assertThat(produced.err().strip()).startsWith("kavro: line 2 does not match the schema")
        .contains("1 record(s) before it were sent, nothing after it").doesNotContain("\tat ");
    Run consumed = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "1",
        "--timeout-ms", "20000")); // ends at the last record
    assertThat(consumed.lines()).hasSize(1).allMatch(line -> line.contains("\"id\":1"));
    assertThat(records(topic)).as("records on the topic").isEqualTo(1);
  }

  /**
   * Issue 33, item D: ISO-8859-1 on standard input ("caf\xe9") was sent as U+FFFD with exit 0. It stops the tool
   * as a line that does not match: its number and the byte, the lines before it sent, nothing of it or after it.
   */
  @Test
  void produce_invalidUtf8_stopsWithItsLineNumber_andSendsNothingOfIt() throws Exception {
    String topic = "cli-latin1-" + UUID.randomUUID();
    java.io.ByteArrayOutputStream stdin = new java.io.ByteArrayOutputStream();
    stdin.writeBytes("{\"id\": 1, \"note\": null}\n{\"id\": 2, \"note\": {\"string\": \"caf"
        .getBytes(StandardCharsets.UTF_8));
    stdin.write(0xe9);
    stdin.writeBytes("\"}}\n{\"id\": 3, \"note\": null}\n".getBytes(StandardCharsets.UTF_8));

    Run produced = kavro(new ByteArrayInputStream(stdin.toByteArray()), with("produce", "--topic", topic,
        "--value-schema", schemaFile().toString()));

    assertThat(produced.status()).isEqualTo(1);
    assertThat(produced.err()).isEqualTo("kavro: line 2 is not valid UTF-8 (at byte 34) (1 record(s) before it "
        + "were sent, nothing after it)\n");
    Run consumed = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "1",
        "--timeout-ms", "20000")); // ends at the last record
    assertThat(consumed.lines()).hasSize(1).allMatch(line -> line.contains("\"id\":1"));
    assertThat(records(topic)).as("records on the topic").isEqualTo(1);
  }

  /**
   * Issue 33, item D: 100 MB without a newline was an OutOfMemoryError with nothing on stderr. The line stops at
   * the limit (8 MiB by default, --max-line-bytes): one error line with its number and the limit, exit 1.
   */
  @Test
  void produce_lineOverTheLimit_oneErrorLineWithItsNumberAndTheLimit() throws Exception {
    String topic = "cli-long-" + UUID.randomUUID();
    InputStream hundredMegabytes = new InputStream() {
      private long left = 100L * 1024 * 1024;

      @Override
      public int read() {
        return left-- > 0 ? 'x' : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left <= 0) {
          return -1;
        }
        int n = (int) Math.min(len, left);
        java.util.Arrays.fill(b, off, off + n, (byte) 'x');
        left -= n;
        return n;
      }
    };

    Run endless = kavro(hundredMegabytes, with("produce", "--topic", topic, "--value-schema",
        schemaFile().toString()));
    Run limited = kavro("{\"id\": 1, \"note\": null}\n{\"id\": 2, \"note\": \"" + "y".repeat(100) + "\"}\n",
        with("produce", "--topic", topic, "--value-schema", schemaFile().toString(), "--max-line-bytes", "64"));

    assertThat(endless.status()).isEqualTo(1);
    assertThat(endless.err()).isEqualTo("kavro: line 1 is longer than 8388608 bytes (the limit of --max-line-bytes)"
        + " (0 record(s) before it were sent, nothing after it)\n");
    assertThat(limited.status()).isEqualTo(1);
    assertThat(limited.err()).isEqualTo("kavro: line 2 is longer than 64 bytes (the limit of --max-line-bytes)"
        + " (1 record(s) before it were sent, nothing after it)\n");
    assertThat(kavro("", with("produce", "--topic", topic, "--value-schema", schemaFile().toString(),
        "--max-line-bytes", "0")).err()).isEqualTo("kavro: --max-line-bytes must be at least 1, was 0\n");
  }

  /** Jackson's reason, whole (issue 49, item 10), without the token it quotes of the file. */
  private static final String UNRECOGNIZED_TOKEN = "Unrecognized token '\u2026': was expecting (JSON String, Number, "
      + "Array, Object or token 'null', 'true' or 'false')\n";

  /**
   * Issue 33, item D: a file given as a schema that is not one (a token, /etc/shadow) was quoted, up to 256 of its
   * characters, over two lines. Every option that reads a schema file names the file and what is wrong, on one
   * line, and quotes nothing of it.
   */
  @Test
  void schemaFileErrors_nameTheFile_neverQuoteIt() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "ghp_S3cretT0ken\nsecond-s3cret\n");
    Path json = Files.writeString(dir.resolve("creds.json"), "{\"password\": \"hunter2-s3cret\"}");
    Path imports = Files.createDirectories(dir.resolve("imports"));
    Files.writeString(imports.resolve("Bad.avsc"), "{\"type\": \"record\", \"name\": \"Bad\", \"fields\": [s3cret]}");
    Path missing = dir.resolve("missing.avsc");

    Run value = kavro("", with("produce", "--topic", "t", "--value-schema", token.toString()));
    Run key = kavro("", with("produce", "--topic", "t", "--value-schema", schemaFile().toString(),
        "--key-schema", json.toString()));
    Run property = kavro("", with("produce", "--topic", "t", "--property", "value.schema.file=" + token));
    Run register = kavro("", with("schema", "register", "--subject", "s", "--schema", json.toString()));
    Run check = kavro("", with("schema", "check", "--subject", "s", "--schema", token.toString()));
    Run imported = kavro("", with("schema", "register", "--subject", "s", "--schema", schemaFile().toString(),
        "--imports", imports.toString()));
    Run absent = kavro("", with("produce", "--topic", "t", "--value-schema", missing.toString()));

    assertThat(value.err()).isEqualTo("kavro: --value-schema " + token + " is not JSON (line 1, column 1): "
        + UNRECOGNIZED_TOKEN);
    assertThat(key.err()).isEqualTo("kavro: --key-schema " + json + " is not an Avro schema: No type\n");
    assertThat(property.err()).isEqualTo("kavro: --value-schema " + token + " is not JSON (line 1, column 1): "
        + UNRECOGNIZED_TOKEN);
    assertThat(register.err()).isEqualTo("kavro: --schema " + json + " is not an Avro schema: No type\n");
    assertThat(check.err()).isEqualTo("kavro: --schema " + token + " is not JSON (line 1, column 1): "
        + UNRECOGNIZED_TOKEN);
    assertThat(imported.err()).isEqualTo("kavro: " + imports.resolve("Bad.avsc").toAbsolutePath().normalize()
        + " is not JSON (line 1, column 46): " + UNRECOGNIZED_TOKEN);
    assertThat(absent.err()).isEqualTo("kavro: cannot read --value-schema " + missing + ": no such file\n");
    for (Run run : List.of(value, key, property, register, check, imported, absent)) {
      assertThat(run.status()).isEqualTo(2);
      assertThat(run.err()).doesNotContain("s3cret").doesNotContain("S3cret").doesNotContain("hunter2");
    }
  }

  @Test
  void consume_undecodableRecord_isAnErrorLineWithItsOffset_andConsumptionGoesOn() throws Exception {
    String topic = "cli-poison-" + UUID.randomUUID();
    Map<String, Object> config = Map.of("bootstrap.servers", stack.bootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
        new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topic, payload(topic, 1))).get();
      producer.send(new ProducerRecord<>(topic, new byte[] {0, 0, 0})).get();
      producer.send(new ProducerRecord<>(topic, payload(topic, 3))).get();
    }

    Run consumed = kavro("", with("consume", "--topic", topic, "--from-beginning", "--max-messages", "3",
        "--format", "json"));

    assertThat(consumed.status()).isEqualTo(1);
    assertThat(consumed.lines()).hasSize(3);
    assertThat(consumed.lines().get(1)).contains("\"offset\":1").contains("\"error\":")
        .contains("shorter than the 5-byte header");
    assertThat(consumed.lines().get(2)).contains("\"id\":3");
    assertThat(consumed.err()).contains("1 record(s) could not be decoded");
    // Issue 25, item 11: the poison pill's bytes are in its line, ready for decode.
    String payload = consumed.lines().get(1).replaceAll(".*\"payload\":\"([0-9a-f]*)\".*", "$1");
    assertThat(payload).isEqualTo("000000");
    Run decoded = kavro("", with("decode", "--hex", "0x" + payload));
    assertThat(decoded.status()).isEqualTo(1);
    assertThat(decoded.err()).contains("shorter than the 5-byte header");
  }

  /**
   * Issue 25, item 12: --help works on every command (schema register --help said "Missing required options" and
   * exited 2), options say what they are, registry commands do not offer the broker, and decode's input errors
   * name the option.
   */
  @Test
  void help_onEveryCommand_andInputErrorsNameTheOption() {
    Run registerHelp = kavro("", "schema", "register", "--help");
    assertThat(registerHelp.status()).isZero();
    assertThat(registerHelp.out()).contains("--subject=SUBJECT").contains("The subject.")
        .contains("--schema=FILE").doesNotContain("--bootstrap-server");
    Run compatibilityHelp = kavro("", "schema", "compatibility", "--help");
    assertThat(compatibilityHelp.out()).contains("BACKWARD");
    assertThat(kavro("", "consume", "--help").out()).contains("--bootstrap-server");

    Run missingFile = kavro("", with("decode", "--file", dir.resolve("nonexistent.bin").toString()));
    assertThat(missingFile.status()).isEqualTo(2);
    assertThat(missingFile.err()).contains("cannot read --file").contains("no such file");
  }

  @Test
  void decode_hexBase64OrFile_printsTheRecordAndItsSchemaId() throws Exception {
    byte[] payload = payload("cli-decode", 7);
    String hex = HexFormat.ofDelimiter(" ").formatHex(payload);

    Run fromHex = kavro("", with("decode", "--hex", hex));
    Run fromBase64 = kavro("", with("decode", "--base64", java.util.Base64.getEncoder().encodeToString(payload)));
    Run fromFile = kavro("", with("decode", "--file", Files.write(dir.resolve("pill.bin"), payload).toString()));

    assertThat(fromHex.status()).as(fromHex.err()).isZero();
    assertThat(fromHex.out()).contains("\"schema\":\"com.acme.Order\",\"value\":{\"id\":7,\"note\":null}");
    assertThat(fromBase64.out()).isEqualTo(fromHex.out());
    assertThat(fromFile.out()).isEqualTo(fromHex.out());
    assertThat(kavro("", with("decode", "--hex", "zz")).status()).isEqualTo(2);
  }

  /** A record framed with an Apicurio id prints that id by its kind, never a schema id of -1. */
  @Test
  void decode_apicurioContentIdPrefix_printsTheIdItHolds() {
    byte[] payload = payload("cli-decode-apicurio", 3); // 0x00, the Confluent-compatible id, the body
    int id = java.nio.ByteBuffer.wrap(payload, 1, 4).getInt(); // Apicurio's Confluent-compatible ids: content ids

    Run decoded = kavro("", with("decode", "--hex", HexFormat.of().formatHex(payload),
        "--property", "value.schema.id.prefix=apicurio-content-id-4"));

    assertThat(decoded.status()).as(decoded.err()).isZero();
    assertThat(decoded.out()).startsWith("{\"apicurioContentId\":" + id + ",\"schema\":\"com.acme.Order\"")
        .doesNotContain("schemaId");
  }

  @Test
  void schemaCommands_registerCheckGetVersionsCompatibilityDelete() throws Exception {
    String subject = "cli-subject-" + UUID.randomUUID();
    Path file = schemaFile();

    Run registered = kavro("", with("schema", "register", "--subject", subject, "--schema", file.toString()));
    assertThat(registered.status()).as(registered.err()).isZero();
    assertThat(registered.out()).startsWith("{\"id\":");
    assertThat(kavro("", with("schema", "subjects")).out()).contains("\"" + subject + "\"");
    assertThat(kavro("", with("schema", "versions", "--subject", subject)).out().strip()).isEqualTo("[1]");
    assertThat(kavro("", with("schema", "check", "--subject", subject, "--schema", file.toString())).out())
        .contains("\"registered\":true").contains("\"version\":1");
    assertThat(kavro("", with("schema", "get", "--subject", subject)).out())
        .contains("\"version\":1").contains("\"name\":\"Order\"");
    Path other = Files.writeString(dir.resolve("other.avsc"),
        "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}");
    // Registries differ in their default level (Apicurio's is NONE): set BACKWARD first.
    assertThat(kavro("", with("schema", "compatibility", "--subject", subject, "--level", "backward")).out())
        .contains("\"compatibility\":\"BACKWARD\"");
    Run incompatible = kavro("", with("schema", "compatibility", "--subject", subject, "--schema", other.toString()));
    assertThat(incompatible.status()).isEqualTo(1);
    assertThat(incompatible.out()).contains("\"compatible\":false");
    // Issue 25, item 3: with its reason; issue 37, item 4: Apicurio's, from its "reason" field.
    assertThat(incompatible.out()).contains("\"messages\":[\"Incompatible artifact: " + subject)
        .contains("STRING not compatible with writer type: LONG at /fields/0/type");
    assertThat(kavro("", with("schema", "compatibility", "--subject", subject, "--level", "none")).out())
        .contains("\"compatibility\":\"NONE\"");
    assertThat(kavro("", with("schema", "check", "--subject", subject, "--schema", other.toString())).status())
        .isEqualTo(1);
    assertThat(kavro("", with("schema", "delete", "--subject", subject)).out()).contains("\"deleted\":[1]");
  }

  /**
   * Issue 23, item 3: a multi-event topic's union registered from a directory of .avsc files that import each other
   * (each record under its own subject, referenced), then a second subject that takes one of them with
   * --reference; the registry answers each whole.
   */
  @Test
  void schemaRegister_importsAndReferences_registersEachFileOnceAndReferencesIt() throws Exception {
    String ns = "com.acme.t" + UUID.randomUUID().toString().substring(0, 8);
    Path imports = Files.createDirectories(dir.resolve("imports/nested"));
    Files.writeString(imports.resolve("Address.avsc"), """
        {"type":"record","name":"Address","namespace":"%s","fields":[{"name":"street","type":"string"}]}"""
        .formatted(ns));
    Files.writeString(dir.resolve("imports/OrderPlaced.avsc"), """
        {"type":"record","name":"OrderPlaced","namespace":"%s","fields":[{"name":"id","type":"string"},
          {"name":"to","type":"Address"}]}""".formatted(ns));
    Files.writeString(dir.resolve("imports/OrderShipped.avsc"), """
        {"type":"record","name":"OrderShipped","namespace":"%s","fields":[{"name":"id","type":"string"},
          {"name":"from","type":"%s.Address"}]}""".formatted(ns, ns));
    Files.writeString(dir.resolve("imports/Unused.avsc"), """
        {"type":"record","name":"Unused","namespace":"%s","fields":[]}""".formatted(ns));
    Path events = Files.writeString(dir.resolve("events.avsc"), "[\"%s.OrderPlaced\",\"%s.OrderShipped\"]"
        .formatted(ns, ns));
    String subject = "cli-events-" + UUID.randomUUID() + "-value";

    Run registered = kavro("", with("schema", "register", "--subject", subject, "--schema", events.toString(),
        "--imports", dir.resolve("imports").toString()));

    assertThat(registered.status()).as(registered.err()).isZero();
    assertThat(registered.out()).contains("\"references\":[{\"name\":\"" + ns + ".OrderPlaced\",\"subject\":\""
        + ns + ".OrderPlaced\",\"version\":1},{\"name\":\"" + ns + ".OrderShipped\"");
    String subjects = kavro("", with("schema", "subjects")).out();
    assertThat(subjects).contains("\"" + ns + ".Address\"", "\"" + ns + ".OrderPlaced\"", "\"" + ns
        + ".OrderShipped\"").doesNotContain(ns + ".Unused");
    assertThat(kavro("", with("schema", "versions", "--subject", ns + ".Address")).out().strip())
        .as("Address, imported by both, registered once").isEqualTo("[1]");
    assertThat(kavro("", with("schema", "get", "--subject", subject)).out())
        .as("the registry answers the union whole").contains("\"street\"").contains("OrderShipped");
    assertThat(kavro("", with("schema", "check", "--subject", subject, "--schema", events.toString(),
        "--imports", dir.resolve("imports").toString())).status()).isZero();
    assertThat(kavro("", with("schema", "check", "--subject", subject, "--schema", events.toString())).status())
        .as("without its imports the file names undefined types").isEqualTo(2);

    Path audit = Files.writeString(dir.resolve("audit.avsc"), """
        {"type":"record","name":"Audit","namespace":"%s","fields":[{"name":"placed","type":"OrderPlaced"}]}"""
        .formatted(ns));
    Run referenced = kavro("", with("schema", "register", "--subject", subject + "-audit", "--schema",
        audit.toString(), "--reference", ns + ".OrderPlaced=" + ns + ".OrderPlaced:latest"));
    assertThat(referenced.status()).as(referenced.err()).isZero();
    assertThat(kavro("", with("schema", "get", "--subject", subject + "-audit")).out()).contains("\"street\"");

    Run wrongName = kavro("", with("schema", "register", "--subject", subject + "-x", "--schema", audit.toString(),
        "--reference", ns + ".Nope=" + ns + ".OrderPlaced:1"));
    assertThat(wrongName.status()).isEqualTo(2);
    assertThat(wrongName.err()).contains("does not define " + ns + ".Nope");
    assertThat(kavro("", with("schema", "register", "--subject", "s", "--schema", audit.toString(), "--reference",
        "nonsense")).err()).contains("NAME=SUBJECT:VERSION");
  }

  @Test
  void schemaRegister_importsInACycle_usageErrorNamingThem() throws Exception {
    Path imports = Files.createDirectories(dir.resolve("cycle"));
    Files.writeString(imports.resolve("A.avsc"),
        "{\"type\":\"record\",\"name\":\"A\",\"namespace\":\"cyc\",\"fields\":[{\"name\":\"b\",\"type\":\"B\"}]}");
    Files.writeString(imports.resolve("B.avsc"),
        "{\"type\":\"record\",\"name\":\"B\",\"namespace\":\"cyc\",\"fields\":[{\"name\":\"a\",\"type\":\"A\"}]}");
    Path main = Files.writeString(dir.resolve("main.avsc"), "[\"cyc.A\"]");

    Run run = kavro("", with("schema", "register", "--subject", "cyc-" + UUID.randomUUID(), "--schema",
        main.toString(), "--imports", imports.toString()));

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("cycle").contains("A.avsc").contains("B.avsc");
  }

  /**
   * Issue 22, item 12: the yes-or-no commands tell "no" (1) from "no answer" (3): a misspelled subject is not
   * "compatible", and an unreachable registry is not "not registered".
   */
  @Test
  void yesOrNoCommands_unknownSubjectOrUnreachableRegistry_exit3NotAnAnswer() throws Exception {
    Path file = schemaFile();
    String missing = "cli-missing-" + UUID.randomUUID();

    Run unknown = kavro("", with("schema", "compatibility", "--subject", missing, "--schema", file.toString()));
    assertThat(unknown.status()).isEqualTo(3);
    assertThat(unknown.out()).isEmpty();
    assertThat(unknown.err()).contains("subject '" + missing + "' does not exist");

    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    Run unreachable = kavro("", "schema", "check", "--subject", missing, "--schema", file.toString(),
        "--schema-registry-url", "http://127.0.0.1:" + closed,
        "--command-config", Files.writeString(dir.resolve("fast.properties"), "max.retries=0\n").toString());
    assertThat(unreachable.status()).isEqualTo(3);
    assertThat(unreachable.err()).startsWith("kavro: cannot reach the schema registry");
  }

  @Test
  void unreachableRegistry_oneClearLine_exit1() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }

    Run run = kavro("", "schema", "subjects", "--schema-registry-url", "http://alice:s3cret@127.0.0.1:" + closed,
        "--command-config", Files.writeString(dir.resolve("client.properties"), "max.retries=0\n").toString());

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().strip().lines()).hasSize(1);
    assertThat(run.err()).startsWith("kavro: cannot reach the schema registry at http://127.0.0.1:" + closed)
        .doesNotContain("s3cret");
  }

  /** {@code ORDER} and a field added without a default: BACKWARD refuses it, as the new schema cannot read v1. */
  private Path withoutDefault() throws Exception {
    return Files.writeString(dir.resolve("u3.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
          {"name":"note","type":["null","string"],"default":null},{"name":"x","type":"int"}]}""");
  }

  /**
   * Issue 37, item 4: under a global BACKWARD (Apicurio's subject level: NONE), a field added without a default was
   * "compatible: false" with "the registry gave no reason, and Avro finds none", and the subject's level printed
   * NONE. The registry's reason names the field, and the level printed is the one in force, with its scope.
   */
  @Test
  void schemaCompatibility_underGlobalBackward_reasonNamesTheField_andLevelSaysItIsGlobal() throws Exception {
    String subject = "cli-u3-" + UUID.randomUUID();
    assertThat(kavro("", with("schema", "register", "--subject", subject, "--schema", schemaFile().toString()))
        .status()).isZero();
    Run global = kavro("", with("schema", "compatibility", "--level", "backward"));
    assertThat(global.out().strip()).isEqualTo("{\"compatibility\":\"BACKWARD\"}");
    try {
      Run u3 = kavro("", with("schema", "compatibility", "--subject", subject, "--schema",
          withoutDefault().toString()));
      assertThat(u3.status()).as(u3.err()).isEqualTo(1);
      assertThat(u3.out()).startsWith("{\"compatible\":false,\"messages\":[")
          .doesNotContain("gave no reason").containsPattern("\\bx at /fields/2");

      Run level = kavro("", with("schema", "compatibility", "--subject", subject));
      assertThat(level.out().strip()).isEqualTo("{\"subject\":\"" + subject
          + "\",\"compatibility\":\"BACKWARD\",\"scope\":\"global\"}");

      Run own = kavro("", with("schema", "compatibility", "--subject", subject, "--level", "full"));
      assertThat(own.out()).contains("\"compatibility\":\"FULL\",\"scope\":\"subject\"");
      assertThat(own.err()).isEmpty();
      // Apicurio keeps no subject level NONE: it removes the subject's own, and the global level applies.
      Run none = kavro("", with("schema", "compatibility", "--subject", subject, "--level", "none"));
      assertThat(none.out()).contains("\"compatibility\":\"BACKWARD\",\"scope\":\"global\"");
      assertThat(none.err()).contains("was set to NONE, but the registry applies BACKWARD (global; the subject "
          + "sets none)");
    } finally {
      assertThat(kavro("", with("schema", "compatibility", "--level", "none")).out()).contains("NONE");
    }
  }

  /**
   * Issue 37, item 5: a schema the registry refused was reported as "line 1 does not match the schema". The line
   * is fine: the message says the registry refused the schema, for which subject, and why; a bad line still
   * names its number.
   */
  @Test
  void produce_schemaRefusedAsIncompatible_saysSoWithTheReason_notTheLine() throws Exception {
    String topic = "cli-refused-" + UUID.randomUUID();
    assertThat(kavro("{\"id\": 1, \"note\": null}\n", with("produce", "--topic", topic, "--value-schema",
        schemaFile().toString())).status()).isZero();
    assertThat(kavro("", with("schema", "compatibility", "--subject", topic + "-value", "--level", "backward"))
        .status()).isZero();

    Run refused = kavro("{\"id\": 2, \"note\": null, \"x\": 3}\n", with("produce", "--topic", topic,
        "--value-schema", withoutDefault().toString()));

    assertThat(refused.status()).isEqualTo(1);
    assertThat(refused.err().strip()).startsWith("kavro: the registry refused the schema for subject '" + topic
        + "-value' as incompatible: ").containsPattern("\\bx at /fields/2").endsWith("(nothing was sent)")
        .doesNotContain("line 1").doesNotContain("\tat ");
    Run badLine = kavro("{\"id\": \"two\", \"note\": null}\n", with("produce", "--topic", topic,
        "--value-schema", schemaFile().toString()));
    assertThat(badLine.err()).startsWith("kavro: line 1 does not match the schema");
  }

  @Test
  void usageErrors_exit2() {
    assertThat(kavro("", "consume").status()).isEqualTo(2);
    assertThat(kavro("", "nonsense").status()).isEqualTo(2);
    assertThat(kavro("").status()).isEqualTo(2);
    assertThat(kavro("", "--help").status()).isZero();
  }

  private byte[] payload(String topic, long id) {
    GenericRecord order = new GenericData.Record(new Schema.Parser().parse(ORDER));
    order.put("id", id);
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
      return serializer.serialize(topic, order);
    }
  }
}
