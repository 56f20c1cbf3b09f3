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

/**
 * One serializer, one deserializer and one converter on records of 1, 1,000 or 10,000 distinct schemas in turn (each
 * an S3 record type on its own topic), every one written and read once before measuring: the cost of many schemas
 * once warm, against raw Avro as a hand-tuned application holds it ({@link RawPerSchema}: a writer and a reader per
 * schema built beforehand and handed directly, one encoder, decoder and buffer for all), in the same order.
 *
 * <p>Beside the reads, the floors under any reader that returns Avro's generic records, as {@link
 * DeserializeLimitsBenchmark} has them for one schema ({@link ReferenceReaders}), each made of the record's own
 * schema objects, whose cache misses at many schemas are part of what any reader pays: {@link
 * #handWrittenDeserialize} and {@link #allocationOnly}, checked in set-up to return what Kavro and raw Avro return.
 * They run on one thread only (not in {@link ManySchemasThreadsBenchmark}): they share one decoder.
 *
 * <p>The heap is touched when it is committed ({@code -XX:+AlwaysPreTouch}): on a VM whose host backs guest memory
 * on first touch, the first pass of allocation through eden regions not used before cost a reader 3 to 10 us a
 * record, Kavro's or raw Avro's alike, in whichever iterations ran before the fork's first young GC; at 10,000
 * schemas (a large heap grown during set-up) that made iterations bimodal (2 or 11 us) and the comparison luck.
 */
@State(Scope.Thread)
@Fork(jvmArgsAppend = "-XX:+AlwaysPreTouch")
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ManySchemasBenchmark {
  @Param({"1", "1000", "10000"})
  public int schemas;

  private ManySchemas many;
  private final Turns turns = new Turns();

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

  @Benchmark
  public Object deserialize() {
    return many.deserialize(turns.next(schemas));
  }

  /** Raw Avro's generic reader of the record's schema, built beforehand, handed directly: no lookup. */
  @Benchmark
  public Object rawDeserialize() {
    return many.rawDeserialize(turns.next(schemas));
  }

  /**
   * A reader written by hand for S3 (straight-line code on Avro's own decoder, every call monomorphic) with the
   * record's own schema objects, built beforehand and handed directly, one decoder for all: the ceiling of any
   * reader returning Avro's generic records.
   */
  @Benchmark
  public Object handWrittenDeserialize() {
    return many.handWrittenDeserialize(turns.next(schemas));
  }

  /**
   * The same object graph allocated from a plan of the record (its classes, lengths, counts and values) with its
   * own schema objects, reading no byte: the floor under any reader returning Avro's generic records.
   */
  @Benchmark
  public Object allocationOnly() {
    return many.allocationOnly(turns.next(schemas));
  }

  @Benchmark
  public Object serialize() {
    return many.serialize(turns.next(schemas));
  }

  /** Raw Avro's generic writer of the record's schema, built beforehand, handed directly: no lookup. */
  @Benchmark
  public Object rawSerialize() {
    return many.rawSerialize(turns.next(schemas));
  }

  @Benchmark
  public Object toConnect() {
    return many.toConnect(turns.next(schemas));
  }

  /** The structs of {@link #toConnect} built again from values in Connect's form: its floor beyond the serde. */
  @Benchmark
  public Object structsOnly() {
    return many.structsOnly(turns.next(schemas));
  }

  /** A position in the schemas, per thread. */
  static final class Turns {
    private int next;

    int next(int count) {
      int index = next;
      next = index + 1 == count ? 0 : index + 1;
      return index;
    }
  }
}
