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

/**
 * Deserialize one record: Kavro against raw Avro, side by side. S4 reads S3 data with the v2 reader
 * schema (Kavro: {@code value.reader.schema}; raw: a resolving {@code GenericDatumReader}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DeserializeBenchmark extends WarmSerdesState {
  @Param({"S1", "S2", "S3", "S4"})
  public Shape shape;

  private List<byte[]> payloads;
  private KavroSerdes kavro;
  private KavroSerdes kavroGeneric;
  private RawAvro raw;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    kavro = checked(new KavroSerdes(shape));
    kavroGeneric = checked(new KavroSerdes(shape, false));
    payloads = new ArrayList<>();
    for (GenericRecord record : BenchData.records(shape)) {
      payloads.add(kavro.serializer().serialize(KavroSerdes.TOPIC, record));
    }
    // Both instances share no registry: give the generic one the same ids by serializing in the same order.
    for (GenericRecord record : BenchData.records(shape)) {
      kavroGeneric.serializer().serialize(KavroSerdes.TOPIC, record);
    }
    for (byte[] payload : payloads) {
      kavro.deserializer().deserialize(KavroSerdes.TOPIC, payload);
      kavroGeneric.deserializer().deserialize(KavroSerdes.TOPIC, payload);
    }
    raw = new RawAvro(shape.writer(), shape.reader(), 1);
  }

  private byte[] nextPayload() {
    byte[] payload = payloads.get(next);
    next = (next + 1) & (BenchData.RECORDS - 1);
    return payload;
  }

  @Benchmark
  public Object kavro() {
    return kavro.deserializer().deserialize(KavroSerdes.TOPIC, nextPayload());
  }

  /** Kavro with {@code avro.fast.codec=false}: Avro's generic reader inside the deserializer. */
  @Benchmark
  public Object kavroGeneric() {
    return kavroGeneric.deserializer().deserialize(KavroSerdes.TOPIC, nextPayload());
  }

  @Benchmark
  public Object raw() {
    return raw.deserialize(nextPayload());
  }
}
