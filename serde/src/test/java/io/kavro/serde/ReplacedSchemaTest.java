package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, item 15: a read plan does not outlive the schema it was built from. When the client replaces the
 * schema of an id (one it served from disk during an outage, answered otherwise by the registry), the
 * deserializer builds its plan anew; it kept decoding with the old one until eviction or restart.
 */
class ReplacedSchemaTest {
  private static final Schema FROM_DISK = new Schema.Parser().parse("""
      {"type":"record","name":"Reading","fields":[{"name":"a","type":"int"}]}""");
  private static final Schema FROM_REGISTRY = new Schema.Parser().parse("""
      {"type":"record","name":"Reading","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"}]}""");

  private final String scope = "replaced-" + UUID.randomUUID();

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  @Test
  void schemaReplacedByTheClient_planRebuilt() {
    SchemaRegistryClient real = SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://" + scope));
    int id = real.register("readings-value", FROM_DISK);
    AtomicReference<Schema> answer = new AtomicReference<>(FROM_DISK);
    AtomicReference<Runnable> listener = new AtomicReference<>();
    SchemaRegistryClient client = client(real, answer::get, listener);
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(client,
        Map.of("schema.registry.url", "mock://" + scope), false);
    byte[] twoInts = ByteBuffer.allocate(7).put((byte) 0).putInt(id).put((byte) 2).put((byte) 4).array(); // 1, 2

    byte[] oneInt = ByteBuffer.allocate(6).put((byte) 0).putInt(id).put((byte) 2).array();
    assertThat(((GenericRecord) deserializer.deserialize("readings", oneInt)).get("a")).isEqualTo(1);
    // again, so that the route is found in the route tables and indexed, as on every record once warm
    assertThat(((GenericRecord) deserializer.deserialize("readings", oneInt)).get("a")).isEqualTo(1);

    answer.set(FROM_REGISTRY);
    listener.get().run(); // what the caching client does when the registry answers otherwise than its disk

    GenericRecord read = (GenericRecord) deserializer.deserialize("readings", twoInts);
    assertThat(read.getSchema()).isEqualTo(FROM_REGISTRY);
    assertThat(read.get("b")).isEqualTo(2);
    // and on the next record, when the route is looked up where the first one found it
    assertThat(((GenericRecord) deserializer.deserialize("readings", twoInts)).getSchema()).isEqualTo(FROM_REGISTRY);
  }

  /**
   * A route built from the answer before a change, by a thread that asked before the change and put the route into
   * the tables after them had been emptied for it, does not stand: another thread's next record is read with the
   * schema the registry answers now.
   */
  @Test
  void routeBuiltBeforeAChange_putAfterIt_doesNotStand() throws Exception {
    SchemaRegistryClient real = SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://" + scope));
    int id = real.register("readings-value", FROM_DISK);
    AtomicReference<Schema> answer = new AtomicReference<>(FROM_DISK);
    AtomicReference<Runnable> listener = new AtomicReference<>();
    java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
    SchemaRegistryClient client = client(real, () -> {
      if (Thread.currentThread().getName().equals("slow-reader")) {
        Schema before = answer.get();
        asked.countDown();
        answered.await();
        return before;
      }
      return answer.get();
    }, listener);
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(client,
        Map.of("schema.registry.url", "mock://" + scope), false);
    byte[] oneInt = ByteBuffer.allocate(6).put((byte) 0).putInt(id).put((byte) 2).array(); // 1
    byte[] twoInts = ByteBuffer.allocate(7).put((byte) 0).putInt(id).put((byte) 2).put((byte) 4).array(); // 1, 2
    AtomicReference<Object> slowRead = new AtomicReference<>();
    Thread slow = new Thread(() -> slowRead.set(deserializer.deserialize("readings", oneInt)), "slow-reader");
    slow.start();
    assertThat(asked.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

    answer.set(FROM_REGISTRY);
    listener.get().run();
    assertThat(((GenericRecord) deserializer.deserialize("readings", twoInts)).getSchema()).isEqualTo(FROM_REGISTRY);
    answered.countDown(); // the slow thread's route, from the answer before the change, goes into the tables now
    slow.join(10_000);
    assertThat(((GenericRecord) slowRead.get()).getSchema()).isEqualTo(FROM_DISK);

    for (int i = 0; i < 3; i++) {
      assertThat(((GenericRecord) deserializer.deserialize("readings", twoInts)).getSchema())
          .as("record %s after the slow thread's route went in", i).isEqualTo(FROM_REGISTRY);
    }
  }

  /**
   * {@code real}, but for the schema by id, which {@code schemaById} answers, and the client's change listener,
   * which goes into {@code listener} for the test to run as the caching client does when an answer changes.
   */
  private SchemaRegistryClient client(SchemaRegistryClient real, java.util.concurrent.Callable<Schema> schemaById,
      AtomicReference<Runnable> listener) {
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "schemaById":
              return schemaById.call();
            case "onChange":
              listener.set((Runnable) args[0]);
              return (AutoCloseable) () -> { };
            default:
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
          }
        });
  }
}
