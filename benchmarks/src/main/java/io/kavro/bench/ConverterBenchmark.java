package io.kavro.bench;

import io.kavro.connect.AvroConverter;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.EmbeddedRegistry;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Kafka Connect on S3: Kavro's converter ({@code fromConnectData}, {@code toConnectData}) on a {@code Struct},
 * against Kavro's serializer and deserializer alone on the same records in Avro's generic form (the converter's
 * overhead is the difference), against Kafka's {@code JsonConverter} (schemas on, its default) and against
 * Apicurio's {@code AvroConverter} (2.6.13, on a real Apicurio Registry, configured as {@link ApicurioBenchmark}
 * configures its serde) on the same structs; one converter shared by 1 and by 2 threads, as a worker's tasks share
 * nothing but the JVM.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConverterBenchmark {
  /** The converters and the data, shared by the threads of a run. */
  @State(Scope.Benchmark)
  public static class Shared extends WarmSerdesState {
    AvroConverter converter;
    JsonConverter json;
    KafkaAvroSerializer serializer;
    KafkaAvroDeserializer deserializer;
    List<GenericRecord> records;
    SchemaAndValue[] structs;
    byte[][] avro;
    static final String SOURCE = "source";
    byte[][] jsonBytes;

    @Setup(Level.Trial)
    public void setUp() {
      converter = closedAtEnd(new AvroConverter()); // closed first, then the serdes and their registry
      KavroSerdes kavro = checked(new KavroSerdes(Map.of()));
      converter.configure(Map.of("schema.registry.url", kavro.url()), false);
      serializer = kavro.serializer();
      deserializer = kavro.deserializer();
      json = new JsonConverter();
      json.configure(Map.of("converter.type", "value"), false);
      structs = new SchemaAndValue[BenchData.RECORDS];
      avro = new byte[BenchData.RECORDS][];
      jsonBytes = new byte[BenchData.RECORDS][];
      records = new java.util.ArrayList<>();
      List<GenericRecord> source = BenchData.records(Shape.S3);
      for (int i = 0; i < BenchData.RECORDS; i++) {
        // The structs a source topic of S3 gives; the converter writes them with its own mapping (an enum as a
        // string, as Confluent's converter does by default), and the serde alone writes the same Avro records.
        structs[i] = converter.toConnectData(SOURCE, serializer.serialize(SOURCE, source.get(i)));
        avro[i] = converter.fromConnectData(KavroSerdes.TOPIC, structs[i].schema(), structs[i].value());
        records.add((GenericRecord) deserializer.deserialize(KavroSerdes.TOPIC, avro[i]));
        if (!java.util.Arrays.equals(serializer.serialize(KavroSerdes.TOPIC, records.get(i)), avro[i])) {
          throw new IllegalStateException("the serde alone wrote other bytes than the converter");
        }
        jsonBytes[i] = json.fromConnectData(KavroSerdes.TOPIC, structs[i].schema(), structs[i].value());
        converter.toConnectData(KavroSerdes.TOPIC, avro[i]); // the writer's version, looked up once
      }
    }
  }

  /**
   * Apicurio's {@code AvroConverter} on a real Apicurio Registry started for the trial on 127.0.0.1, only for the
   * benchmarks that take it (the others measure with no registry process beside them). Configured for Kavro's
   * framing as {@link ApicurioBenchmark} configures Apicurio's serde: headers off, the 4-byte id handler with
   * content ids, auto-registration on. It writes every struct of {@link Shared} once and reads every payload it
   * wrote once before measuring, so its schema caches are warm; its Avro bodies are checked to be Kavro's.
   */
  @State(Scope.Benchmark)
  public static class Apicurio {
    EmbeddedRegistry registry;
    io.apicurio.registry.utils.converter.AvroConverter<Object> converter;
    byte[][] payloads;

    @Setup(Level.Trial)
    public void setUp(Shared s) {
      registry = EmbeddedRegistry.start(0);
      converter = new io.apicurio.registry.utils.converter.AvroConverter<>();
      converter.configure(Map.of(
          "apicurio.registry.url", "http://127.0.0.1:" + registry.port() + "/apis/registry/v2",
          "apicurio.registry.auto-register", true,
          "apicurio.registry.headers.enabled", false,
          "apicurio.registry.id-handler", "io.apicurio.registry.serde.Legacy4ByteIdHandler",
          "apicurio.registry.use-id", "contentId"), false);
      payloads = new byte[BenchData.RECORDS][];
      for (int i = 0; i < BenchData.RECORDS; i++) {
        payloads[i] = converter.fromConnectData(KavroSerdes.TOPIC, s.structs[i].schema(), s.structs[i].value());
        if (payloads[i][0] != 0 || !Arrays.equals(payloads[i], 5, payloads[i].length, s.avro[i], 5,
            s.avro[i].length)) {
          throw new IllegalStateException("Apicurio's converter did not write Kavro's framing and Avro body");
        }
      }
      for (byte[] payload : payloads) {
        converter.toConnectData(KavroSerdes.TOPIC, payload);
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      converter.close();
      registry.close();
    }
  }

  /**
   * The records of {@link Shared} with their strings as {@code java.lang.String}, only for the benchmark that takes
   * them: serializing them in the other benchmarks' forks would teach the JIT a second string type at every string
   * of the serde's encoder, and slow the serde alone there.
   */
  @State(Scope.Benchmark)
  public static class JavaStrings {
    List<GenericRecord> records;

    @Setup(Level.Trial)
    public void setUp(Shared s) {
      records = new java.util.ArrayList<>();
      for (int i = 0; i < BenchData.RECORDS; i++) {
        records.add((GenericRecord) withJavaStrings(s.records.get(i)));
        if (!Arrays.equals(s.serializer.serialize(KavroSerdes.TOPIC, records.get(i)), s.avro[i])) {
          throw new IllegalStateException("the serde wrote other bytes for the records with java.lang.String");
        }
      }
    }
  }

  /** Each thread's place in the records. */
  @State(Scope.Thread)
  public static class Cursor {
    final Rotation rotation = new Rotation();

    int next() {
      return rotation.next();
    }
  }

  @Benchmark
  public byte[] fromConnect(Shared s, Cursor c) {
    SchemaAndValue struct = s.structs[c.next()];
    return s.converter.fromConnectData(KavroSerdes.TOPIC, struct.schema(), struct.value());
  }

  @Benchmark
  @Threads(2)
  public byte[] fromConnect2Threads(Shared s, Cursor c) {
    return fromConnect(s, c);
  }

  @Benchmark
  public SchemaAndValue toConnect(Shared s, Cursor c) {
    return s.converter.toConnectData(KavroSerdes.TOPIC, s.avro[c.next()]);
  }

  @Benchmark
  @Threads(2)
  public SchemaAndValue toConnect2Threads(Shared s, Cursor c) {
    return toConnect(s, c);
  }

  @Benchmark
  public byte[] serdeSerialize(Shared s, Cursor c) {
    return s.serializer.serialize(KavroSerdes.TOPIC, s.records.get(c.next()));
  }

  /**
   * The serde alone on the same records with their strings as {@code java.lang.String}, the form Connect's
   * structs hold them in (a decoded generic record holds Avro's {@code Utf8}, whose bytes are copied, not
   * encoded): what writing the converter's strings costs any writer.
   */
  @Benchmark
  public byte[] serdeSerializeJavaStrings(Shared s, JavaStrings j, Cursor c) {
    return s.serializer.serialize(KavroSerdes.TOPIC, j.records.get(c.next()));
  }

  /** {@code value} with every {@code Utf8} (map keys included) as a {@code String}; records copied. */
  static Object withJavaStrings(Object value) {
    if (value instanceof org.apache.avro.util.Utf8 utf8) {
      return utf8.toString();
    }
    if (value instanceof GenericRecord record) {
      org.apache.avro.generic.GenericData.Record copy = new org.apache.avro.generic.GenericData.Record(
          record.getSchema());
      for (org.apache.avro.Schema.Field field : record.getSchema().getFields()) {
        copy.put(field.pos(), withJavaStrings(record.get(field.pos())));
      }
      return copy;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new java.util.ArrayList<>(list.size());
      list.forEach(item -> copy.add(withJavaStrings(item)));
      return copy;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new java.util.LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(withJavaStrings(k), withJavaStrings(v)));
      return copy;
    }
    return value;
  }

  @Benchmark
  @Threads(2)
  public byte[] serdeSerialize2Threads(Shared s, Cursor c) {
    return serdeSerialize(s, c);
  }

  @Benchmark
  public Object serdeDeserialize(Shared s, Cursor c) {
    return s.deserializer.deserialize(KavroSerdes.TOPIC, s.avro[c.next()]);
  }

  @Benchmark
  @Threads(2)
  public Object serdeDeserialize2Threads(Shared s, Cursor c) {
    return serdeDeserialize(s, c);
  }

  /**
   * The floor under any converter that returns Connect's structs: the same struct trees built again, field by field
   * with {@code Struct.put} (which checks every value it is given, nested ones again at each level) from values
   * already in Connect's form, lists and maps copied; nothing is read.
   */
  @Benchmark
  public Object structsOnly(Shared s, Cursor c) {
    return StructCopies.rebuild(s.structs[c.next()].value());
  }

  @Benchmark
  public byte[] jsonFromConnect(Shared s, Cursor c) {
    SchemaAndValue struct = s.structs[c.next()];
    return s.json.fromConnectData(KavroSerdes.TOPIC, struct.schema(), struct.value());
  }

  @Benchmark
  public SchemaAndValue jsonToConnect(Shared s, Cursor c) {
    return s.json.toConnectData(KavroSerdes.TOPIC, s.jsonBytes[c.next()]);
  }

  @Benchmark
  public byte[] apicurioFromConnect(Shared s, Apicurio a, Cursor c) {
    SchemaAndValue struct = s.structs[c.next()];
    return a.converter.fromConnectData(KavroSerdes.TOPIC, struct.schema(), struct.value());
  }

  @Benchmark
  public SchemaAndValue apicurioToConnect(Apicurio a, Cursor c) {
    return a.converter.toConnectData(KavroSerdes.TOPIC, a.payloads[c.next()]);
  }
}
