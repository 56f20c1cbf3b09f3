package io.kavro.bench;

import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * How far serialization of Avro's generic records can go, side by side with Kavro and raw Avro: a writer
 * hand-written for the shape's schema ({@link GenericReferenceWriter}, checked in set-up to write Kavro's bytes for
 * every record), what one writer hand-written for exactly this schema reaches (its strings encoded by the same char
 * loop as Kavro's {@code ByteSink}, so it cannot show a faster string encoding; not a bound on every serializer),
 * the copy of each record's bytes already serialized, the output array any serializer must at least allocate, and
 * that copy with every value of the record read ({@link ValuesRead}): the floors.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SerializeLimitsBenchmark extends WarmSerdesState {
  @Param({"S2", "S3"})
  public Shape shape;

  private List<GenericRecord> records;
  private final List<byte[]> payloads = new ArrayList<>();
  private KavroSerdes kavro;
  private RawAvro raw;
  private GenericReferenceWriter reference;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    records = BenchData.records(shape);
    kavro = checked(new KavroSerdes(shape));
    for (GenericRecord record : records) {
      payloads.add(kavro.serializer().serialize(KavroSerdes.TOPIC, record));
    }
    reference = GenericReferenceWriter.checked(shape, records, payloads);
    raw = new RawAvro(shape.writer(), shape.reader(), 1);
  }

  private int nextIndex() {
    int index = next;
    next = (next + 1) & (BenchData.RECORDS - 1);
    return index;
  }

  @Benchmark
  public byte[] kavro() {
    return kavro.serializer().serialize(KavroSerdes.TOPIC, records.get(nextIndex()));
  }

  @Benchmark
  public byte[] raw() {
    return raw.serialize(records.get(nextIndex()));
  }

  /** A writer written by hand for the shape's schema: what one such writer reaches, not a bound on every one. */
  @Benchmark
  public byte[] handWritten() {
    return reference.write(records.get(nextIndex()));
  }

  /** A copy of the record's bytes already serialized: the output array alone, a floor under any serializer. */
  @Benchmark
  public byte[] outputOnly() {
    return payloads.get(nextIndex()).clone();
  }

  /**
   * Every value of the record read as any serializer must at least read it ({@link ValuesRead}), and a copy of its
   * bytes already serialized: the floor under any serializer of these records, closer than the output alone.
   */
  @Benchmark
  public byte[] valuesReadAndOutput(Blackhole blackhole) {
    int index = nextIndex();
    blackhole.consume(ValuesRead.of(shape, records.get(index)));
    return payloads.get(index).clone();
  }
}
