package io.kavro.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first 10,000 records of a fresh JVM, serialized then deserialized: the compiled codecs
 * ({@code fast=true}) against Avro's generic writer and reader inside Kavro ({@code fast=false}), so that
 * the compiled path is shown not to be slower before the JIT has warmed it. Run with several forks.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class WarmupBenchmark {
  private static final int RECORDS = 10_000;

  @Param({"S3"})
  public Shape shape;

  @Param({"true", "false"})
  public boolean fast;

  private List<GenericRecord> records;
  private KavroSerdes kavro;

  @Setup(Level.Trial)
  public void setUp() {
    records = BenchData.records(shape);
    kavro = new KavroSerdes(shape, fast);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    kavro.close();
  }

  @Benchmark
  public Object firstTenThousand() {
    List<Object> sink = new ArrayList<>(1);
    Object last = null;
    for (int i = 0; i < RECORDS; i++) {
      byte[] bytes = kavro.serializer().serialize(KavroSerdes.TOPIC, records.get(i & (BenchData.RECORDS - 1)));
      last = kavro.deserializer().deserialize(KavroSerdes.TOPIC, bytes);
    }
    sink.add(last);
    return sink;
  }
}
