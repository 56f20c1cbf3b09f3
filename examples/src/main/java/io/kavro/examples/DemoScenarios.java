package io.kavro.examples;

import io.kavro.examples.avro.Order;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SubjectVersion;
import io.kavro.serde.WireFormat;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;

/** The demo's scenarios: each runs one example and prints what a person wants to see. */
final class DemoScenarios {
  private final Endpoints endpoints;
  private final PrintStream out;
  private final String prefix = "kavro-demo-" + Long.toString(System.currentTimeMillis(), 36);
  private final SchemaRegistryClient registry;
  private int subjects;
  private long produced;
  private long consumed;
  private long batchRecords;
  private long avroBytes;
  private long jsonBytes;

  DemoScenarios(Endpoints endpoints, PrintStream out) {
    this.endpoints = endpoints;
    this.out = out;
    this.registry = SchemaRegistryClients.create(Map.of("schema.registry.url", endpoints.registryUrl()));
  }

  void genericRecords() throws Exception {
    heading("1. Generic records from an .avsc file (ProducerApp, ConsumerApp)");
    String topic = prefix + "-users";
    Topics.create(endpoints, topic);
    ProducerApp.produce(endpoints, topic, 5);
    produced += 5;
    registered(topic + "-value");
    List<ConsumerRecord<String, GenericRecord>> users = ConsumerApp.consume(endpoints, topic, 5, Duration.ofSeconds(30));
    consumed += users.size();
    out.println("  read back " + users.size() + " records, decoded as JSON:");
    users.stream().limit(3).forEach(r -> out.println("    " + r.key() + " -> " + r.value()));

    ConsumerRecord<String, byte[]> raw = firstRaw(topic);
    byte[] bytes = raw.value();
    String json = GenericData.get().toString(users.get(0).value());
    int jsonSize = json.getBytes(StandardCharsets.UTF_8).length;
    out.println("  one framed record, " + bytes.length + " bytes:");
    out.println("    " + HexFormat.ofDelimiter(" ").formatHex(bytes, 0, WireFormat.HEADER_SIZE) + " | "
        + HexFormat.ofDelimiter(" ").formatHex(bytes, WireFormat.HEADER_SIZE, bytes.length));
    out.println("    magic byte 0x00, schema id " + ByteBuffer.wrap(bytes, 1, 4).getInt() + " (big-endian), then "
        + (bytes.length - WireFormat.HEADER_SIZE) + " bytes of Avro");
    out.printf("  the same record as JSON is %d bytes: the framed Avro record is %d%% of that%n", jsonSize,
        Math.round(100.0 * bytes.length / jsonSize));
  }

  void specificRecords() {
    heading("2. Generated SpecificRecord classes (SpecificRecordExample)");
    String topic = prefix + "-orders";
    Topics.create(endpoints, topic);
    List<Order> orders = SpecificRecordExample.run(endpoints, topic, 6);
    produced += 6;
    consumed += orders.size();
    registered(topic + "-value");
    out.println("  read back " + orders.size() + " " + Order.class.getSimpleName() + " objects, for example:");
    out.println("    " + orders.get(0));
  }

  void reflection() {
    heading("3. A plain Java record, by reflection (ReflectionExample)");
    String topic = prefix + "-readings";
    Topics.create(endpoints, topic);
    List<ReflectionExample.Reading> readings = ReflectionExample.run(endpoints, topic, 3);
    produced += 3;
    consumed += readings.size();
    registered(topic + "-value");
    out.println("  read back: " + readings);
  }

  void evolution() {
    heading("4. Schema evolution (EvolutionExample)");
    String topic = prefix + "-evolving-users";
    Topics.create(endpoints, topic);
    EvolutionExample.Outcome outcome = EvolutionExample.run(endpoints, topic);
    produced += 2;
    consumed += outcome.read().size();
    for (int version : registry.versions(topic + "-value")) {
      SubjectVersion v = registry.version(topic + "-value", version);
      out.println("  registered: subject " + v.subject() + ", version " + v.version() + ", id " + v.id());
      subjects++;
    }
    out.println("  a v2 consumer reads v1 and v2 records alike (v1 gets the default country):");
    outcome.read().forEach(r -> out.println("    " + r));
    out.println("  an incompatible v3 ('id' becomes a string) is refused before anything is written:");
    out.println("    " + (outcome.rejection() == null ? "NOT REFUSED" : outcome.rejection()));
  }

  void streams() throws Exception {
    heading("5. Kafka Streams with AvroSerde (StreamsApp)");
    String input = prefix + "-orders";
    String output = prefix + "-paid-orders";
    Topics.create(endpoints, output);
    java.nio.file.Path state = Files.createTempDirectory("kavro-demo-streams");
    try (KafkaStreams streams = StreamsApp.start(endpoints, input, output, state.toString())) {
      List<ConsumerRecord<String, GenericRecord>> paid = ConsumerApp.consume(endpoints, output, 3, Duration.ofSeconds(60));
      produced += paid.size();
      consumed += paid.size();
      out.println("  the topology kept the paid orders and wrote " + paid.size() + " summaries:");
      paid.forEach(r -> out.println("    " + r.value()));
      registered(output + "-value");
      streams.close(Duration.ofSeconds(10));
    } finally {
      // The topology's state, which nothing needs once the demo ends.
      try (java.util.stream.Stream<java.nio.file.Path> tree = Files.walk(state)) {
        tree.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  void batch(int count) {
    heading("6. A larger batch: " + String.format("%,d", count) + " records");
    String topic = prefix + "-batch";
    Topics.create(endpoints, topic);
    Properties props = new Properties();
    props.put("bootstrap.servers", endpoints.bootstrapServers());
    props.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
    props.put("value.serializer", "io.kavro.serde.KafkaAvroSerializer");
    props.put("schema.registry.url", endpoints.registryUrl());
    props.put("linger.ms", "20");
    props.put("batch.size", "262144");
    props.put("compression.type", "lz4");
    long start = System.nanoTime();
    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(topic, "order-" + i, SpecificRecordExample.order(i)));
        progress("produced", i + 1, count);
      }
    }
    long produceMillis = Math.max(1, (System.nanoTime() - start) / 1_000_000);
    produced += count;
    registered(topic + "-value");

    start = System.nanoTime();
    int read = 0;
    Properties consumerProps = new Properties();
    consumerProps.put("bootstrap.servers", endpoints.bootstrapServers());
    consumerProps.put("group.id", "kavro-demo-" + topic);
    consumerProps.put("auto.offset.reset", "earliest");
    consumerProps.put("key.deserializer", StringDeserializer.class.getName());
    consumerProps.put("value.deserializer", "io.kavro.serde.KafkaAvroDeserializer");
    consumerProps.put("schema.registry.url", endpoints.registryUrl());
    consumerProps.put("specific.avro.reader", "true");
    consumerProps.put("max.poll.records", "5000");
    try (KafkaConsumer<String, Order> consumer = new KafkaConsumer<>(consumerProps)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (read < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, Order> record : consumer.poll(Duration.ofMillis(200))) {
          read++;
          avroBytes += record.serializedValueSize();
          jsonBytes += GenericData.get().toString(record.value()).getBytes(StandardCharsets.UTF_8).length;
          progress("consumed", read, count);
        }
      }
    }
    long consumeMillis = Math.max(1, (System.nanoTime() - start) / 1_000_000);
    consumed += read;
    batchRecords = read;
    out.printf("  produced in %,d ms (%,d records/s), consumed in %,d ms (%,d records/s)%n", produceMillis,
        count * 1000L / produceMillis, consumeMillis, read * 1000L / consumeMillis);
    if (read < count) {
      throw new IllegalStateException("read only " + read + " of " + count + " records back");
    }
  }

  void summary(long startNanos) {
    heading("Summary");
    out.printf("  subjects registered:       %d%n", subjects);
    out.printf("  records produced:          %,d (by the examples' producers and the Streams app)%n", produced);
    out.printf("  records consumed:          %,d%n", consumed);
    if (jsonBytes > 0) {
      out.printf("  batch payload, Avro:       %,d bytes (%,.1f per record)%n", avroBytes,
          (double) avroBytes / batchRecords);
      out.printf("  the same records as JSON:  %,d bytes (Avro is %d%% of JSON)%n", jsonBytes,
          Math.round(100.0 * avroBytes / jsonBytes));
    }
    out.printf("  time:                      %,.1f s%n", (System.nanoTime() - startNanos) / 1e9);
    out.println("  Demo finished: every record written was read back.");
  }

  private void registered(String subject) {
    SubjectVersion latest = registry.latestVersion(subject);
    out.println("  registered: subject " + latest.subject() + ", version " + latest.version() + ", id " + latest.id());
    subjects++;
  }

  private ConsumerRecord<String, byte[]> firstRaw(String topic) {
    Properties props = new Properties();
    props.put("bootstrap.servers", endpoints.bootstrapServers());
    props.put("group.id", "kavro-demo-raw-" + topic);
    props.put("auto.offset.reset", "earliest");
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
        new ByteArrayDeserializer())) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          return record;
        }
      }
    }
    throw new IllegalStateException("no record on " + topic + " within 30 s");
  }

  private void progress(String what, int done, int total) {
    if (done == total || done % Math.max(1, total / 4) == 0) {
      out.printf("  %s %,d / %,d (%d%%)%n", what, done, total, done * 100L / total);
    }
  }

  private void heading(String title) {
    out.println();
    out.println("== " + title);
  }

  void close() {
    registry.close();
  }
}
