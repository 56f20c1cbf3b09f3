package io.kavro.bench;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The first record of a schema, in a JVM that has run the code before (a Connect worker on many topics, a service
 * with many record types): each shot is {@value #SCHEMAS} schemas never seen before, each its own record type on its
 * own topic, freshly parsed.
 *
 * <ul>
 *   <li>{@code kavroNewSchema}: one serializer writes the first record of each, registration on {@code mock://}
 *       included; against raw Avro building a writer for each and writing the record.</li>
 *   <li>{@code kavroColdReader}: a new deserializer reads the first record of each known id (its schema fetched,
 *       parsed and planned); against raw Avro parsing the schema's text and building a reader for each.</li>
 * </ul>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FirstRecordBenchmark {
  static final int SCHEMAS = 200;

  /** A serializer, and before each shot {@value #SCHEMAS} new record types of the shape, one per topic. */
  @State(Scope.Thread)
  public static class Writing {
    @Param({"S1", "S3"})
    public Shape shape;

    final MockScope scope = new MockScope();
    KafkaAvroSerializer serializer;
    int round;
    List<GenericRecord> fresh;
    List<String> topics;
    List<String> texts;

    Map<String, Object> config() {
      return Map.of("schema.registry.url", scope.url(), "avro.use.logical.type.converters", false);
    }

    @Setup(Level.Trial)
    public void setUp() {
      serializer = new KafkaAvroSerializer();
      serializer.configure(config(), false);
    }

    @Setup(Level.Invocation)
    public void prepare() {
      round++;
      GenericRecord base = BenchData.records(shape).get(0);
      String name = "\"name\":\"" + shape.writer().getName() + "\"";
      fresh = new ArrayList<>();
      topics = new ArrayList<>();
      texts = new ArrayList<>();
      for (int i = 0; i < SCHEMAS; i++) {
        String text = shape.writer().toString().replace(name, "\"name\":\"" + shape.writer().getName() + "R"
            + round + "N" + i + "\"");
        Schema schema = new Schema.Parser().parse(text);
        fresh.add((GenericRecord) GenericData.get().deepCopy(schema, base));
        topics.add("first-" + round + "-" + i);
        texts.add(text);
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      serializer.close();
      scope.close();
    }
  }

  /** Before each shot: the new types' records written and registered, and a new deserializer for each. */
  @State(Scope.Thread)
  public static class Reading {
    List<byte[]> written;
    List<KafkaAvroDeserializer> readers;

    @Setup(Level.Invocation)
    public void prepare(Writing writing) {
      writing.prepare();
      written = new ArrayList<>();
      readers = new ArrayList<>();
      for (int i = 0; i < SCHEMAS; i++) {
        written.add(writing.serializer.serialize(writing.topics.get(i), writing.fresh.get(i)));
        KafkaAvroDeserializer reader = new KafkaAvroDeserializer();
        reader.configure(writing.config(), false);
        readers.add(reader);
      }
    }

    @TearDown(Level.Invocation)
    public void close() {
      readers.forEach(KafkaAvroDeserializer::close);
    }
  }

  @Benchmark
  @OperationsPerInvocation(SCHEMAS)
  public int kavroNewSchema(Writing w) {
    int bytes = 0;
    for (int i = 0; i < SCHEMAS; i++) {
      bytes += w.serializer.serialize(w.topics.get(i), w.fresh.get(i)).length;
    }
    return bytes;
  }

  @Benchmark
  @OperationsPerInvocation(SCHEMAS)
  public int rawNewSchema(Writing w) {
    int bytes = 0;
    for (int i = 0; i < SCHEMAS; i++) {
      GenericRecord record = w.fresh.get(i);
      bytes += new RawAvro(new GenericDatumWriter<>(record.getSchema()), null, 1).serialize(record).length;
    }
    return bytes;
  }

  @Benchmark
  @OperationsPerInvocation(SCHEMAS)
  public int kavroColdReader(Writing w, Reading r) {
    int fields = 0;
    for (int i = 0; i < SCHEMAS; i++) {
      fields += ((GenericRecord) r.readers.get(i).deserialize(w.topics.get(i), r.written.get(i))).getSchema()
          .getFields().size();
    }
    return fields;
  }

  @Benchmark
  @OperationsPerInvocation(SCHEMAS)
  public int rawColdReader(Writing w, Reading r) {
    int fields = 0;
    for (int i = 0; i < SCHEMAS; i++) {
      Schema schema = new Schema.Parser().parse(w.texts.get(i));
      fields += ((GenericRecord) new RawAvro(null, new GenericDatumReader<>(schema, schema), 1)
          .deserialize(r.written.get(i))).getSchema().getFields().size();
    }
    return fields;
  }
}
