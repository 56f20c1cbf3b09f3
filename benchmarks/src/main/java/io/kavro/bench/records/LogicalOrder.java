package io.kavro.bench.records;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.reflect.AvroSchema;
import org.apache.avro.reflect.Nullable;

/**
 * S3 as a Java record with S3's logical types (by {@code @AvroSchema}) whose components hold the underlying values:
 * the uuid's text, the timestamp's and the date's numbers, the decimals' bytes.
 */
public record LogicalOrder(@AvroSchema(UUID) String id, long seq, int count, float ratio, double score,
    boolean active, String name, byte[] payload, Status status, byte[] hash, @Nullable String nickname,
    List<Long> tags, Map<String, String> attributes, AddressRecord address, List<Line> lines,
    @AvroSchema(TIMESTAMP) long createdAt, @AvroSchema(DATE) int birthday,
    @AvroSchema(TypedOrder.BALANCE) ByteBuffer balance) {
  static final String UUID = "{\"type\":\"string\",\"logicalType\":\"uuid\"}";
  static final String TIMESTAMP = "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}";
  static final String DATE = "{\"type\":\"int\",\"logicalType\":\"date\"}";

  /** S3's order line, its price the decimal's bytes. */
  public record Line(String sku, int qty, @AvroSchema(TypedOrder.PRICE) ByteBuffer price) {}
}
