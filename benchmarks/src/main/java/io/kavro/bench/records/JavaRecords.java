package io.kavro.bench.records;

import io.kavro.bench.BenchData;
import io.kavro.bench.Shape;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

  /** The same records with their logical types' values as Java types. */
  public static List<TypedOrder> typed() {
    List<TypedOrder> typed = new ArrayList<>();
    for (OrderRecord r : records()) {
      List<TypedOrder.Line> lines = new ArrayList<>();
      for (LineRecord l : r.lines()) {
        lines.add(new TypedOrder.Line(l.sku(), l.qty(), new BigDecimal(new BigInteger(l.price()), 2)));
      }
      typed.add(new TypedOrder(UUID.fromString(r.id()), r.seq(), r.count(), r.ratio(), r.score(), r.active(),
          r.name(), r.payload(), r.status(), r.hash(), r.nickname(), r.tags(), r.attributes(), r.address(), lines,
          Instant.ofEpochMilli(r.createdAt()), LocalDate.ofEpochDay(r.birthday()),
          new BigDecimal(new BigInteger(r.balance()), 4)));
    }
    return typed;
  }

  /** {@link #typed()} as mutable classes. */
  public static List<TypedOrderPojo> typedPojos() {
    List<TypedOrderPojo> pojos = new ArrayList<>();
    for (TypedOrder r : typed()) {
      TypedOrderPojo p = new TypedOrderPojo();
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
      p.address = address(r.address());
      p.lines = new ArrayList<>();
      for (TypedOrder.Line l : r.lines()) {
        TypedOrderPojo.Line line = new TypedOrderPojo.Line();
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

  /** The same records with S3's logical types, their components holding the underlying values. */
  public static List<LogicalOrder> logical() {
    List<LogicalOrder> logical = new ArrayList<>();
    for (OrderRecord r : records()) {
      List<LogicalOrder.Line> lines = new ArrayList<>();
      for (LineRecord l : r.lines()) {
        lines.add(new LogicalOrder.Line(l.sku(), l.qty(), ByteBuffer.wrap(l.price())));
      }
      logical.add(new LogicalOrder(r.id(), r.seq(), r.count(), r.ratio(), r.score(), r.active(), r.name(),
          r.payload(), r.status(), r.hash(), r.nickname(), r.tags(), r.attributes(), r.address(), lines,
          r.createdAt(), r.birthday(), ByteBuffer.wrap(r.balance())));
    }
    return logical;
  }

  /** {@link #logical()} as mutable classes. */
  public static List<LogicalOrderPojo> logicalPojos() {
    List<LogicalOrderPojo> pojos = new ArrayList<>();
    for (LogicalOrder r : logical()) {
      LogicalOrderPojo p = new LogicalOrderPojo();
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
      p.address = address(r.address());
      p.lines = new ArrayList<>();
      for (LogicalOrder.Line l : r.lines()) {
        LogicalOrderPojo.Line line = new LogicalOrderPojo.Line();
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

  private static OrderPojo.AddressPojo address(AddressRecord a) {
    OrderPojo.AddressPojo p = new OrderPojo.AddressPojo();
    p.street = a.street();
    p.city = a.city();
    p.zip = a.zip();
    return p;
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
