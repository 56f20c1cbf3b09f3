package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kavro.it.connect.JsonReportSinkTask;
import io.kavro.it.connect.StructSourceConnector;
import io.kavro.it.connect.TestSinkConnector;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.WireFormat;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.File;
import java.math.BigDecimal;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Connect worker, in a JVM of its own whose class path has no Kavro class, loads Kavro's converter
 * from the plugin that {@code mvn package} built, through {@code plugin.path} and Connect's plugin class
 * loader. A source writes through it the schema text Confluent's converter registers (the same subject gets
 * the same id), and a sink reads a topic written with Confluent's mapping into the expected Connect schemas.
 */
@ExtendWith(KavroStackExtension.class)
class PluginPathWorkerTest {
  private static final int COUNT = 5;

  /** What Confluent's AvroConverter registers for {@link StructSourceConnector#SCHEMA} (AvroData's rules). */
  private static final String READING_AS_CONFLUENT_REGISTERS = "{\"type\":\"record\",\"name\":\"Reading\","
      + "\"namespace\":\"io.kavro.it.connect\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"sensor\","
      + "\"type\":\"string\"},{\"name\":\"value\",\"type\":{\"type\":\"bytes\",\"scale\":3,\"precision\":64,"
      + "\"connect.version\":1,\"connect.parameters\":{\"scale\":\"3\"},\"connect.name\":"
      + "\"org.apache.kafka.connect.data.Decimal\",\"logicalType\":\"decimal\"}},{\"name\":\"at\",\"type\":{\"type\":"
      + "\"long\",\"connect.version\":1,\"connect.name\":\"org.apache.kafka.connect.data.Timestamp\",\"logicalType\":"
      + "\"timestamp-millis\"}},{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},{\"name\":\"unit\","
      + "\"type\":[{\"type\":\"string\",\"connect.default\":\"celsius\"},\"null\"],\"default\":\"celsius\"},{\"name\":"
      + "\"samples\",\"type\":{\"type\":\"array\",\"items\":\"double\"}},{\"name\":\"labels\",\"type\":{\"type\":"
      + "\"map\",\"values\":\"string\"}},{\"name\":\"location\",\"type\":{\"type\":\"record\",\"name\":\"Location\","
      + "\"fields\":[{\"name\":\"site\",\"type\":\"string\"},{\"name\":\"floor\",\"type\":[\"null\",{\"type\":\"int\","
      + "\"connect.type\":\"int16\"}],\"default\":null}],\"connect.name\":\"io.kavro.it.connect.Location\"}}],"
      + "\"connect.doc\":\"a reading\",\"connect.name\":\"io.kavro.it.connect.Reading\"}";

  /** A schema as Confluent's converter writes it: int16, decimal, a map with int keys, a union. */
  private static final String ORDER_AS_CONFLUENT_WRITES = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":"
      + "\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"qty\",\"type\":{\"type\":\"int\","
      + "\"connect.type\":\"int16\"}},{\"name\":\"price\",\"type\":{\"type\":\"bytes\",\"scale\":2,\"precision\":64,"
      + "\"connect.version\":1,\"connect.parameters\":{\"scale\":\"2\"},\"connect.name\":"
      + "\"org.apache.kafka.connect.data.Decimal\",\"logicalType\":\"decimal\"}},{\"name\":\"attrs\",\"type\":{\"type\":"
      + "\"array\",\"items\":{\"type\":\"record\",\"name\":\"MapEntry\",\"namespace\":\"io.confluent.connect.avro\","
      + "\"fields\":[{\"name\":\"key\",\"type\":\"int\"},{\"name\":\"value\",\"type\":\"string\"}]}}},{\"name\":"
      + "\"choice\",\"type\":[\"int\",\"string\"]}],\"connect.name\":\"com.acme.Order\"}";

  /** The Connect schema a sink sees for it: Confluent's converter gives it the subject's version, 1. */
  private static final Schema UNION = SchemaBuilder.struct().name("io.confluent.connect.avro.Union")
      .field("int", Schema.OPTIONAL_INT32_SCHEMA).field("string", Schema.OPTIONAL_STRING_SCHEMA).build();
  private static final Schema ORDER = SchemaBuilder.struct().name("com.acme.Order").version(1)
      .field("id", Schema.INT64_SCHEMA)
      .field("qty", Schema.INT16_SCHEMA)
      .field("price", Decimal.schema(2))
      .field("attrs", SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.STRING_SCHEMA).build())
      .field("choice", UNION)
      .build();

  private final TestStack stack;
  private final KafkaFixture kafka;

  @TempDir
  Path dir;

  PluginPathWorkerTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  /**
   * A worker's line: its class path, the plugin built for it, and how it logs. The 4.4 worker runs on this
   * JVM's class path less Kavro; the 3.9 worker on connect-runtime 3.9's own (module
   * tests/fixtures/connect-worker-3.9), with the test's connectors.
   */
  enum WorkerLine {
    KAFKA_4_4("kavro-connect-plugin", "kavro-avro-converter"),
    KAFKA_3_9("kavro-connect-plugin-kafka3", "kavro-avro-converter-kafka3");

    final String pluginDir;
    final String plugin;

    WorkerLine(String pluginDir, String plugin) {
      this.pluginDir = pluginDir;
      this.plugin = plugin;
    }

    Path plugins() {
      return Path.of(System.getProperty("kavro.connect.plugins", "../../connect-plugin/target")).resolve(pluginDir);
    }

    String classPath() throws Exception {
      if (this == KAFKA_4_4) {
        return workerClassPath();
      }
      Path worker = Path.of(System.getProperty("kavro.connect.worker39",
          "../fixtures/connect-worker-3.9/target/worker"));
      List<String> entries = new ArrayList<>();
      try (var jars = Files.list(worker)) {
        jars.map(jar -> jar.toAbsolutePath().toString()).sorted().forEach(entries::add);
      }
      assertThat(entries).as("connect-runtime 3.9's class path").anyMatch(e -> e.contains("connect-runtime-3.9."));
      // The test's connectors, built against connect-api 4.4, use only what 3.9 has.
      entries.add(Path.of(StructSourceConnector.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString());
      return String.join(File.pathSeparator, entries);
    }
  }

  @ParameterizedTest
  @EnumSource(WorkerLine.class)
  void workerLoadsKavroFromPluginPath_onlyThere(WorkerLine line) throws Exception {
    Path plugins = line.plugins();
    assertThat(plugins.resolve(line.plugin + "/manifest.json")).exists();
    String classPath = line.classPath();
    try (URLClassLoader worker = new URLClassLoader(urls(classPath), ClassLoader.getPlatformClassLoader())) {
      assertThatThrownBy(() -> worker.loadClass("io.kavro.connect.AvroConverter"))
          .isInstanceOf(ClassNotFoundException.class);
      assertThat(worker.loadClass("org.apache.kafka.connect.cli.ConnectStandalone")).isNotNull();
    }

    String sourceTopic = kafka.topic("plugin-source");
    String sinkTopic = kafka.topic("plugin-sink");
    int preRegistered;
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
        stack.registryUrl()))) {
      preRegistered = registry.register(sourceTopic + "-value",
          new org.apache.avro.Schema.Parser().parse(READING_AS_CONFLUENT_REGISTERS));
    }
    List<GenericRecord> orders = writeConfluentMappedOrders(sinkTopic);
    Path report = dir.resolve("report.jsonl");

    Process worker = startWorker(line, classPath, plugins, Map.of(
        "name", "plugin-source", "connector.class", StructSourceConnector.class.getName(), "tasks.max", "1",
        "topic", sourceTopic, "count", Integer.toString(COUNT)), Map.of(
        "name", "plugin-sink", "connector.class", TestSinkConnector.class.getName(), "tasks.max", "1",
        "topics", sinkTopic, "report", report.toString()));
    try {
      // The source wrote through Kavro's converter: Confluent's schema text, so the pre-registered id.
      List<ConsumerRecord<String, byte[]>> written = kafka.consume(
          kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class), sourceTopic, COUNT);
      assertThat(written).allSatisfy(r -> assertThat(WireFormat.schemaId(ByteBuffer.wrap(r.value())))
          .isEqualTo(preRegistered));
      try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
          stack.registryUrl()))) {
        assertThat(registry.versions(sourceTopic + "-value")).containsExactly(1);
      }
      try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
        deserializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
        assertThat(((GenericRecord) deserializer.deserialize(sourceTopic, written.get(2).value())).get("sensor"))
            .hasToString("sensor-2");
      }

      // The sink read the Confluent-written topic as the Connect schemas Confluent's converter gives.
      await().atMost(Duration.ofSeconds(120)).until(() -> Files.exists(report)
          && Files.readAllLines(report).size() >= orders.size());
      JsonConverter json = new JsonConverter();
      json.configure(Map.of("schemas.enable", true), false);
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < orders.size(); i++) {
        expected.add(JsonReportSinkTask.render(json, sinkTopic, ORDER, order(i)));
      }
      assertThat(Files.readAllLines(report, StandardCharsets.UTF_8)).containsExactlyElementsOf(expected);

      // Connect found the converter in the plugin folder, through its plugin class loader.
      String log = Files.readString(dir.resolve("worker.log"));
      assertThat(log).contains(line.plugin).contains("io.kavro.connect.AvroConverter");
      if (line == WorkerLine.KAFKA_3_9) {
        assertThat(log).as("the worker is a 3.9 worker").containsPattern("Kafka version: 3\\.9\\.");
      }
    } finally {
      worker.destroy();
      worker.waitFor();
    }
  }

  private static Struct order(int i) {
    return new Struct(ORDER).put("id", (long) i).put("qty", (short) (i + 1)).put("price", new BigDecimal("9.99"))
        .put("attrs", Map.of(i, "v" + i))
        .put("choice", i % 2 == 0 ? new Struct(UNION).put("int", i) : new Struct(UNION).put("string", "s" + i));
  }

  /** Avro records of Confluent's mapping of {@link #ORDER}, as a Confluent-converter source would write them. */
  private List<GenericRecord> writeConfluentMappedOrders(String topic) {
    org.apache.avro.Schema avro = new org.apache.avro.Schema.Parser().parse(ORDER_AS_CONFLUENT_WRITES);
    org.apache.avro.Schema entry = avro.getField("attrs").schema().getElementType();
    List<GenericRecord> records = new ArrayList<>();
    List<ProducerRecord<String, Object>> sends = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      GenericRecord record = new GenericData.Record(avro);
      record.put("id", (long) i);
      record.put("qty", i + 1);
      record.put("price", ByteBuffer.wrap(new BigDecimal("9.99").unscaledValue().toByteArray()));
      GenericRecord pair = new GenericData.Record(entry);
      pair.put("key", i);
      pair.put("value", "v" + i);
      record.put("attrs", List.of(pair));
      record.put("choice", i % 2 == 0 ? (Object) i : "s" + i);
      records.add(record);
      sends.add(new ProducerRecord<>(topic, "k" + i, record));
    }
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), sends);
    return records;
  }

  private Process startWorker(WorkerLine line, String classPath, Path plugins, Map<String, String> source,
      Map<String, String> sink) throws Exception {
    Map<String, String> worker = new java.util.HashMap<>(Map.of(
        "bootstrap.servers", stack.bootstrapServers(),
        "key.converter", "org.apache.kafka.connect.storage.StringConverter",
        "value.converter", "io.kavro.connect.AvroConverter",
        "value.converter.schema.registry.url", stack.registryUrl(),
        "offset.storage.file.filename", dir.resolve("offsets").toString(),
        "plugin.path", plugins.toAbsolutePath().toString(),
        "listeners", "http://127.0.0.1:0",
        "rest.advertised.host.name", "127.0.0.1",
        "consumer.auto.offset.reset", "earliest"));
    if (line == WorkerLine.KAFKA_4_4) {
      // The 4.4 worker finds plugins by their ServiceLoader manifests alone, as Kafka advises (the plugin's own
      // manifests, checked here); the 3.9 worker keeps the default, hybrid_warn, which finds it by a reflective scan
      // of the plugin folder and the class path too (here this test's whole class path: seconds of the worker's start).
      worker.put("plugin.discovery", "service_load");
    }
    Path workerProps = write("worker.properties", worker);
    Path logConfig = Files.writeString(dir.resolve("log4j2.xml"), """
        <Configuration status="WARN">
          <Appenders><Console name="console" target="SYSTEM_OUT"><PatternLayout pattern="%-5level %c - %msg%n"/>
          </Console></Appenders>
          <Loggers>
            <Logger name="org.apache.kafka.connect.runtime.isolation" level="INFO"/>
            <Root level="WARN"><AppenderRef ref="console"/></Root>
          </Loggers>
        </Configuration>""");
    // A 3.9 worker logs through reload4j, as its distribution does.
    Path reload4jConfig = Files.writeString(dir.resolve("log4j.properties"), """
        log4j.rootLogger=WARN, stdout
        log4j.appender.stdout=org.apache.log4j.ConsoleAppender
        log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
        log4j.appender.stdout.layout.ConversionPattern=%-5p %c - %m%n
        log4j.logger.org.apache.kafka.connect.runtime.isolation=INFO
        log4j.logger.org.apache.kafka.common.utils.AppInfoParser=INFO
        """);
    String logging = line == WorkerLine.KAFKA_4_4 ? "-Dlog4j2.configurationFile=" + logConfig.toUri()
        : "-Dlog4j.configuration=" + reload4jConfig.toUri();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-Xmx256m", logging, "-cp", classPath,
        "org.apache.kafka.connect.cli.ConnectStandalone",
        workerProps.toString(), write("source.properties", source).toString(),
        write("sink.properties", sink).toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("worker.log").toFile())
        .start();
  }

  private Path write(String name, Map<String, String> values) throws Exception {
    Properties properties = new Properties();
    properties.putAll(values);
    Path file = dir.resolve(name);
    try (var out = Files.newOutputStream(file)) {
      properties.store(out, null);
    }
    return file;
  }

  /** This JVM's class path without any of Kavro's modules: the worker must find Kavro on plugin.path only. */
  static String workerClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !isKavro(entry))
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static boolean isKavro(String entry) {
    String path = entry.replace('\\', '/');
    return Path.of(entry).getFileName().toString().startsWith("kavro-")
        || path.matches(".*/(registry-http|serde|examples|connect-plugin|benchmarks|kms/[^/]+)/target/.*");
  }

  private static URL[] urls(String classPath) throws Exception {
    List<URL> urls = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      urls.add(Path.of(entry).toUri().toURL());
    }
    return urls.toArray(URL[]::new);
  }
}
