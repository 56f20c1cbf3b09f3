package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kavro.it.connect.CollectingSinkTask;
import io.kavro.it.connect.StructSourceConnector;
import io.kavro.it.connect.TestSinkConnector;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.connect.cli.ConnectStandalone;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.Herder;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorInfo;
import org.apache.kafka.connect.runtime.standalone.StandaloneHerder;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.util.FutureCallback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Kafka Connect worker (standalone, in this JVM, REST on 127.0.0.1) configured only through the
 * examples' worker properties, which name Kavro's AvroConverter: a source writes Structs, a sink reads them.
 */
@ExtendWith(KavroStackExtension.class)
class ConnectTest {
  private static final int COUNT = 25;

  private final TestStack stack;
  private final KafkaFixture kafka;

  @TempDir
  Path dir;

  ConnectTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void sourceToTopicToSink_throughAvroConverter() throws Exception {
    String topic = kafka.topic("connect");
    Connect<StandaloneHerder> connect = new ConnectStandalone().startConnect(workerProps());
    try {
      create(connect, "source-" + topic, Map.of("connector.class", StructSourceConnector.class.getName(),
          "tasks.max", "1", "topic", topic, "count", Integer.toString(COUNT)));

      // The topic holds Avro that Kavro's deserializer reads, under the expected subject.
      List<ConsumerRecord<String, GenericRecord>> written = kafka.consume(
          kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class), topic, COUNT);
      assertThat(written).extracting(r -> r.value().get("id")).containsExactlyElementsOf(
          java.util.stream.LongStream.range(0, COUNT).boxed().toList());
      assertThat(written.get(3).value().getSchema().getFullName()).isEqualTo("io.kavro.it.connect.Reading");
      try (SchemaRegistryClient registry = SchemaRegistryClients.create(
          Map.of("schema.registry.url", stack.registryUrl()))) {
        assertThat(registry.subjects()).contains(topic + "-value");
        assertThat(registry.versions(topic + "-value")).containsExactly(1);
      }

      // A sink reads the topic back through the converter: exactly the records that went in.
      create(connect, "sink-" + topic, Map.of("connector.class", TestSinkConnector.class.getName(),
          "tasks.max", "1", "topics", topic, "collector", topic));
      await().atMost(Duration.ofSeconds(60))
          .until(() -> CollectingSinkTask.RECEIVED.getOrDefault(topic, List.of()).size() >= COUNT);
      List<SinkRecord> received = CollectingSinkTask.RECEIVED.get(topic);
      assertThat(received).hasSize(COUNT);
      // As from Confluent's converter, the sink's schema has the subject's version of the writer schema: 1.
      org.apache.kafka.connect.data.SchemaBuilder builder = org.apache.kafka.connect.data.SchemaBuilder.struct()
          .name(StructSourceConnector.SCHEMA.name()).doc(StructSourceConnector.SCHEMA.doc()).version(1);
      StructSourceConnector.SCHEMA.fields().forEach(field -> builder.field(field.name(), field.schema()));
      org.apache.kafka.connect.data.Schema versioned = builder.build();
      for (int i = 0; i < COUNT; i++) {
        assertThat(received.get(i).key()).isEqualTo("key-" + i);
        assertThat(received.get(i).valueSchema()).isEqualTo(versioned);
        org.apache.kafka.connect.data.Struct sent = StructSourceConnector.reading(i);
        org.apache.kafka.connect.data.Struct expected = new org.apache.kafka.connect.data.Struct(versioned);
        versioned.fields().forEach(field -> expected.put(field.name(), sent.get(field.name())));
        assertThat(received.get(i).value()).isEqualTo(expected);
      }
    } finally {
      connect.stop();
      connect.awaitStop();
    }
  }

  private Map<String, String> workerProps() throws Exception {
    Properties props = new Properties();
    // The examples' worker configuration, as users copy it (read from the source tree: no module depends on
    // the examples).
    try (InputStream in = Files.newInputStream(Path.of("..", "..", "examples", "src", "main", "connect",
        "worker-avro.properties"))) {
      props.load(in);
    }
    Map<String, String> worker = new HashMap<>();
    props.forEach((k, v) -> worker.put(k.toString(), v.toString()));
    worker.put("bootstrap.servers", stack.bootstrapServers());
    worker.put("value.converter.schema.registry.url", stack.registryUrl());
    worker.put("offset.storage.file.filename", Files.createFile(dir.resolve("offsets")).toString());
    worker.put("listeners", "http://127.0.0.1:0");
    worker.put("rest.advertised.host.name", "127.0.0.1");
    // Plugins found through their ServiceLoader manifests (the test connectors' are in src/test/resources), not
    // by a reflective scan of this JVM's whole class path (about 3.5 s of this test's 6). PluginPathWorkerTest's
    // 3.9 worker keeps the default, which scans.
    worker.put("plugin.discovery", "service_load");
    assertThat(worker.get("value.converter")).isEqualTo("io.kavro.connect.AvroConverter");
    return worker;
  }

  private static void create(Connect<StandaloneHerder> connect, String name, Map<String, String> config)
      throws Exception {
    FutureCallback<Herder.Created<ConnectorInfo>> created = new FutureCallback<>();
    Map<String, String> full = new HashMap<>(config);
    full.put("name", name);
    connect.herder().putConnectorConfig(name, full, false, created);
    created.get(60, TimeUnit.SECONDS);
  }
}
