package io.kavro.bench;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Generated classes (avro-maven-plugin, its defaults): Kavro's serializer and deserializer
 * ({@code specific.avro.reader=true}) against Avro's {@code SpecificDatumWriter} and {@code SpecificDatumReader}
 * with the classes' own model, rotating through 1,024 records. Avro's reader loads the generated classes by name,
 * which Avro 1.11.4 and later allow only in the packages a user lists: the forks list the benchmark's.
 */
@State(Scope.Thread)
@Fork(jvmArgsAppend = "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.kavro.bench") // raw Avro's reader needs it
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SpecificBenchmark {
  @Param({"S2", "S3"})
  public Shape shape;

  private final MockScope scope = new MockScope();
  private List<SpecificRecord> records;
  private byte[][] payloads;
  private KafkaAvroSerializer serializer;
  private KafkaAvroDeserializer deserializer;
  private RawAvro raw;
  private final Rotation rotation = new Rotation();

  @Setup(Level.Trial)
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void setUp() {
    records = BenchData.specific(shape);
    Map<String, Object> config = Map.of("schema.registry.url", scope.url(), "specific.avro.reader", true);
    serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config, false);
    payloads = new byte[records.size()][];
    for (int i = 0; i < records.size(); i++) {
      payloads[i] = serializer.serialize(KavroSerdes.TOPIC, records.get(i));
      Object back = deserializer.deserialize(KavroSerdes.TOPIC, payloads[i]);
      if (!back.equals(records.get(i))) {
        throw new IllegalStateException("Kavro read back another record: " + back);
      }
    }
    Class<? extends SpecificRecord> type = BenchData.specificClass(shape);
    SpecificData model = SpecificData.getForClass(type);
    raw = new RawAvro(new SpecificDatumWriter(type), new SpecificDatumReader(model.getSchema(type),
        model.getSchema(type), model), 1);
  }

  @Setup(Level.Iteration)
  public void mark() {
    scope.mark();
  }

  @TearDown(Level.Iteration)
  public void check() {
    scope.assertNoRequestsSinceMark();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    serializer.close();
    deserializer.close();
    scope.close();
  }

  @Benchmark
  public byte[] kavroSerialize() {
    return serializer.serialize(KavroSerdes.TOPIC, records.get(rotation.next()));
  }

  @Benchmark
  public byte[] rawSerialize() {
    return raw.serialize(records.get(rotation.next()));
  }

  @Benchmark
  public Object kavroDeserialize() {
    return deserializer.deserialize(KavroSerdes.TOPIC, payloads[rotation.next()]);
  }

  @Benchmark
  public Object rawDeserialize() {
    return raw.deserialize(payloads[rotation.next()]);
  }
}
