package io.kavro.bench;

import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.HashMap;
import java.util.Map;

/**
 * Kavro's serializer and deserializer on a pre-warmed {@code mock://} registry of their own, configured as
 * a user would through properties. Counts registry requests so that a benchmark can prove it made none.
 */
public final class KavroSerdes implements AutoCloseable {
  public static final String TOPIC = "bench";

  private final MockScope scope = new MockScope();
  private final KafkaAvroSerializer serializer = new KafkaAvroSerializer();
  private final KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();

  /** @param shape whose reader schema the deserializer projects onto, when it differs from the writer's */
  public KavroSerdes(Shape shape) {
    this(shape, true);
  }

  /** @param fastCodec {@code avro.fast.codec}: compiled codecs, or Avro's generic writers and readers */
  public KavroSerdes(Shape shape, boolean fastCodec) {
    Map<String, Object> config = new HashMap<>();
    config.put("avro.fast.codec", fastCodec);
    config.put("schema.registry.url", scope.url());
    // The data is Avro's raw generic form, as for the baseline and Apicurio: no logical-type conversion.
    config.put("avro.use.logical.type.converters", false);
    serializer.configure(config, false);
    if (shape.reader() != shape.writer()) {
      config.put("value.reader.schema", shape.reader().toString());
    }
    deserializer.configure(config, false);
  }

  /** @param settings both serdes' configuration but for the registry's URL, which is the scope's */
  public KavroSerdes(Map<String, Object> settings) {
    Map<String, Object> config = new HashMap<>(settings);
    config.put("schema.registry.url", scope.url());
    serializer.configure(config, false);
    deserializer.configure(config, false);
  }

  /** The {@code schema.registry.url} of the serdes' registry, for another client to share it. */
  public String url() {
    return scope.url();
  }

  /** The serdes' registry, to register schemas (with their data contracts) in before measuring. */
  public MockRegistry registry() {
    return scope.registry();
  }

  public KafkaAvroSerializer serializer() {
    return serializer;
  }

  public KafkaAvroDeserializer deserializer() {
    return deserializer;
  }

  /** Remembers the registry's request count. */
  public void mark() {
    scope.mark();
  }

  /** @throws IllegalStateException if any registry request was made since {@link #mark()} */
  public void assertNoRequestsSinceMark() {
    scope.assertNoRequestsSinceMark();
  }

  @Override
  public void close() {
    serializer.close();
    deserializer.close();
    scope.close();
  }
}
