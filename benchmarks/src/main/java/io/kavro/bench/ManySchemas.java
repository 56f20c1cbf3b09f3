package io.kavro.bench;

import io.kavro.connect.AvroConverter;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Many schemas at once (a Connect worker on hundreds of topics): {@code count} S3 record types, each its own schema
 * on its own topic, written once, and what one serializer, one deserializer and one converter keep for them. The
 * serde and converter methods are thread-safe; the raw Avro ones are not (one reader and writer per schema).
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
    }
    deserializer.configure(config, false);
    converter.configure(config, false);
  }

  /** {@code count} schemas, each written, read and converted once, so that every cache holds them. */
  public static ManySchemas warm(int count) {
    ManySchemas many = new ManySchemas(count);
    for (int i = 0; i < count; i++) {
      many.serialize(i);
      many.rawSerialize(i);
      many.deserialize(i);
      many.rawDeserialize(i);
      many.connectValues.add(((org.apache.kafka.connect.data.SchemaAndValue) many.toConnect(i)).value());
    }
    return many;
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
