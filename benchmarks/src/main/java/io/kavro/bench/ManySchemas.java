package io.kavro.bench;

import io.kavro.connect.AvroConverter;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Many schemas at once (a Connect worker on hundreds of topics): {@code count} S3 record types, each its own schema
 * on its own topic, written once, and what one serializer, one deserializer and one converter keep for them. The
 * serde and converter methods are thread-safe; the raw Avro ones are not (one reader and writer per schema), nor
 * are the floors under a reader ({@link #handWrittenDeserialize}, {@link #allocationOnly}: one decoder for all).
 */
public final class ManySchemas implements AutoCloseable {
  /**
   * The bound of every schema cache, the serde's ({@code max.schemas.per.subject}), its topics' contexts
   * ({@code subject.name.strategy.cache.size}, 1,000 by default: beyond it a deserializer asked the registry again
   * on every record of 10,000 topics, which the harness refused) and the converter's ({@code schemas.cache.config}),
   * set to hold them all: beyond it, entries are evicted and built again.
   */
  public static final int BOUND = 10_000;

  private final MockScope scope = new MockScope();
  private final Map<String, Object> config;
  private final List<String> topics = new ArrayList<>();
  private final List<byte[]> payloads = new ArrayList<>();
  private final List<GenericRecord> records = new ArrayList<>();
  private final KafkaAvroSerializer serializer = new KafkaAvroSerializer();
  private final KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
  private final AvroConverter converter = new AvroConverter();
  private final RawPerSchema raw = new RawPerSchema();
  /** Each record as the converter reads it, for {@link #structsOnly}; filled by {@link #warm}. */
  private final List<Object> connectValues = new ArrayList<>();
  /** Each schema's {@link ReferenceReaders}, made of that schema's own objects. */
  private final List<ReferenceReaders> references = new ArrayList<>();
  /** Each record's allocation plan, for {@link #allocationOnly}; filled by {@link #warm}. */
  private final List<ReferenceReaders.Plan> plans = new ArrayList<>();
  /** The one decoder of {@link #handWrittenDeserialize}, as raw Avro's one for all its readers. */
  private BinaryDecoder decoder;

  /** Writes one record of each of {@code count} new S3 record types; reads nothing yet. */
  public ManySchemas(int count) {
    config = Map.of("schema.registry.url", scope.url(), "max.schemas.per.subject", BOUND,
        "subject.name.strategy.cache.size", BOUND,
        "schemas.cache.config", BOUND);
    GenericRecord base = BenchData.records(Shape.S3).get(0);
    String text = Shape.S3.writer().toString();
    String name = "\"name\":\"" + Shape.S3.writer().getName() + "\"";
    serializer.configure(config, false);
    for (int i = 0; i < count; i++) {
      Schema schema = new Schema.Parser().parse(text.replace(name, "\"name\":\"Order" + i + "\""));
      String topic = "many-" + i;
      topics.add(topic);
      GenericRecord record = GenericData.get().deepCopy(schema, base);
      records.add(record);
      byte[] payload = serializer.serialize(topic, record);
      payloads.add(payload);
      raw.add(schema, java.nio.ByteBuffer.wrap(payload, 1, 4).getInt());
      references.add(ReferenceReaders.s3(schema));
    }
    deserializer.configure(config, false);
    converter.configure(config, false);
  }

  /**
   * {@code count} schemas, each written, read and converted once, so that every cache holds them; and the floors
   * under a reader checked on each: the hand-written reader returns what Kavro and raw Avro return, and the
   * allocation plan taken from it rebuilds the same graph, both made of the record's own schema objects.
   *
   * @throws IllegalStateException if a floor returns another graph than Kavro and raw Avro (it would be worthless)
   */
  public static ManySchemas warm(int count) {
    ManySchemas many = new ManySchemas(count);
    for (int i = 0; i < count; i++) {
      many.serialize(i);
      many.rawSerialize(i);
      Object read = many.deserialize(i);
      Object rawRead = many.rawDeserialize(i);
      Object handRead = many.handWrittenDeserialize(i);
      Schema schema = many.records.get(i).getSchema();
      // validated first: comparing a record with a null where its schema has none throws instead of answering
      if (!GenericData.get().validate(schema, handRead) || !read.equals(handRead) || !read.equals(rawRead)) {
        throw new IllegalStateException("schema " + i + ": the hand-written reader disagrees with Kavro or Avro: "
            + handRead);
      }
      checkOwnSchemas(i, "the hand-written reader", handRead, schema);
      ReferenceReaders reference = many.references.get(i);
      ReferenceReaders.Plan plan = reference.plan(handRead);
      many.plans.add(plan);
      Object allocated = many.allocationOnly(i);
      if (!GenericData.get().validate(schema, allocated)
          || !java.util.Arrays.equals(reference.plan(allocated).sizes(), plan.sizes())
          || !java.util.Arrays.equals(reference.plan(allocated).numbers(), plan.numbers())) {
        throw new IllegalStateException("schema " + i + ": allocation only built another graph than the record's: "
            + allocated);
      }
      checkOwnSchemas(i, "allocation only", allocated, schema);
      many.connectValues.add(((org.apache.kafka.connect.data.SchemaAndValue) many.toConnect(i)).value());
    }
    return many;
  }

  /**
   * Throws unless every schema-bearing object of {@code datum} (an S3-shaped record) holds the very schema object
   * of {@code schema} at its place, not an equal one of another schema: a floor built of other schemas' objects
   * would leave out the cache misses on each schema's own, which raw Avro and Kavro pay.
   */
  private static void checkOwnSchemas(int i, String floor, Object datum, Schema schema) {
    GenericRecord record = (GenericRecord) datum;
    Schema lines = schema.getField("lines").schema();
    List<Object[]> pairs = new ArrayList<>(List.of(new Object[] {"the record", record.getSchema(), schema},
        new Object[] {"hash", ((GenericData.Fixed) record.get("hash")).getSchema(), schema.getField("hash").schema()},
        new Object[] {"tags", ((GenericData.Array<?>) record.get("tags")).getSchema(),
            schema.getField("tags").schema()},
        new Object[] {"address", ((GenericRecord) record.get("address")).getSchema(),
            schema.getField("address").schema()},
        new Object[] {"lines", ((GenericData.Array<?>) record.get("lines")).getSchema(), lines},
        new Object[] {"status", ((GenericData.EnumSymbol) record.get("status")).getSchema(),
            schema.getField("status").schema()}));
    for (Object line : (List<?>) record.get("lines")) {
      pairs.add(new Object[] {"a line", ((GenericRecord) line).getSchema(), lines.getElementType()});
    }
    for (Object[] pair : pairs) {
      if (pair[1] != pair[2]) {
        throw new IllegalStateException("schema " + i + ": " + floor + " holds another schema object for " + pair[0]
            + " than its own schema's");
      }
    }
  }

  public int size() {
    return payloads.size();
  }

  /** Record {@code i} through the deserializer. */
  public Object deserialize(int i) {
    return deserializer.deserialize(topics.get(i), payloads.get(i));
  }

  /**
   * Record {@code i} through raw Avro's reader of its schema, built beforehand and handed directly. Not
   * thread-safe.
   */
  public Object rawDeserialize(int i) {
    return raw.deserialize(i, payloads.get(i));
  }

  /**
   * Record {@code i} through a reader written by hand for S3 ({@link ReferenceReaders}) with its schema's own
   * objects, built beforehand and handed directly, on one decoder for all: the ceiling of any reader returning
   * Avro's generic records. Not thread-safe.
   */
  public Object handWrittenDeserialize(int i) {
    byte[] payload = payloads.get(i);
    decoder = DecoderFactory.get().binaryDecoder(payload, 5, payload.length - 5, decoder);
    try {
      return references.get(i).read(decoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Record {@code i}'s object graph allocated from its plan with its schema's own objects, reading no byte: the
   * floor under any reader returning Avro's generic records. Only after {@link #warm}.
   */
  public Object allocationOnly(int i) {
    return references.get(i).allocationOnly(plans.get(i));
  }

  /** Record {@code i} through the serializer, on its own topic. */
  public byte[] serialize(int i) {
    return serializer.serialize(topics.get(i), records.get(i));
  }

  /**
   * Record {@code i} through raw Avro's writer of its schema, built beforehand and handed directly. Not
   * thread-safe.
   */
  public byte[] rawSerialize(int i) {
    return raw.serialize(i, records.get(i));
  }

  /** Record {@code i} through the converter. */
  public Object toConnect(int i) {
    return converter.toConnectData(topics.get(i), payloads.get(i));
  }

  /**
   * Record {@code i}'s structs built again from its values already in Connect's form, reading nothing: the floor of
   * {@link #toConnect} beyond the serde ({@link StructCopies}). Only after {@link #warm}.
   */
  public Object structsOnly(int i) {
    return StructCopies.rebuild(connectValues.get(i));
  }

  public MockScope scope() {
    return scope;
  }

  /** The settings of the serdes and converter: the scope's registry, every cache bound at {@link #BOUND}. */
  public Map<String, Object> config() {
    return config;
  }

  /** The topic of record {@code i}. */
  public String topic(int i) {
    return topics.get(i);
  }

  /** Record {@code i} as written, framed. */
  public byte[] payload(int i) {
    return payloads.get(i);
  }

  /** Record {@code i}, in Avro's generic form. */
  public GenericRecord record(int i) {
    return records.get(i);
  }

  @Override
  public void close() {
    serializer.close();
    deserializer.close();
    converter.close();
    scope.close();
  }
}
