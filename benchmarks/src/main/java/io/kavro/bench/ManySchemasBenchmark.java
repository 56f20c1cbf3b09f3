package io.kavro.bench;

import java.util.concurrent.TimeUnit;
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
 * One deserializer and one converter reading records of 1 schema or of 10,000 distinct ones in turn (each S3 record
 * type on its own topic), every one read once before measuring: the cost of many schemas once warm.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ManySchemasBenchmark {
  @Param({"1", "10000"})
  public int schemas;

  private ManySchemas many;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    many = new ManySchemas(schemas);
    for (int i = 0; i < schemas; i++) {
      many.deserialize(i);
      many.toConnect(i);
    }
  }

  @Setup(Level.Iteration)
  public void mark() {
    many.scope().mark();
  }

  @TearDown(Level.Iteration)
  public void check() {
    many.scope().assertNoRequestsSinceMark();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    many.close();
  }

  private int nextIndex() {
    int index = next;
    next = index + 1 == schemas ? 0 : index + 1;
    return index;
  }

  @Benchmark
  public Object deserialize() {
    return many.deserialize(nextIndex());
  }

  /** Raw Avro's generic reader, one per schema built beforehand: what many schemas cost any reader. */
  @Benchmark
  public Object rawDeserialize() {
    return many.rawDeserialize(nextIndex());
  }

  @Benchmark
  public Object toConnect() {
    return many.toConnect(nextIndex());
  }
}
