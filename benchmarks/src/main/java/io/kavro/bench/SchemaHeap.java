package io.kavro.bench;

import io.kavro.connect.AvroConverter;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The heap each cached schema costs, measured, not estimated: {@code count} S3 record types written once
 * ({@link ManySchemas}, the registry's own copy and the records there before and after), then the heap used after
 * full GCs before and after one new client has handled a record of each, over {@code count}. Each client is
 * measured alone, in turn, and kept reachable to the end: a deserializer (schemas by id, read plans, compiled
 * decoders), a serializer (ids by schema, write plans, compiled encoders), a Connect converter over its own serde,
 * a schema parsed from its text (which a {@code mock://} registry, handing over the schema it keeps, spares the
 * serdes, and a client over HTTP holds once per id), and, for scale, raw Avro's generic writer and reader of it,
 * each used once. Run in a JVM of its own: {@code java -cp benchmarks.jar io.kavro.bench.SchemaHeap}.
 */
public final class SchemaHeap {
  private SchemaHeap() {}

  /**
   * Bytes of heap per schema, each client measured alone.
   *
   * @param schemas the number of schemas
   * @param deserializer a {@code KafkaAvroDeserializer}'s
   * @param serializer a {@code KafkaAvroSerializer}'s
   * @param converter an {@code AvroConverter}'s (which reads through a deserializer of its own)
   * @param parsedSchema a schema parsed from its text, as a registry client over HTTP holds it (a {@code mock://}
   *     registry hands the serdes the very schema it keeps, so their figures leave it out)
   * @param rawAvro Avro's generic writer and reader of a parsed schema, each used once
   */
  public record Cost(int schemas, double deserializer, double serializer, double converter, double parsedSchema,
      double rawAvro) {}

  /** Measures the cost with {@code count} schemas. */
  public static Cost measure(int count) throws Exception {
    try (ManySchemas many = new ManySchemas(count)) {
      long base = usedHeapAfterGc();
      KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
      deserializer.configure(many.config(), false);
      for (int i = 0; i < count; i++) {
        deserializer.deserialize(many.topic(i), many.payload(i));
      }
      long afterDeserializer = usedHeapAfterGc();
      KafkaAvroSerializer serializer = new KafkaAvroSerializer();
      serializer.configure(many.config(), false);
      for (int i = 0; i < count; i++) {
        serializer.serialize(many.topic(i), many.record(i));
      }
      long afterSerializer = usedHeapAfterGc();
      AvroConverter converter = new AvroConverter();
      converter.configure(many.config(), false);
      for (int i = 0; i < count; i++) {
        converter.toConnectData(many.topic(i), many.payload(i));
      }
      long afterConverter = usedHeapAfterGc();
      List<Schema> parsed = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        parsed.add(new Schema.Parser().parse(many.record(i).getSchema().toString()));
      }
      long afterParsed = usedHeapAfterGc();
      List<Object> raw = new ArrayList<>();
      BinaryDecoder decoder = null;
      for (int i = 0; i < count; i++) {
        Schema schema = parsed.get(i);
        GenericDatumWriter<Object> writer = new GenericDatumWriter<>(schema);
        writer.write(many.record(i), EncoderFactory.get().binaryEncoder(new java.io.ByteArrayOutputStream(), null));
        GenericDatumReader<Object> reader = new GenericDatumReader<>(schema);
        byte[] payload = many.payload(i);
        decoder = DecoderFactory.get().binaryDecoder(payload, 5, payload.length - 5, decoder);
        reader.read(null, decoder);
        raw.add(writer);
        raw.add(reader);
      }
      long afterRaw = usedHeapAfterGc();
      Cost cost = new Cost(count, (afterDeserializer - base) / (double) count,
          (afterSerializer - afterDeserializer) / (double) count, (afterConverter - afterSerializer) / (double) count,
          (afterParsed - afterConverter) / (double) count, (afterRaw - afterParsed) / (double) count);
      Reference.reachabilityFence(deserializer);
      Reference.reachabilityFence(serializer);
      Reference.reachabilityFence(converter);
      Reference.reachabilityFence(parsed);
      Reference.reachabilityFence(raw);
      deserializer.close();
      serializer.close();
      converter.close();
      return cost;
    }
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Prints the cost with each count given (default 1,000 and 10,000). */
  public static void main(String[] args) throws Exception {
    String[] counts = args.length > 0 ? args : new String[] {"1000", "10000"};
    for (String count : counts) {
      System.out.println(measure(Integer.parseInt(count)));
    }
  }
}
