package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Following the latest version lives in the routes: once warm, neither engine calls the registry client per
 * record, {@code use.latest.*} included. A route is asked again when the client tells of a change, or once per
 * {@code latest.cache.ttl.sec} (the client refreshes its latest cache in the background); each topic follows its
 * own subject's latest.
 */
class LatestRoutesTest {
  private static final Schema V1 = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
        {"name":"note","type":"string","default":"none"}]}""");

  private final Serdes serdes = new Serdes();
  private final AtomicInteger calls = new AtomicInteger();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    serdes.close();
  }

  /**
   * The scope's in-memory registry without a cache in front, counting every call the engines make into it, and
   * keeping their change listeners.
   */
  private SchemaRegistryClient counted() {
    SchemaRegistryClient registry = io.kavro.registry.mock.MockRegistries.scope(serdes.scope);
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("onChange")) {
            listeners.add((Runnable) args[0]);
          } else if (!method.getName().equals("stats") && !method.getName().equals("close")) {
            calls.incrementAndGet();
          }
          try {
            return method.invoke(registry, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static GenericRecord order(Schema schema, long id) {
    GenericRecord order = new GenericData.Record(schema);
    order.put("id", id);
    if (schema == V2) {
      order.put("note", "n" + id);
    }
    return order;
  }

  @Test
  void serializer_useLatestVersion_noClientCallPerRecordOnceWarm() {
    serdes.registry().register("orders-value", V1);
    KafkaAvroSerializer serializer = new KafkaAvroSerializer(counted(),
        serdes.config("use.latest.version", true, "auto.register.schemas", false), false);
    serializer.serialize("orders", order(V1, 0));
    int warm = calls.get();

    for (int i = 1; i <= 1000; i++) {
      serializer.serialize("orders", order(V1, i));
    }

    assertThat(warm).as("the first record asks").isPositive();
    assertThat(calls.get() - warm).isZero();
  }

  @Test
  void deserializer_useLatestVersion_noClientCallPerRecordOnceWarm() {
    byte[] written = serdes.serializer().serialize("orders", order(V1, 7));
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(counted(),
        serdes.config("use.latest.version", true), false);
    deserializer.deserialize("orders", written);
    int warm = calls.get();

    for (int i = 0; i < 1000; i++) {
      deserializer.deserialize("orders", written);
    }

    assertThat(calls.get() - warm).isZero();
  }

  @Test
  void bothSides_useLatestWithMetadata_noClientCallPerRecordOnceWarm() {
    // Written first: a version registered after one with metadata takes its metadata, as in Confluent's registry.
    byte[] written = serdes.serializer().serialize("orders", order(V1, 7));
    io.kavro.registry.mock.MockRegistries.scope(serdes.scope).register("orders-value", V2, java.util.Map.of("team",
        "ops"));
    SchemaRegistryClient client = counted();
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(client,
        serdes.config("use.latest.with.metadata", "team=ops"), false);
    KafkaAvroSerializer serializer = new KafkaAvroSerializer(client, serdes.config("use.latest.with.metadata",
        "team=ops", "auto.register.schemas", false), false);
    assertThat(((GenericRecord) deserializer.deserialize("orders", written)).getSchema()).isEqualTo(V2);
    serializer.serialize("orders", order(V2, 1));
    int warm = calls.get();

    for (int i = 0; i < 100; i++) {
      deserializer.deserialize("orders", written);
      serializer.serialize("orders", order(V2, i));
    }

    assertThat(calls.get() - warm).isZero();
  }

  /** The client tells of a change (a refresh moved the latest, or a schema served from disk was replaced). */
  @Test
  void changeToldByTheClient_theNextRecordIsRoutedAgain() {
    serdes.registry().register("orders-value", V1);
    KafkaAvroSerializer serializer = new KafkaAvroSerializer(counted(),
        serdes.config("use.latest.version", true, "auto.register.schemas", false), false);
    serializer.serialize("orders", order(V1, 0));
    int v2 = serdes.registry().register("orders-value", V2);
    assertThat(listeners).isNotEmpty();

    listeners.forEach(Runnable::run); // what the caching client does when its latest cache moves
    byte[] written = serializer.serialize("orders", order(V1, 1));

    assertThat(WireFormat.schemaId(ByteBuffer.wrap(written))).isEqualTo(v2);
  }

  /** With a TTL, a new latest version is followed within about twice it, without a restart. */
  @Test
  void latestCacheTtl_aNewVersionIsFollowed() throws InterruptedException {
    serdes.registry().register("orders-value", V1);
    byte[] old = serdes.serializer().serialize("orders", order(V1, 3));
    KafkaAvroSerializer serializer = serdes.serializer("use.latest.version", true, "auto.register.schemas", false,
        "latest.cache.ttl.sec", 1);
    KafkaAvroDeserializer deserializer = serdes.deserializer("use.latest.version", true, "latest.cache.ttl.sec", 1);
    serializer.serialize("orders", order(V1, 0));
    assertThat(((GenericRecord) deserializer.deserialize("orders", old)).getSchema()).isEqualTo(V1);

    int v2 = serdes.registry().register("orders-value", V2);

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    int written;
    GenericRecord read;
    do {
      Thread.sleep(100);
      written = WireFormat.schemaId(ByteBuffer.wrap(serializer.serialize("orders", order(V1, 1))));
      read = (GenericRecord) deserializer.deserialize("orders", old);
    } while ((written != v2 || read.getSchema() != V2 && !read.getSchema().equals(V2))
        && System.nanoTime() < deadline);

    assertThat(written).isEqualTo(v2);
    assertThat(read.getSchema()).isEqualTo(V2);
    assertThat(read.get("note")).hasToString("none");
  }

  /** One writer schema on two topics whose subjects' latest versions differ: each topic reads as its own. */
  @Test
  void twoTopics_eachReadAsItsOwnSubjectsLatest() {
    byte[] onA = serdes.serializer().serialize("a", order(V1, 1));
    byte[] onB = serdes.serializer().serialize("b", order(V1, 2));
    serdes.registry().register("b-value", V2);
    assertThat(WireFormat.schemaId(ByteBuffer.wrap(onA))).isEqualTo(WireFormat.schemaId(ByteBuffer.wrap(onB)));
    KafkaAvroDeserializer deserializer = serdes.deserializer("use.latest.version", true);

    for (int i = 0; i < 3; i++) {
      assertThat(((GenericRecord) deserializer.deserialize("a", onA)).getSchema()).isEqualTo(V1);
      assertThat(((GenericRecord) deserializer.deserialize("b", onB)).getSchema()).isEqualTo(V2);
    }
  }
}
