package io.kavro.bench.records;

import java.util.List;
import java.util.Map;
import org.apache.avro.reflect.Nullable;

/** {@link OrderRecord} as a mutable class, which Avro's reflect reader can build. */
public class OrderPojo {
  public String id;
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
  public AddressPojo address;
  public List<LinePojo> lines;
  public long createdAt;
  public int birthday;
  public byte[] balance;

  /** S3's address. */
  public static class AddressPojo {
    public String street;
    public String city;
    @Nullable public String zip;
  }

  /** S3's order line. */
  public static class LinePojo {
    public String sku;
    public int qty;
    public byte[] price;
  }
}
