package io.kavro.bench;

import io.kavro.bench.records.JavaRecords;
import io.kavro.bench.records.OrderPojo;
import io.kavro.bench.records.OrderRecord;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.ReflectDatumReader;
import org.apache.avro.reflect.ReflectDatumWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * S3 as Java records ({@code schema.reflection=true}): Kavro's serializer and deserializer against Avro's
 * {@code ReflectDatumWriter} on the same records, and Avro's {@code ReflectDatumReader} on the same tree as mutable
 * classes, since it cannot build a Java record (it needs a no-argument constructor).
 */
@State(Scope.Thread)
@Fork(jvmArgsAppend = "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.kavro.bench.records,java.util")
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JavaRecordBenchmark extends WarmSerdesState {
  private List<OrderRecord> records;
  private List<OrderPojo> pojos;
  private byte[][] payloads;
  private byte[][] pojoPayloads;
  private KafkaAvroSerializer serializer;
  private KafkaAvroDeserializer deserializer;
  private RawAvro rawRecords;
  private RawAvro rawPojos;
  private final Rotation rotation = new Rotation();

  @Setup(Level.Trial)
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void setUp() {
    records = JavaRecords.records();
    pojos = JavaRecords.pojos();
    KavroSerdes kavro = checked(new KavroSerdes(Map.of("schema.reflection", true)));
    serializer = kavro.serializer();
    deserializer = kavro.deserializer();
    payloads = new byte[records.size()][];
    for (int i = 0; i < records.size(); i++) {
      payloads[i] = serializer.serialize(KavroSerdes.TOPIC, records.get(i));
      OrderRecord back = (OrderRecord) deserializer.deserialize(KavroSerdes.TOPIC, payloads[i]);
      if (back.seq() != records.get(i).seq() || back.lines().size() != records.get(i).lines().size()) {
        throw new IllegalStateException("Kavro read back another record: " + back);
      }
    }
    Schema recordSchema = ReflectData.get().getSchema(OrderRecord.class);
    rawRecords = new RawAvro(new ReflectDatumWriter(recordSchema), new ReflectDatumReader(recordSchema), 1);
    Schema pojoSchema = ReflectData.get().getSchema(OrderPojo.class);
    rawPojos = new RawAvro(new ReflectDatumWriter(pojoSchema), new ReflectDatumReader(pojoSchema), 1);
    pojoPayloads = new byte[pojos.size()][];
    for (int i = 0; i < pojos.size(); i++) {
      pojoPayloads[i] = rawPojos.serialize(pojos.get(i));
      if (pojoPayloads[i].length != payloads[i].length) {
        throw new IllegalStateException("the classes do not write what the records write");
      }
    }
  }

  @Benchmark
  public byte[] kavroSerialize() {
    return serializer.serialize(KavroSerdes.TOPIC, records.get(rotation.next()));
  }

  @Benchmark
  public byte[] rawSerialize() {
    return rawRecords.serialize(records.get(rotation.next()));
  }

  @Benchmark
  public Object kavroDeserialize() {
    return deserializer.deserialize(KavroSerdes.TOPIC, payloads[rotation.next()]);
  }

  /** Avro's reflect reader on the mutable classes' payloads: the same bytes, the same tree. */
  @Benchmark
  public Object rawDeserialize() {
    return rawPojos.deserialize(pojoPayloads[rotation.next()]);
  }
}
