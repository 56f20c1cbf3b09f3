package io.kavro.bench;

import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * The first record of a schema never seen before, single shot: a new serializer, a freshly parsed schema
 * and an empty in-memory registry each time, so registration and cache building are inside the timing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FirstMessageBenchmark {
  @Param({"S1", "S2", "S3"})
  public Shape shape;

  private KavroSerdes kavro;
  private RawAvro raw;
  private GenericRecord record;

  @Setup(Level.Iteration)
  public void setUp() {
    Schema fresh = new Schema.Parser().parse(shape.writer().toString());
    record = (GenericRecord) GenericData.get().deepCopy(fresh, BenchData.records(shape).get(0));
    kavro = new KavroSerdes(shape);
    raw = new RawAvro(fresh, fresh, 1);
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    kavro.close();
  }

  @Benchmark
  public byte[] kavro() {
    return kavro.serializer().serialize(KavroSerdes.TOPIC, record);
  }

  @Benchmark
  public byte[] raw() {
    return raw.serialize(record);
  }
}
