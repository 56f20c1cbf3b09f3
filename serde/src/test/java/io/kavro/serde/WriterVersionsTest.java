package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.subject.TopicNameStrategy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

/**
 * The (subject, id) pairs that a topic's subject does not hold are remembered, at most {@code missing.cache.size}
 * of them (issue 54: every cache bounded by a setting).
 */
class WriterVersionsTest {
  private final Serdes serdes = new Serdes();

  @Test
  void unversionedPairs_boundedByMissingCacheSize() {
    SchemaRegistryClient registry = serdes.registry();
    AtomicInteger lookups = new AtomicInteger();
    SchemaRegistryClient counting = (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("lookup")) {
            lookups.incrementAndGet();
          }
          try {
            return method.invoke(registry, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    int[] ids = new int[3];
    for (int i = 0; i < ids.length; i++) { // held by another subject than the topic's, t-value
      ids[i] = registry.register("elsewhere-" + i, schema(i));
    }
    int bound = new AvroSerdeConfig(serdes.config("missing.cache.size", 2), false).registryConfig()
        .missingCacheSize();
    TopicIds topicIds = new TopicIds(counting, new TopicNameStrategy(), false, 100, System::nanoTime);
    WriterVersions versions = new WriterVersions(topicIds, bound);

    for (int i = 0; i < ids.length; i++) {
      assertThat(versions.of("t", new AvroValue(ids[i], schema(i), null))).isNull();
    }
    assertThat(lookups).as("each pair asked once").hasValue(3);
    assertThat(versions.of("t", new AvroValue(ids[2], schema(2), null))).isNull();
    assertThat(lookups).as("the last pair, remembered").hasValue(3);

    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < ids.length; i++) {
        versions.of("t", new AvroValue(ids[i], schema(i), null));
      }
    }
    assertThat(lookups.get()).as("3 pairs cycled through a bound of 2: some asked again").isGreaterThan(3);
    registry.close();
  }

  private static Schema schema(int i) {
    return SchemaBuilder.record("R" + i).fields().requiredInt("f" + i).endRecord();
  }
}
