package io.kavro.bench;

import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Threads;

/**
 * {@link ManySchemasBenchmark}'s serde and converter on two threads that share one serializer, one deserializer and
 * one converter, as a worker's tasks do, each thread going through the schemas from its own half: per-operation
 * times, to set beside one thread's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(2)
@Fork(jvmArgsAppend = "-XX:+AlwaysPreTouch") // as ManySchemasBenchmark, which it is compared with
public class ManySchemasThreadsBenchmark {
  /** The serdes and records, shared by both threads. */
  @State(Scope.Benchmark)
  public static class Shared {
    @Param({"10000"})
    public int schemas;
    ManySchemas many;

    @Setup(Level.Trial)
    public void setUp() {
      many = ManySchemas.warm(schemas);
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
  }

  /** Each thread's position, the second thread's starting half-way. */
  @State(Scope.Thread)
  public static class Position {
    private static final java.util.concurrent.atomic.AtomicInteger THREADS = new java.util.concurrent.atomic.AtomicInteger();
    final ManySchemasBenchmark.Turns turns = new ManySchemasBenchmark.Turns();

    @Setup(Level.Trial)
    public void setUp(Shared shared) {
      int start = THREADS.getAndIncrement() % 2 * (shared.schemas / 2);
      for (int i = 0; i < start; i++) {
        turns.next(shared.schemas);
      }
    }
  }

  @Benchmark
  public Object deserialize(Shared shared, Position position) {
    return shared.many.deserialize(position.turns.next(shared.schemas));
  }

  @Benchmark
  public Object serialize(Shared shared, Position position) {
    return shared.many.serialize(position.turns.next(shared.schemas));
  }

  @Benchmark
  public Object toConnect(Shared shared, Position position) {
    return shared.many.toConnect(position.turns.next(shared.schemas));
  }

  @Benchmark
  public Object structsOnly(Shared shared, Position position) {
    return shared.many.structsOnly(position.turns.next(shared.schemas));
  }
}
