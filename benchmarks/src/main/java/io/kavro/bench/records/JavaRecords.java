package io.kavro.bench.records;

import io.kavro.bench.BenchData;
import io.kavro.bench.Shape;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/** The benchmark's S3 records as Java records and as mutable classes: the same values. */
public final class JavaRecords {
  private JavaRecords() {}

  /** {@link BenchData#RECORDS} S3 records as Java records. */
  public static List<OrderRecord> records() {
    List<OrderRecord> records = new ArrayList<>();
    for (GenericRecord g : BenchData.records(Shape.S3)) {
      GenericRecord a = (GenericRecord) g.get("address");
      List<LineRecord> lines = new ArrayList<>();
      for (Object o : (List<?>) g.get("lines")) {
        GenericRecord l = (GenericRecord) o;
        lines.add(new LineRecord(text(l.get("sku")), (Integer) l.get("qty"), bytes(l.get("price"))));
      }
      records.add(new OrderRecord(text(g.get("id")), (Long) g.get("seq"), (Integer) g.get("count"),
          (Float) g.get("ratio"), (Double) g.get("score"), (Boolean) g.get("active"), text(g.get("name")),
          bytes(g.get("payload")), Status.valueOf(g.get("status").toString()), ((GenericFixed) g.get("hash")).bytes(),
          text(g.get("nickname")), List.copyOf(longs(g.get("tags"))), texts(g.get("attributes")),
          new AddressRecord(text(a.get("street")), text(a.get("city")), text(a.get("zip"))), lines,
          (Long) g.get("createdAt"), (Integer) g.get("birthday"), bytes(g.get("balance"))));
    }
    return records;
  }

  /** The same records as mutable classes. */
  public static List<OrderPojo> pojos() {
    List<OrderPojo> pojos = new ArrayList<>();
    for (OrderRecord r : records()) {
      OrderPojo p = new OrderPojo();
      p.id = r.id();
      p.seq = r.seq();
      p.count = r.count();
      p.ratio = r.ratio();
      p.score = r.score();
      p.active = r.active();
      p.name = r.name();
      p.payload = r.payload();
      p.status = r.status();
      p.hash = r.hash();
      p.nickname = r.nickname();
      p.tags = r.tags();
      p.attributes = r.attributes();
      p.address = new OrderPojo.AddressPojo();
      p.address.street = r.address().street();
      p.address.city = r.address().city();
      p.address.zip = r.address().zip();
      p.lines = new ArrayList<>();
      for (LineRecord l : r.lines()) {
        OrderPojo.LinePojo line = new OrderPojo.LinePojo();
        line.sku = l.sku();
        line.qty = l.qty();
        line.price = l.price();
        p.lines.add(line);
      }
      p.createdAt = r.createdAt();
      p.birthday = r.birthday();
      p.balance = r.balance();
      pojos.add(p);
    }
    return pojos;
  }

  private static String text(Object value) {
    return value == null ? null : value.toString();
  }

  private static byte[] bytes(Object value) {
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  @SuppressWarnings("unchecked")
  private static List<Long> longs(Object value) {
    return (List<Long>) value;
  }

  private static Map<String, String> texts(Object value) {
    Map<String, String> map = new HashMap<>();
    ((Map<?, ?>) value).forEach((k, v) -> map.put(k.toString(), v.toString()));
    return map;
  }
}
