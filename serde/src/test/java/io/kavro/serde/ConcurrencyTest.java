package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** Eight threads share one serializer and one deserializer over several schemas. */
class ConcurrencyTest {

  @Test
  void eightThreads_sharedSerdes_correctBytesAndOneRegistrationPerSchema() throws Exception {
    try (Serdes serdes = Serdes.withLogicalTypeConverters()) {
      RandomAvro random = new RandomAvro(99L);
      List<Object> data = new ArrayList<>();
      List<String> topics = new ArrayList<>();
      for (int s = 0; s < 6; s++) {
        Schema schema = random.record(2);
        for (int r = 0; r < 20; r++) {
          data.add(random.datum(schema));
          topics.add("topic-" + s);
        }
      }
      // Expected bodies from a single-threaded serializer on a registry of its own.
      KafkaAvroSerializer serializer = serdes.serializer();
      KafkaAvroDeserializer deserializer = serdes.deserializer();
      List<byte[]> expected = new ArrayList<>();
      for (int i = 0; i < data.size(); i++) {
        expected.add(null);
      }
      try (Serdes reference = Serdes.withLogicalTypeConverters()) {
        KafkaAvroSerializer single = reference.serializer();
        for (int i = 0; i < data.size(); i++) {
          expected.set(i, single.serialize(topics.get(i), data.get(i)));
        }
      }

      ExecutorService pool = Executors.newFixedThreadPool(8);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int offset = t;
        Callable<Integer> work = () -> {
          start.await();
          int checked = 0;
          for (int round = 0; round < 50; round++) {
            for (int k = 0; k < data.size(); k++) {
              int i = (k + offset * 7) % data.size();
              byte[] bytes = serializer.serialize(topics.get(i), data.get(i));
              Object read = deserializer.deserialize(topics.get(i), bytes);
              // Ids may be assigned in another order than the reference: compare the bodies and the read datum.
              assertThat(java.util.Arrays.copyOfRange(bytes, 5, bytes.length))
                  .isEqualTo(java.util.Arrays.copyOfRange(expected.get(i), 5, expected.get(i).length));
              assertThat(RoundTripProperties.normalize(read)).isEqualTo(RoundTripProperties.normalize(data.get(i)));
              checked++;
            }
          }
          return checked;
        };
        results.add(pool.submit(work));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> result : results) {
        total += result.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();

      assertThat(total).isEqualTo(8 * 50 * data.size());
      for (int s = 0; s < 6; s++) {
        assertThat(serdes.registry().versions("topic-" + s + "-value")).containsExactly(1);
      }
      // Each schema registered once and read once by id, and each topic's association asked once by the serializer
      // and once by the deserializer (the default strategy, Confluent 8.3's; the deserializer reads an id in the
      // context of the subject it names, as Confluent's does): the registry saw a bounded number of calls.
      assertThat(serdes.registryRequests()).isLessThanOrEqualTo(6 * 3 + 6 * 2);
    }
  }
}
