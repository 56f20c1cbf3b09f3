package io.kavro.bench;

import io.kavro.bench.records.JavaRecords;
import io.kavro.bench.records.LogicalOrderPojo;
import io.kavro.bench.records.TypedOrderPojo;
import io.kavro.serde.KafkaAvroDeserializer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.ReflectDatumReader;
import org.apache.avro.reflect.ReflectDatumWriter;
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

/**
 * S3 with its logical types as Java records ({@code schema.reflection=true}), read by Kavro's deserializer against
 * Avro's {@code ReflectDatumReader} on the same tree as mutable classes (the same bytes; Avro's reflection cannot
 * build a Java record). {@code javaTypes}: the logical types' values held as {@code UUID}, {@code Instant},
 * {@code LocalDate} and {@code BigDecimal} (Avro's reader with those four conversions); {@code underlying}: the
 * same schema, its components holding the uuid's text, the numbers and the decimals' bytes.
 */
@State(Scope.Thread)
@Fork(jvmArgsAppend = "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.kavro.bench.records,java.util,java.math,java.time")
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JavaRecordFormsBenchmark extends WarmSerdesState {
  @Param({"javaTypes", "underlying"})
  public String form;

  private byte[][] payloads;
  private byte[][] pojoPayloads;
  private KafkaAvroDeserializer deserializer;
  private RawAvro raw;
  private final Rotation rotation = new Rotation();

  @Setup(Level.Trial)
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void setUp() {
    boolean typed = form.equals("javaTypes");
    List<?> records = typed ? JavaRecords.typed() : JavaRecords.logical();
    List<?> pojos = typed ? JavaRecords.typedPojos() : JavaRecords.logicalPojos();
    KavroSerdes kavro = checked(new KavroSerdes(Map.of("schema.reflection", true)));
    deserializer = kavro.deserializer();
    payloads = new byte[records.size()][];
    for (int i = 0; i < records.size(); i++) {
      payloads[i] = kavro.serializer().serialize(KavroSerdes.TOPIC, records.get(i));
      Object back = deserializer.deserialize(KavroSerdes.TOPIC, payloads[i]);
      if (back.getClass() != records.get(i).getClass()
          || !Arrays.equals(kavro.serializer().serialize(KavroSerdes.TOPIC, back), payloads[i])) {
        throw new IllegalStateException("Kavro read back another record: " + back);
      }
    }
    ReflectData model = new ReflectData();
    if (typed) {
      model.addLogicalTypeConversion(new Conversions.UUIDConversion());
      model.addLogicalTypeConversion(new Conversions.DecimalConversion());
      model.addLogicalTypeConversion(new TimeConversions.DateConversion());
      model.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
    }
    Schema schema = model.getSchema(typed ? TypedOrderPojo.class : LogicalOrderPojo.class);
    raw = new RawAvro(new ReflectDatumWriter(schema, model), new ReflectDatumReader(schema, schema, model), 1);
    pojoPayloads = new byte[pojos.size()][];
    for (int i = 0; i < pojos.size(); i++) {
      pojoPayloads[i] = raw.serialize(pojos.get(i));
      if (!Arrays.equals(pojoPayloads[i], payloads[i])) {
        throw new IllegalStateException("the classes do not write what the records write");
      }
      Object back = raw.deserialize(pojoPayloads[i]);
      if (!Arrays.equals(raw.serialize(back), payloads[i])) {
        throw new IllegalStateException("Avro's reflect reader read back another object: " + back);
      }
    }
  }

  @Benchmark
  public Object kavroDeserialize() {
    return deserializer.deserialize(KavroSerdes.TOPIC, payloads[rotation.next()]);
  }

  /** Avro's reflect reader on the mutable classes' payloads: the same bytes, the same tree. */
  @Benchmark
  public Object rawDeserialize() {
    return raw.deserialize(pojoPayloads[rotation.next()]);
  }
}
