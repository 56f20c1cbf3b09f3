package io.kavro.bench;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.EmbeddedKafka;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The serde inside real Kafka clients, against an in-JVM KRaft broker ({@link EmbeddedKafka}), S3: one operation
 * moves {@value #RECORDS} records. {@link #consume}: a {@code KafkaConsumer}'s poll loop reading a topic filled
 * beforehand (the same bytes for both sides: what Kavro's serializer wrote), from its start, every value handed on;
 * {@link #produce}: a {@code KafkaProducer} sending the records and flushing, acknowledged (a new topic each
 * iteration). {@code KAVRO} is Kavro's deserializer or serializer on the generic records; {@code BYTES} is
 * {@code ByteArrayDeserializer} or {@code ByteArraySerializer} on the same records already serialized: the rest of
 * the client's work, which the serde adds to; {@code RAW_AVRO} is Avro's own generic writer or (fast) reader of the
 * schema, built beforehand and handed the records directly with the same 5-byte header ({@link RawAvro}): Avro's own
 * serde with no registry, the baseline beside Kavro's (neither a floor nor a ceiling of any serde). {@code FLOOR}
 * is the floor under any serde of these records, in the same loop ({@link FloorSerde}): consuming, a deserializer
 * that reads no byte and only allocates the object graph Kavro returns for the record (the same classes, string and
 * byte lengths, element counts and values: {@link ReferenceReaders#allocationOnly}, planned beforehand from what
 * Kavro's deserializer returned for each of the 1,024 payloads), the highest throughput any deserializer returning
 * Avro's generic records can reach here; producing, a serializer handed the same generic records that reads every
 * value of each as any serializer must at least read it ({@link ValuesRead}) and returns a copy of its bytes already
 * serialized, the output array any serializer must at least allocate.
 * {@code HAND_WRITTEN} (produce only) is a writer hand-written for exactly S3's schema ({@link
 * GenericReferenceWriter}, checked in set-up to write Kavro's bytes for all 1,024 records): what one writer
 * hand-written for this schema reaches here, not a bound on every serializer (its strings are encoded by the same
 * char loop as Kavro's {@code ByteSink}, so it cannot show a faster string encoding). Records per
 * second = {@value #RECORDS} / the time of one operation.
 * Run with {@code -gc true}, so that no operation pays for the garbage of the one before.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class KafkaClientBenchmark {
  /** Records moved by one operation. */
  public static final int RECORDS = 500_000;
  private static final Duration PATIENCE = Duration.ofMinutes(2);
  private static final Failures FAILURES = new Failures();

  /** Which value (de)serializer the clients run. */
  public enum Serde {
    /** Kavro's serializer or deserializer. */
    KAVRO,
    /** Kafka's byte-array serializer or deserializer, over the records already serialized by Kavro. */
    BYTES,
    /** Avro's own writer or fast reader of the schema, built beforehand, no registry: the baseline, not a floor. */
    RAW_AVRO,
    /**
     * The floor under any serde of these records ({@link FloorSerde}): the record's object graph built without
     * reading a byte, or every value of the record read and a copy of its bytes already serialized.
     */
    FLOOR,
    /**
     * Produce only: a writer hand-written for exactly S3's schema ({@link GenericReferenceWriter}), checked to write
     * Kavro's bytes for every record; what one writer hand-written for this schema reaches (its strings encoded by
     * the same char loop as Kavro's {@code ByteSink}), not a bound on every serializer.
     */
    HAND_WRITTEN
  }

  /**
   * The floor under any serde of the records in this benchmark's order, record {@code i} of an operation being
   * {@code records.get(i & 1023)} and its bytes {@code bytes[i & 1023]} (the topic consumed holds them in that
   * order, from its start). Deserializing, it allocates the object graph planned for record {@code i} without
   * reading its bytes ({@link ReferenceReaders#allocationOnly}); serializing, it reads every value of record
   * {@code i} as any serializer must at least read it ({@link ValuesRead}) and returns a copy of its bytes. Each call checks, without reading a byte, that it was given record {@code i} (the same
   * object, or a payload of its length), so a loop out of step fails instead of measuring other records.
   * {@link #restart} at the start of each operation.
   *
   * <p>Not thread-safe: one per client.
   */
  static final class FloorSerde implements org.apache.kafka.common.serialization.Serializer<Object>,
      org.apache.kafka.common.serialization.Deserializer<Object> {
    private final List<GenericRecord> records;
    private final byte[][] bytes;
    private final ReferenceReaders reference;
    private final ReferenceReaders.Plan[] plans;
    private int next;
    /** What {@link #serialize} read of its records: kept, so that no reading is left out as unused. */
    private int read;

    /**
     * The floor of {@code bytes}, the payloads Kavro's serializer wrote for {@code records}, each planned from
     * what {@code kavro} returns for it and checked to rebuild it: the same classes throughout, every string's and
     * byte array's length, every count and every number; only the strings' and bytes' contents differ (zeros, as
     * no byte is read), so Avro's {@code equals} cannot be the check.
     *
     * @throws IllegalStateException if the graph planned for a payload is not what Kavro returned for it
     */
    FloorSerde(List<GenericRecord> records, byte[][] bytes, KafkaAvroDeserializer kavro) {
      this.records = records;
      this.bytes = bytes;
      reference = new ReferenceReaders(Shape.S3);
      plans = new ReferenceReaders.Plan[bytes.length];
      for (int i = 0; i < bytes.length; i++) {
        GenericRecord read = (GenericRecord) kavro.deserialize("consumed", bytes[i]);
        plans[i] = reference.plan(read);
        GenericRecord allocated = (GenericRecord) reference.allocationOnly(plans[i]);
        ReferenceReaders.Plan rebuilt = reference.plan(allocated);
        if (!java.util.Arrays.equals(rebuilt.sizes(), plans[i].sizes())
            || !java.util.Arrays.equals(rebuilt.numbers(), plans[i].numbers()) || !sameClasses(read, allocated)) {
          throw new IllegalStateException("the allocated graph of record " + i + " is not the one Kavro returns: "
              + allocated + " against " + read);
        }
      }
    }

    /**
     * Whether {@code a} and {@code b} are of the same classes throughout: each record's fields, each list's
     * elements, each map's keys and values (their contents aside: the floor reads no byte, so its strings and
     * bytes hold zeros).
     */
    private static boolean sameClasses(Object a, Object b) {
      if (a == null || b == null) {
        return a == b;
      }
      if (a.getClass() != b.getClass()) {
        return false;
      }
      if (a instanceof GenericRecord r) {
        GenericRecord s = (GenericRecord) b;
        for (int f = 0; f < r.getSchema().getFields().size(); f++) {
          if (!sameClasses(r.get(f), s.get(f))) {
            return false;
          }
        }
        return r.getSchema().equals(s.getSchema());
      }
      if (a instanceof List<?> x) {
        List<?> y = (List<?>) b;
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
          if (!sameClasses(x.get(i), y.get(i))) {
            return false;
          }
        }
        return x.size() == y.size();
      }
      if (a instanceof Map<?, ?> x) {
        Map<?, ?> y = (Map<?, ?>) b;
        return x.size() == y.size() && (x.isEmpty() || sameClasses(x.keySet().iterator().next(),
            y.keySet().iterator().next()) && sameClasses(x.values().iterator().next(), y.values().iterator().next()));
      }
      return true;
    }

    /** The next call is for record 0. */
    void restart() {
      next = 0;
    }

    private int index(boolean given, Object what) {
      int i = next++ & (bytes.length - 1);
      if (!given) {
        throw new IllegalStateException("record " + (next - 1) + " is not the one planned (" + what + ")");
      }
      return i;
    }

    @Override
    public byte[] serialize(String topic, Object data) {
      int i = next & (bytes.length - 1);
      int index = index(data == records.get(i), data);
      read += ValuesRead.of(Shape.S3, data);
      return bytes[index].clone();
    }

    @Override
    public Object deserialize(String topic, byte[] data) {
      int i = next & (bytes.length - 1);
      return reference.allocationOnly(plans[index(data != null && data.length == bytes[i].length, "a payload")]);
    }

    /** Reads nothing of the buffer: the consumer's fetched bytes are not copied, as Kavro does not copy them. */
    @Override
    public Object deserialize(String topic, org.apache.kafka.common.header.Headers headers, java.nio.ByteBuffer data) {
      int i = next & (bytes.length - 1);
      return reference.allocationOnly(plans[index(data != null && data.remaining() == bytes[i].length,
          "a payload")]);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      // built complete: nothing to configure
    }

    @Override
    public void close() {
      // holds nothing to release
    }
  }

  /** The hand-written writer of S3 as a client's serializer; one per client. */
  static final class HandWrittenSerializer implements org.apache.kafka.common.serialization.Serializer<Object> {
    private final GenericReferenceWriter writer;

    HandWrittenSerializer(GenericReferenceWriter writer) {
      this.writer = writer;
    }

    @Override
    public byte[] serialize(String topic, Object data) {
      return writer.write(data);
    }
  }

  /** Raw Avro as a client's serde: one writer and reader of S3 with the schema's id in the header; one per client. */
  static final class RawAvroSerde implements org.apache.kafka.common.serialization.Serializer<Object>,
      org.apache.kafka.common.serialization.Deserializer<Object> {
    private final RawAvro raw;

    RawAvroSerde(int id) {
      raw = new RawAvro(Shape.S3.writer(), Shape.S3.writer(), id);
    }

    @Override
    public byte[] serialize(String topic, Object data) {
      return raw.serialize(data);
    }

    @Override
    public Object deserialize(String topic, byte[] data) {
      return raw.deserialize(data);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      // built complete: nothing to configure
    }

    @Override
    public void close() {
      // holds nothing to release
    }
  }

  /**
   * The broker, the registry scope, the records and their bytes; {@link Consumed} or {@link Produced} declares which
   * serdes run (two states, as JMH cannot leave a parameter's value out of one benchmark method only, and a
   * hand-written deserializer is not measured).
   */
  public abstract static class Broker {
    EmbeddedKafka kafka;
    Admin admin;
    final MockScope scope = new MockScope();
    final List<GenericRecord> records = BenchData.records(Shape.S3);
    final byte[][] bytes = new byte[records.size()][];
    Map<String, Object> common;

    @Setup(Level.Trial)
    public void setUp() {
      kafka = EmbeddedKafka.start(0);
      admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
      common = Map.of("bootstrap.servers", kafka.bootstrapServers(), "schema.registry.url", scope.url(),
          "avro.use.logical.type.converters", false);
      try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
        serializer.configure(common, false);
        for (int i = 0; i < records.size(); i++) {
          bytes[i] = serializer.serialize("filled", records.get(i));
        }
      }
    }

    /** Which serde the clients run. */
    abstract Serde serde();

    /** Record {@code i}'s value as the producer is handed it. */
    Object value(int i) {
      return serde() == Serde.BYTES ? bytes[i & 1023] : records.get(i & 1023);
    }

    /** The value serializer of {@link #serde}. */
    org.apache.kafka.common.serialization.Serializer<Object> serializer() {
      return switch (serde()) {
        case KAVRO -> configured(new KafkaAvroSerializer());
        case BYTES -> cast(new ByteArraySerializer());
        case RAW_AVRO -> new RawAvroSerde(schemaId());
        case FLOOR -> floor();
        case HAND_WRITTEN -> new HandWrittenSerializer(
            GenericReferenceWriter.checked(Shape.S3, records, java.util.Arrays.asList(bytes)));
      };
    }

    /** The value deserializer of {@link #serde}. */
    org.apache.kafka.common.serialization.Deserializer<Object> deserializer() {
      return switch (serde()) {
        case KAVRO -> {
          KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
          deserializer.configure(common, false);
          yield deserializer;
        }
        case BYTES -> cast(new ByteArrayDeserializer());
        case RAW_AVRO -> new RawAvroSerde(schemaId());
        case FLOOR -> floor();
        case HAND_WRITTEN -> throw new IllegalArgumentException("no hand-written deserializer is measured");
      };
    }

    /** A floor serde of the records, planned from what Kavro's deserializer returns for their bytes. */
    private FloorSerde floor() {
      try (KafkaAvroDeserializer kavro = new KafkaAvroDeserializer()) {
        kavro.configure(common, false);
        return new FloorSerde(records, bytes, kavro);
      }
    }

    private org.apache.kafka.common.serialization.Serializer<Object> configured(KafkaAvroSerializer serializer) {
      serializer.configure(common, false);
      return serializer;
    }

    /** The schema id that Kavro's serializer wrote into the records' header. */
    private int schemaId() {
      return java.nio.ByteBuffer.wrap(bytes[0], 1, 4).getInt();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> T cast(Object serde) {
      return (T) serde;
    }

    void createTopic(String topic) throws Exception {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      admin.close();
      kafka.close();
      scope.close();
    }
  }

  /** The broker of {@link #consume}, with the serdes it runs. */
  @State(Scope.Benchmark)
  public static class Consumed extends Broker {
    @Param({"KAVRO", "BYTES", "RAW_AVRO", "FLOOR"})
    public Serde serde;

    @Override
    Serde serde() {
      return serde;
    }
  }

  /** The broker of {@link #produce}, with the serdes it runs: those of {@link Consumed} and the hand-written one. */
  @State(Scope.Benchmark)
  public static class Produced extends Broker {
    @Param({"KAVRO", "BYTES", "RAW_AVRO", "FLOOR", "HAND_WRITTEN"})
    public Serde serde;

    @Override
    Serde serde() {
      return serde;
    }
  }

  /** A consumer assigned the partition of a topic holding {@value #RECORDS} records of S3. */
  @State(Scope.Benchmark)
  public static class Consuming {
    KafkaConsumer<byte[], Object> consumer;
    List<TopicPartition> partitions;
    /** The consumer's deserializer when it is the floor, else {@code null}. */
    FloorSerde floor;

    @Setup(Level.Trial)
    public void setUp(Consumed broker) throws Exception {
      String topic = "consumed";
      broker.createTopic(topic);
      Map<String, Object> config = new HashMap<>(broker.common);
      config.put("key.serializer", ByteArraySerializer.class.getName());
      config.put("value.serializer", ByteArraySerializer.class.getName());
      Producing.settings(config);
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
        for (int i = 0; i < RECORDS; i++) {
          producer.send(new ProducerRecord<>(topic, broker.bytes[i & 1023]));
        }
        producer.flush();
      }
      config = new HashMap<>(broker.common);
      config.put("max.poll.records", 10_000);
      config.put("fetch.max.bytes", 64 * 1024 * 1024);
      config.put("max.partition.fetch.bytes", 16 * 1024 * 1024);
      org.apache.kafka.common.serialization.Deserializer<Object> values = broker.deserializer();
      floor = values instanceof FloorSerde f ? f : null;
      consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), values);
      partitions = List.of(new TopicPartition(topic, 0));
      consumer.assign(partitions);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      consumer.close();
    }
  }

  /** A producer, and a new topic each iteration. */
  @State(Scope.Benchmark)
  public static class Producing {
    KafkaProducer<byte[], Object> producer;
    String topic;
    /** The producer's serializer when it is the floor, else {@code null}. */
    FloorSerde floor;
    private int iteration;

    static void settings(Map<String, Object> config) {
      config.put("linger.ms", 10);
      config.put("batch.size", 512 * 1024);
      config.put("acks", "1");
    }

    @Setup(Level.Trial)
    public void setUp(Produced broker) {
      Map<String, Object> config = new HashMap<>(broker.common);
      settings(config);
      org.apache.kafka.common.serialization.Serializer<Object> values = broker.serializer();
      floor = values instanceof FloorSerde f ? f : null;
      producer = new KafkaProducer<>(config, new ByteArraySerializer(), values);
    }

    /**
     * A new topic, its metadata fetched. The earlier ones are kept to the end (the broker's folder is deleted
     * then): deleting one while the next iteration produces made that iteration's time a matter of luck.
     */
    @Setup(Level.Iteration)
    public void newTopic(Produced broker) throws Exception {
      topic = "produced-" + iteration++;
      broker.createTopic(topic);
      producer.partitionsFor(topic);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      producer.close();
    }
  }

  /** Reads the topic from its start to its {@value #RECORDS}th record; returns the count. */
  @Benchmark
  public int consume(Consuming consuming, Blackhole blackhole) {
    KafkaConsumer<byte[], Object> consumer = consuming.consumer;
    consumer.seekToBeginning(consuming.partitions);
    if (consuming.floor != null) {
      consuming.floor.restart();
    }
    int read = 0;
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (read < RECORDS) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("consumed " + read + " of " + RECORDS + " records in " + PATIENCE);
      }
      ConsumerRecords<byte[], Object> records = consumer.poll(Duration.ofMillis(200));
      for (ConsumerRecord<byte[], Object> record : records) {
        blackhole.consume(record.value());
      }
      read += records.count();
    }
    return read;
  }

  /** Sends {@value #RECORDS} records and waits until all are acknowledged. */
  @Benchmark
  public void produce(Produced broker, Producing producing) {
    KafkaProducer<byte[], Object> producer = producing.producer;
    if (producing.floor != null) {
      producing.floor.restart();
    }
    for (int i = 0; i < RECORDS; i++) {
      producer.send(new ProducerRecord<>(producing.topic, broker.value(i)), FAILURES);
    }
    producer.flush();
    if (FAILURES.sum() != 0) {
      throw new IllegalStateException(FAILURES.sum() + " record(s) not acknowledged by the broker");
    }
  }

  /** Counts the sends that failed; a measured operation with any fails. */
  private static final class Failures extends java.util.concurrent.atomic.LongAdder
      implements org.apache.kafka.clients.producer.Callback {
    @Override
    public void onCompletion(org.apache.kafka.clients.producer.RecordMetadata metadata, Exception exception) {
      if (exception != null) {
        increment();
      }
    }
  }
}
