package io.kavro.bench;

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

/** Serialize one record: Kavro against raw Avro, side by side, rotating through 1,024 records. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SerializeBenchmark extends WarmSerdesState {
  @Param({"S1", "S2", "S3"})
  public Shape shape;

  private List<GenericRecord> records;
  private KavroSerdes kavro;
  private KavroSerdes kavroGeneric;
  private RawAvro raw;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    records = BenchData.records(shape);
    kavro = checked(new KavroSerdes(shape));
    kavroGeneric = checked(new KavroSerdes(shape, false));
    for (GenericRecord record : records) {
      kavro.serializer().serialize(KavroSerdes.TOPIC, record);
      kavroGeneric.serializer().serialize(KavroSerdes.TOPIC, record);
    }
    raw = new RawAvro(shape.writer(), shape.reader(), 1);
  }

  private GenericRecord nextRecord() {
    GenericRecord record = records.get(next);
    next = (next + 1) & (BenchData.RECORDS - 1);
    return record;
  }

  @Benchmark
  public byte[] kavro() {
    return kavro.serializer().serialize(KavroSerdes.TOPIC, nextRecord());
  }

  /** Kavro with {@code avro.fast.codec=false}: Avro's generic writer inside the serializer. */
  @Benchmark
  public byte[] kavroGeneric() {
    return kavroGeneric.serializer().serialize(KavroSerdes.TOPIC, nextRecord());
  }

  @Benchmark
  public byte[] raw() {
    return raw.serialize(nextRecord());
  }
}
