package io.kavro.bench;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.io.IOException;
import java.util.Arrays;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Generated classes (avro-maven-plugin, its defaults): Kavro's serializer and deserializer
 * ({@code specific.avro.reader=true}) against Avro's {@code SpecificDatumWriter} and {@code SpecificDatumReader}
 * with the classes' own model, rotating through 1,024 records. Avro's reader loads the generated classes by name,
 * which Avro 1.11.4 and later allow only in the packages a user lists: the forks list the benchmark's.
 *
 * <p>Under the writes, the floors of {@link ReferenceWriters}, checked in set-up to return Kavro's bytes: a writer
 * written by hand for the class ({@link #handWrittenSerialize}), reading it through {@code get(int)} as Avro's
 * writer does, and what such a writer allocates without encoding anything ({@link #allocationOnlySerialize}).
 * Under the reads, those of {@link ReferenceSpecificReaders}, checked in set-up to return, for every record, objects
 * equal to what Kavro and Avro's reader return: a reader written by hand for the class
 * ({@link #handWrittenDeserialize}, on Avro's {@code BinaryDecoder}) and the same objects built without reading a
 * byte ({@link #allocationOnlyDeserialize}).
 */
@State(Scope.Thread)
@Fork(jvmArgsAppend = "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.kavro.bench") // raw Avro's reader needs it
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SpecificBenchmark extends WarmSerdesState {
  @Param({"S2", "S3"})
  public Shape shape;

  private List<SpecificRecord> records;
  private byte[][] payloads;
  private KafkaAvroSerializer serializer;
  private KafkaAvroDeserializer deserializer;
  private RawAvro raw;
  private ReferenceWriters reference;
  private ReferenceSpecificReaders readers;
  private ReferenceSpecificReaders.Plan[] plans;
  private int[] sizes;
  private final Rotation rotation = new Rotation();

  @Setup(Level.Trial)
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void setUp() throws IOException {
    records = BenchData.specific(shape);
    KavroSerdes kavro = checked(new KavroSerdes(Map.of("specific.avro.reader", true)));
    serializer = kavro.serializer();
    deserializer = kavro.deserializer();
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
    int id = kavro.registry().lookup(KavroSerdes.TOPIC + "-value", model.getSchema(type)).id();
    reference = new ReferenceWriters(shape, id);
    sizes = new int[records.size()];
    for (int i = 0; i < records.size(); i++) {
      byte[] hand = reference.handWritten(records.get(i));
      byte[] avro = raw.serialize(records.get(i));
      if (!Arrays.equals(hand, payloads[i]) || !Arrays.equals(hand, 5, hand.length, avro, 5, avro.length)) {
        throw new IllegalStateException("the hand-written writer disagrees with Kavro or Avro on record " + i
            + " at byte " + Arrays.mismatch(hand, payloads[i]) + " of Kavro's " + payloads[i].length + ": "
            + records.get(i));
      }
      sizes[i] = hand.length;
    }
    readers = new ReferenceSpecificReaders(shape);
    plans = new ReferenceSpecificReaders.Plan[records.size()];
    for (int i = 0; i < records.size(); i++) {
      Object kavroRead = deserializer.deserialize(KavroSerdes.TOPIC, payloads[i]);
      Object avroRead = raw.deserialize(payloads[i]);
      SpecificRecord hand = readers.handWritten(payloads[i]);
      plans[i] = readers.plan(hand);
      SpecificRecord floor = readers.allocationOnly(plans[i]);
      if (!hand.equals(kavroRead) || !hand.equals(avroRead) || !floor.equals(kavroRead) || !floor.equals(avroRead)) {
        throw new IllegalStateException("the hand-written reader or the allocation-only floor disagrees with Kavro "
            + "or Avro on record " + i + ": Kavro " + kavroRead + ", hand-written " + hand + ", allocation only "
            + floor);
      }
    }
  }

  @Benchmark
  public byte[] kavroSerialize() {
    return serializer.serialize(KavroSerdes.TOPIC, records.get(rotation.next()));
  }

  @Benchmark
  public byte[] rawSerialize() {
    return raw.serialize(records.get(rotation.next()));
  }

  /** A writer written by hand for the class, through {@code get(int)}: the ceiling of any writer of it. */
  @Benchmark
  public byte[] handWrittenSerialize() {
    return reference.handWritten(records.get(rotation.next()));
  }

  /** {@code get(int)}'s boxes, kept, and the output array, no encoding. */
  @Benchmark
  public byte[] allocationOnlySerialize(Blackhole keep) {
    int i = rotation.next();
    return reference.allocationOnly(records.get(i), sizes[i], keep::consume);
  }

  @Benchmark
  public Object kavroDeserialize() {
    return deserializer.deserialize(KavroSerdes.TOPIC, payloads[rotation.next()]);
  }

  @Benchmark
  public Object rawDeserialize() {
    return raw.deserialize(payloads[rotation.next()]);
  }

  /** A reader written by hand for the class, on Avro's {@code BinaryDecoder}: the ceiling of any reader on it. */
  @Benchmark
  public Object handWrittenDeserialize() throws IOException {
    return readers.handWritten(payloads[rotation.next()]);
  }

  /** The same objects built without reading a byte: the floor under any reader that returns the class. */
  @Benchmark
  public Object allocationOnlyDeserialize() {
    return readers.allocationOnly(plans[rotation.next()]);
  }
}
