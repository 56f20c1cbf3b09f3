package io.kavro.bench;

import io.kavro.serde.KavroDecoderReaders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
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

/**
 * How far deserialization into Avro's generic object graph can go, side by side with Kavro and raw Avro:
 * a reader hand-written for the shape (the ceiling of any specialized reader) and the bare allocation of the
 * same object graph (the floor under any reader). See {@link ReferenceReaders}. The same hand-written reader on
 * Kavro's own decoder, and that decoder's work alone without the graph: see {@link KavroDecoderReaders}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DeserializeLimitsBenchmark extends WarmSerdesState {
  @Param({"S2", "S3"})
  public Shape shape;

  private final List<byte[]> payloads = new ArrayList<>();
  private final List<ReferenceReaders.Plan> plans = new ArrayList<>();
  private KavroSerdes kavro;
  private KavroSerdes kavroTopicSubjects;
  private RawAvro raw;
  private ReferenceReaders reference;
  private KavroDecoderReaders onKavro;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    kavro = checked(new KavroSerdes(shape));
    kavroTopicSubjects = checked(new KavroSerdes(Map.of("avro.use.logical.type.converters", false,
        "value.subject.name.strategy", "io.kavro.serde.subject.TopicNameStrategy")));
    raw = new RawAvro(shape.writer(), shape.reader(), 1);
    reference = new ReferenceReaders(shape);
    onKavro = new KavroDecoderReaders(KavroDecoderReaders.Kind.valueOf(shape.name()), shape.writer(),
        shape.reader());
    for (GenericRecord record : BenchData.records(shape)) {
      byte[] payload = kavro.serializer().serialize(KavroSerdes.TOPIC, record);
      Object read = kavro.deserializer().deserialize(KavroSerdes.TOPIC, payload);
      Object handRead = reference.handWritten(payload);
      if (!read.equals(handRead) || !read.equals(raw.deserialize(payload))) {
        throw new IllegalStateException("the hand-written reader disagrees with Kavro or Avro: " + handRead);
      }
      if (!java.util.Arrays.equals(payload, kavroTopicSubjects.serializer().serialize(KavroSerdes.TOPIC, record))) {
        throw new IllegalStateException("the serdes of topic subjects write another payload (another schema id?)");
      }
      String expected = GenericData.get().toString(read);
      for (Object other : List.of(onKavro.read(payload), onKavro.readCompiled(payload),
          kavroTopicSubjects.deserializer().deserialize(KavroSerdes.TOPIC, payload))) {
        if (!read.equals(other) || !expected.equals(GenericData.get().toString(other))) {
          throw new IllegalStateException("a reader on Kavro's decoder disagrees with Kavro: " + other);
        }
      }
      payloads.add(payload);
      plans.add(reference.plan(handRead));
    }
  }

  private int nextIndex() {
    int index = next;
    next = (next + 1) & (BenchData.RECORDS - 1);
    return index;
  }

  @Benchmark
  public Object kavro() {
    return kavro.deserializer().deserialize(KavroSerdes.TOPIC, payloads.get(nextIndex()));
  }

  @Benchmark
  public Object raw() {
    return raw.deserialize(payloads.get(nextIndex()));
  }

  /** A reader written by hand for the shape: the ceiling of any generated reader. */
  @Benchmark
  public Object handWritten() throws IOException {
    return reference.handWritten(payloads.get(nextIndex()));
  }

  /**
   * Kavro's deserializer with {@code TopicNameStrategy} subjects: topics in the default context only, so no
   * per-record check of the topic's context (the default strategy, {@code AssociatedNameStrategy}, makes one).
   */
  @Benchmark
  public Object kavroTopicSubjects() {
    return kavroTopicSubjects.deserializer().deserialize(KavroSerdes.TOPIC, payloads.get(nextIndex()));
  }

  /** Kavro's compiled decoder of the shape called directly: Kavro's read without the route lookup and framing. */
  @Benchmark
  public Object compiledDecoderOnly() throws IOException {
    return onKavro.readCompiled(payloads.get(nextIndex()));
  }

  /**
   * The hand-written reader on Kavro's own decoder, through the calls Kavro's compiled reader makes, without the
   * route lookup: the ceiling of any reader on that decoder.
   */
  @Benchmark
  public Object handWrittenOnKavroDecoder() throws IOException {
    return onKavro.read(payloads.get(nextIndex()));
  }

  /** Kavro's decoder reading every value of the record into reused buffers, building nothing: the decoding alone. */
  @Benchmark
  public long decodeOnly() throws IOException {
    return onKavro.decodeOnly(payloads.get(nextIndex()));
  }

  /** The same object graph allocated without reading: the floor under any reader. */
  @Benchmark
  public Object allocationOnly() {
    return reference.allocationOnly(plans.get(nextIndex()));
  }
}
