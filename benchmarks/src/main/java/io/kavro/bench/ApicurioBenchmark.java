package io.kavro.bench;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.kavro.testkit.EmbeddedRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
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

/**
 * Apicurio's Avro serde (2.6.13), in the same run as Kavro and raw Avro.
 *
 * <p>Configured for the same 5-byte framing as Kavro: headers off
 * ({@code apicurio.registry.headers.enabled=false}), the 4-byte id handler
 * ({@code Legacy4ByteIdHandler}) with content ids, auto-registration on, against a real Apicurio Registry
 * started for the trial on 127.0.0.1. Every record is serialized (and every payload deserialized) once
 * before measuring, so its schema caches are warm and only the per-record path is timed. Records are in
 * Avro's raw generic form, which its default datum provider writes without conversions.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ApicurioBenchmark {
  @Param({"S1", "S2", "S3"})
  public Shape shape;

  private EmbeddedRegistry registry;
  private AvroKafkaSerializer<GenericRecord> serializer;
  private AvroKafkaDeserializer<GenericRecord> deserializer;
  private List<GenericRecord> records;
  private List<byte[]> payloads;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    registry = EmbeddedRegistry.start(0);
    Map<String, Object> config = Map.of(
        "apicurio.registry.url", "http://127.0.0.1:" + registry.port() + "/apis/registry/v2",
        "apicurio.registry.auto-register", true,
        "apicurio.registry.headers.enabled", false,
        "apicurio.registry.id-handler", "io.apicurio.registry.serde.Legacy4ByteIdHandler",
        "apicurio.registry.use-id", "contentId");
    serializer = new AvroKafkaSerializer<>();
    serializer.configure(config, false);
    deserializer = new AvroKafkaDeserializer<>();
    deserializer.configure(config, false);
    records = BenchData.records(shape);
    payloads = new ArrayList<>();
    for (GenericRecord record : records) {
      payloads.add(serializer.serialize(KavroSerdes.TOPIC, record));
    }
    if (payloads.get(0)[0] != 0 || payloads.get(0).length < 5) {
      throw new IllegalStateException("Apicurio's serde did not write the 5-byte framing");
    }
    for (byte[] payload : payloads) {
      deserializer.deserialize(KavroSerdes.TOPIC, payload);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    serializer.close();
    deserializer.close();
    registry.close();
  }

  @Benchmark
  public byte[] serialize() {
    GenericRecord record = records.get(next);
    next = (next + 1) & (BenchData.RECORDS - 1);
    return serializer.serialize(KavroSerdes.TOPIC, record);
  }

  @Benchmark
  public Object deserialize() {
    byte[] payload = payloads.get(next);
    next = (next + 1) & (BenchData.RECORDS - 1);
    return deserializer.deserialize(KavroSerdes.TOPIC, payload);
  }
}
