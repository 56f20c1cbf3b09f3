package io.kavro.bench.records;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.reflect.AvroSchema;
import org.apache.avro.reflect.Nullable;

/** {@link TypedOrder} as a mutable class, which Avro's reflect reader can build. */
public class TypedOrderPojo {
  public UUID id;
  public long seq;
  public int count;
  public float ratio;
  public double score;
  public boolean active;
  public String name;
  public byte[] payload;
  public Status status;
  public byte[] hash;
  @Nullable public String nickname;
  public List<Long> tags;
  public Map<String, String> attributes;
  public OrderPojo.AddressPojo address;
  public List<Line> lines;
  public Instant createdAt;
  public LocalDate birthday;
  @AvroSchema(TypedOrder.BALANCE) public BigDecimal balance;

  /** S3's order line. */
  public static class Line {
    public String sku;
    public int qty;
    @AvroSchema(TypedOrder.PRICE) public BigDecimal price;
  }
}
