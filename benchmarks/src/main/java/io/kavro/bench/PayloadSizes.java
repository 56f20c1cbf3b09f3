package io.kavro.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;

/**
 * Payload size per record, Kavro's framed Avro next to the same data as JSON (Jackson), each in real Kafka
 * record batches of 1,000 records, uncompressed and with every codec Kafka has.
 */
public final class PayloadSizes {
  private static final int BATCH = 1000;
  private static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");
  private static final ObjectMapper JSON = new ObjectMapper();

  private PayloadSizes() {}

  /** One row: bytes per record for each codec. */
  public record Row(Shape shape, String format, Map<String, Double> bytesPerRecord) {}

  public static List<Row> measure() throws Exception {
    List<Row> rows = new ArrayList<>();
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      List<byte[]> avro = new ArrayList<>();
      List<byte[]> json = new ArrayList<>();
      try (KavroSerdes kavro = new KavroSerdes(shape)) {
        for (Object record : BenchData.records(shape).subList(0, BATCH)) {
          avro.add(kavro.serializer().serialize(KavroSerdes.TOPIC, record));
          json.add(JSON.writeValueAsBytes(toJson(record)));
        }
      }
      rows.add(new Row(shape, "Kavro (framed Avro)", perCodec(avro)));
      rows.add(new Row(shape, "JSON (Jackson)", perCodec(json)));
    }
    return rows;
  }

  private static Map<String, Double> perCodec(List<byte[]> values) {
    Map<String, Double> sizes = new LinkedHashMap<>();
    for (String codec : CODECS) {
      MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(16 << 20), Compression.of(codec).build(),
          TimestampType.CREATE_TIME, 0L);
      long timestamp = 1_764_417_600_000L;
      for (byte[] value : values) {
        builder.append(timestamp++, (byte[]) null, value);
      }
      sizes.put(codec, builder.build().sizeInBytes() / (double) values.size());
    }
    return sizes;
  }

  /** The datum as a JSON tree: bytes and fixed as base64, enums and strings as text. */
  static JsonNode toJson(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value == null) {
      return nodes.nullNode();
    }
    if (value instanceof IndexedRecord record) {
      ObjectNode object = nodes.objectNode();
      for (Schema.Field field : record.getSchema().getFields()) {
        object.set(field.name(), toJson(record.get(field.pos())));
      }
      return object;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = nodes.objectNode();
      map.forEach((k, v) -> object.set(k.toString(), toJson(v)));
      return object;
    }
    if (value instanceof Collection<?> items) {
      ArrayNode array = nodes.arrayNode();
      items.forEach(item -> array.add(toJson(item)));
      return array;
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return nodes.textNode(Base64.getEncoder().encodeToString(bytes));
    }
    if (value instanceof GenericFixed fixed) {
      return nodes.textNode(Base64.getEncoder().encodeToString(fixed.bytes()));
    }
    return JSON.valueToTree(value instanceof CharSequence || value instanceof Enum<?>
        || value instanceof org.apache.avro.generic.GenericEnumSymbol<?> ? value.toString() : value);
  }

  public static void main(String[] args) throws Exception {
    for (Row row : measure()) {
      System.out.println(row);
    }
  }
}
