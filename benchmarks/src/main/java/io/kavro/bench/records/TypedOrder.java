package io.kavro.bench.records;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.reflect.AvroSchema;
import org.apache.avro.reflect.Nullable;

/**
 * S3 as a Java record whose logical types are held as Java types: {@code UUID}, {@code Instant}, {@code LocalDate}
 * and {@code BigDecimal} (S3's decimals by {@code @AvroSchema}).
 */
public record TypedOrder(UUID id, long seq, int count, float ratio, double score, boolean active, String name,
    byte[] payload, Status status, byte[] hash, @Nullable String nickname, List<Long> tags,
    Map<String, String> attributes, AddressRecord address, List<Line> lines, Instant createdAt, LocalDate birthday,
    @AvroSchema(BALANCE) BigDecimal balance) {
  static final String BALANCE = "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":16,\"scale\":4}";
  static final String PRICE = "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":12,\"scale\":2}";

  /** S3's order line, its price a {@code BigDecimal}. */
  public record Line(String sku, int qty, @AvroSchema(PRICE) BigDecimal price) {}
}
