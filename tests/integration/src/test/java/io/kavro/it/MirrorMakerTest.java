package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.WireFormat;
import io.kavro.testkit.EmbeddedKafka;
import io.kavro.testkit.EmbeddedRegistry;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * MirrorMaker 2 ({@code MirrorSourceConnector} of {@code connect-mirror} 4.3.1, in a Connect worker of its own
 * Kafka line, with Kavro's plugin on its plugin.path) copies a topic from
 * the stack's cluster to a second in-JVM cluster with a registry of its own, through {@code SchemaIdTranslation}: a
 * consumer on the target cluster reads every mirrored record with the target registry alone, in both framings and
 * two schema versions; a record whose id the source registry does not know goes through the worker's error
 * handling instead of arriving with a wrong id.
 */
@ExtendWith(KavroStackExtension.class)
class MirrorMakerTest {
  private static final Schema V1 = new Schema.Parser().parse("""
      {"type":"record","name":"Shipment","namespace":"com.acme.it","fields":[
        {"name":"id","type":"long"},{"name":"dest","type":"string"}]}""");
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Shipment","namespace":"com.acme.it","fields":[
        {"name":"id","type":"long"},{"name":"dest","type":"string"},
        {"name":"weight","type":["null","double"],"default":null}]}""");
  private static final Schema FILLER = new Schema.Parser().parse("""
      {"type":"record","name":"Filler","fields":[{"name":"x","type":"int"}]}""");
  private static final int PER_FORM = 100;
  /** What Connect logs (at DEBUG, which the worker's log configuration sets) before each retry of a record. */
  private static final String RETRY = "RetryWithToleranceOperator - Sleeping for up to";

  /** The target cluster and its registry, for both tests (each mirrors topics of its own). */
  private static EmbeddedKafka targetKafka;
  private static EmbeddedRegistry targetRegistry;

  private final TestStack stack;
  private final KafkaFixture kafka;

  @TempDir
  Path dir;

  MirrorMakerTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @BeforeAll
  static void startTarget() {
    // side by side, as the testkit's stack starts its broker and registry: Apicurio's start is the longer
    java.util.concurrent.CompletableFuture<EmbeddedRegistry> registryStarted =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> EmbeddedRegistry.start(0));
    try {
      targetKafka = EmbeddedKafka.start(0);
    } catch (RuntimeException e) {
      registryStarted.thenAccept(EmbeddedRegistry::close); // the broker's failure is the one reported
      throw e;
    }
    try {
      targetRegistry = registryStarted.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e; // stopTarget closes the broker
    }
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
        targetRegistry.url()))) {
      registry.register("filler-value", FILLER); // the target's ids for the same schemas differ from the source's
    }
  }

  @AfterAll
  static void stopTarget() {
    if (targetRegistry != null) {
      targetRegistry.close();
    }
    if (targetKafka != null) {
      targetKafka.close();
    }
  }

  private static GenericRecord shipment(Schema schema, int n) {
    GenericRecord shipment = new GenericData.Record(schema);
    shipment.put("id", (long) n);
    shipment.put("dest", "dc-" + n % 7);
    if (schema == V2) {
      shipment.put("weight", n % 3 == 0 ? null : n * 0.25);
    }
    return shipment;
  }

  @Test
  void mirroredRecords_readOnTheTargetWithItsRegistryAlone() throws Exception {
    String topic = kafka.topic("mirrored");
    List<GenericRecord> expected = new ArrayList<>();
    List<ProducerRecord<String, Object>> prefixed = new ArrayList<>();
    List<ProducerRecord<String, Object>> inHeader = new ArrayList<>();
    for (int n = 0; n < PER_FORM; n++) {
      GenericRecord record = shipment(n < PER_FORM / 2 ? V1 : V2, n);
      prefixed.add(new ProducerRecord<>(topic, "p" + n, record));
    }
    for (int n = PER_FORM; n < 2 * PER_FORM; n++) {
      inHeader.add(new ProducerRecord<>(topic, "h" + n, shipment(V2, n)));
    }
    prefixed.forEach(r -> expected.add((GenericRecord) r.value()));
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), prefixed);
    // A record whose id the source registry does not know, then a tombstone, then ids in headers.
    byte[] unknownId = ByteBuffer.allocate(6).put(WireFormat.MAGIC_BYTE).putInt(987654).put((byte) 2).array();
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class), List.of(
        new ProducerRecord<>(topic, "unknown-id", unknownId), new ProducerRecord<>(topic, "tombstone", null)));
    inHeader.forEach(r -> expected.add((GenericRecord) r.value()));
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "value.schema.id.serializer", "HeaderSchemaIdSerializer"), inHeader);

    Process worker = startWorker(targetKafka, mirrorConfig(topic, targetKafka, targetRegistry.url()));
    try {
      String mirrored = "src." + topic;
      List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
          KafkaAvroDeserializer.class, "bootstrap.servers", targetKafka.bootstrapServers(),
          "schema.registry.url", targetRegistry.url()), mirrored, 2 * PER_FORM + 1);

      List<Object> values = new ArrayList<>();
      read.stream().filter(r -> !r.key().equals("tombstone")).forEach(r -> values.add(r.value()));
      assertThat(values).hasSize(2 * PER_FORM).containsExactlyElementsOf(expected);
      assertThat(read).extracting(ConsumerRecord::key).doesNotContain("unknown-id").contains("tombstone");
      assertThat(read.stream().filter(r -> r.key().equals("tombstone")).findFirst().orElseThrow().value()).isNull();
      assertThat(read.get(2 * PER_FORM).headers().lastHeader("__value_schema_id")).as("the header stays a header")
          .isNotNull();
      assertThat(Files.readString(dir.resolve("worker.log"))).as("the unmappable record, through error handling")
          .contains("schema id 987654");

      List<ConsumerRecord<String, byte[]>> rawTarget = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
          ByteArrayDeserializer.class, "bootstrap.servers", targetKafka.bootstrapServers()), mirrored, 1);
      List<ConsumerRecord<String, byte[]>> rawSource = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
          ByteArrayDeserializer.class), topic, 1);
      assertThat(WireFormat.schemaId(ByteBuffer.wrap(rawTarget.get(0).value())))
          .as("translated").isNotEqualTo(WireFormat.schemaId(ByteBuffer.wrap(rawSource.get(0).value())));
      try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
          targetRegistry.url()))) {
        assertThat(registry.versions(mirrored + "-value")).containsExactly(1, 2);
      }
    } finally {
      worker.destroy();
      worker.waitFor(30, TimeUnit.SECONDS);
      // Kept for a failure's diagnosis: the temporary folder goes with the test.
      Files.copy(dir.resolve("worker.log"), Path.of("target", "mirror-maker-worker.log"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * The target registry goes down mid-stream and comes back: with the docs' recipe, the worker retries the
   * records it could not translate until it can, and every record arrives once, in order. Without
   * {@code errors.retry.timeout=-1}, {@code errors.tolerance=all} skips them.
   */
  @Test
  void targetRegistryDownMidStream_everyRecordArrivesOnce() throws Exception {
    String topic = kafka.topic("outage");
    List<ProducerRecord<String, Object>> before = new ArrayList<>();
    List<ProducerRecord<String, Object>> during = new ArrayList<>();
    for (int n = 0; n < 20; n++) {
      before.add(new ProducerRecord<>(topic, "k" + n, shipment(V1, n)));
    }
    for (int n = 20; n < 40; n++) {
      during.add(new ProducerRecord<>(topic, "k" + n, shipment(V2, n))); // a new schema: the target is asked
    }
    Map<String, Object> producer = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class);
    kafka.produce(producer, before);

    try (FaultyProxy proxy = FaultyProxy.in(targetRegistry.url())) {
      Map<String, String> mirror = mirrorConfig(topic, targetKafka, proxy.via(targetRegistry.url()));
      mirror.put("transforms.ids.target.max.retries", "1");
      mirror.put("transforms.ids.target.retries.wait.ms", "100");
      mirror.put("errors.retry.delay.max.ms", "1000");
      Process worker = startWorker(targetKafka, mirror);
      try {
        String mirrored = "src." + topic;
        Map<String, Object> consumer = kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class,
            "bootstrap.servers", targetKafka.bootstrapServers(), "schema.registry.url", targetRegistry.url());
        kafka.consume(consumer, mirrored, before.size());

        proxy.mode(FaultyProxy.Mode.REFUSE);
        long retriesBefore = retries();
        kafka.produce(producer, during);
        // The worker meets the outage and retries the record, again and again: the default timeout of 0 would
        // have skipped it at the first failure, without a retry.
        awaitRetries(retriesBefore + 3);
        proxy.mode(FaultyProxy.Mode.PASS);

        consumer.put("group.id", "after-the-outage");
        List<ConsumerRecord<String, Object>> read = kafka.consume(consumer, mirrored, 40);
        List<Object> expected = new ArrayList<>();
        before.forEach(r -> expected.add(r.value()));
        during.forEach(r -> expected.add(r.value()));
        assertThat(read).extracting(ConsumerRecord::value).containsExactlyElementsOf(expected);
        assertThat(endOffset(targetKafka, mirrored)).as("no record twice").isEqualTo(40);
      } finally {
        worker.destroy();
        worker.waitFor(30, TimeUnit.SECONDS);
        Files.copy(dir.resolve("worker.log"), Path.of("target", "mirror-maker-outage-worker.log"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** How many times the worker has retried a record so far, by its log. */
  private long retries() throws Exception {
    try (var lines = Files.lines(dir.resolve("worker.log"))) {
      return lines.filter(line -> line.contains(RETRY)).count();
    }
  }

  private void awaitRetries(long count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (retries() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the worker retried " + retries() + " time(s) in 60 s, not " + count
            + ": it skipped the records it could not translate (see target/mirror-maker-outage-worker.log)");
      }
      Thread.sleep(100);
    }
  }

  private static long endOffset(EmbeddedKafka cluster, String topic) {
    try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(Map.of(
        "bootstrap.servers", cluster.bootstrapServers(), "key.deserializer", ByteArrayDeserializer.class,
        "value.deserializer", ByteArrayDeserializer.class))) {
      var partition = new org.apache.kafka.common.TopicPartition(topic, 0);
      return consumer.endOffsets(List.of(partition)).get(partition);
    }
  }

  /** The connector as the recipe of docs/registries-and-clusters.md sets it up. */
  private Map<String, String> mirrorConfig(String topic, EmbeddedKafka target, String targetRegistryUrl) {
    Map<String, String> config = new HashMap<>();
    config.put("name", "mirror");
    config.put("connector.class", "org.apache.kafka.connect.mirror.MirrorSourceConnector");
    config.put("tasks.max", "1");
    config.put("source.cluster.alias", "src");
    config.put("target.cluster.alias", "dst");
    config.put("source.cluster.bootstrap.servers", stack.bootstrapServers());
    config.put("target.cluster.bootstrap.servers", target.bootstrapServers());
    config.put("topics", topic);
    config.put("replication.factor", "1");
    config.put("offset-syncs.topic.replication.factor", "1");
    config.put("sync.topic.acls.enabled", "false");
    config.put("refresh.topics.interval.seconds", "1");
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("transforms", "ids");
    config.put("transforms.ids.type", "io.kavro.connect.SchemaIdTranslation$Value");
    config.put("transforms.ids.source.schema.registry.url", stack.registryUrl());
    config.put("transforms.ids.target.schema.registry.url", targetRegistryUrl);
    config.put("errors.retry.timeout", "-1");
    config.put("errors.tolerance", "all");
    config.put("errors.log.enable", "true");
    return config;
  }

  /**
   * A Connect worker of Kafka 4.3 with MirrorMaker 2 (module tests/fixtures/mirror-maker-4.3) in a JVM of its
   * own, writing to the target cluster, with Kavro's plugin on its plugin.path as users install it, running
   * {@code connector}.
   */
  private Process startWorker(EmbeddedKafka target, Map<String, String> connector) throws Exception {
    Path plugins = Path.of(System.getProperty("kavro.connect.plugins", "../../connect-plugin/target"))
        .resolve("kavro-connect-plugin");
    Path worker = Path.of(System.getProperty("kavro.mirror.worker", "../fixtures/mirror-maker-4.3/target/worker"));
    List<String> classPath = new ArrayList<>();
    try (var jars = Files.list(worker)) {
      jars.map(jar -> jar.toAbsolutePath().toString()).sorted().forEach(classPath::add);
    }
    assertThat(classPath).as("MirrorMaker 2's class path").anyMatch(jar -> jar.contains("connect-mirror-4.3."));
    Map<String, String> props = new HashMap<>();
    props.put("bootstrap.servers", target.bootstrapServers());
    props.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    props.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    props.put("offset.storage.file.filename", dir.resolve("offsets").toString());
    props.put("plugin.path", plugins.toAbsolutePath().toString());
    props.put("listeners", "http://127.0.0.1:0");
    props.put("rest.advertised.host.name", "127.0.0.1");
    // Plugins found through their ServiceLoader manifests alone, as the worker itself advises ("All plugins have
    // ServiceLoader manifests, consider reconfiguring plugin.discovery=service_load"): the default's reflective
    // scan of the plugin and the class path took 2.7 of the worker's 5 s start. PluginPathWorkerTest's 3.9 worker
    // keeps the default (hybrid_warn), which finds Kavro's plugin by that scan too.
    props.put("plugin.discovery", "service_load");
    Path logConfig = Files.writeString(dir.resolve("log4j2.xml"), """
        <Configuration status="WARN">
          <Appenders><Console name="console" target="SYSTEM_OUT"><PatternLayout pattern="%-5level %c - %msg%n"/>
          </Console></Appenders>
          <Loggers><Logger name="org.apache.kafka.connect.runtime.errors" level="DEBUG"/><Root level="WARN"><AppenderRef ref="console"/></Root></Loggers>
        </Configuration>""");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // C1 and the serial collector: a worker of seconds on two cores, as the testkit's child JVMs.
    return new ProcessBuilder(java, "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-Dlog4j2.configurationFile=" + logConfig.toUri(), "-cp",
        String.join(File.pathSeparator, classPath), "org.apache.kafka.connect.cli.ConnectStandalone",
        write("worker.properties", props).toString(), write("mirror.properties", connector).toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("worker.log").toFile())
        .start();
  }

  private Path write(String name, Map<String, String> properties) throws Exception {
    java.util.Properties file = new java.util.Properties();
    file.putAll(properties);
    Path path = dir.resolve(name);
    try (var out = Files.newOutputStream(path)) {
      file.store(out, null);
    }
    return path;
  }
}
