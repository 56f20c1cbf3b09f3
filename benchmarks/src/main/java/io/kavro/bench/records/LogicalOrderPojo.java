package io.kavro.bench.records;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.reflect.AvroSchema;
import org.apache.avro.reflect.Nullable;

/** {@link LogicalOrder} as a mutable class, which Avro's reflect reader can build. */
public class LogicalOrderPojo {
  @AvroSchema(LogicalOrder.UUID) public String id;
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
  @AvroSchema(LogicalOrder.TIMESTAMP) public long createdAt;
  @AvroSchema(LogicalOrder.DATE) public int birthday;
  @AvroSchema(TypedOrder.BALANCE) public ByteBuffer balance;

  /** S3's order line. */
  public static class Line {
    public String sku;
    public int qty;
    @AvroSchema(TypedOrder.PRICE) public ByteBuffer price;
  }
}
