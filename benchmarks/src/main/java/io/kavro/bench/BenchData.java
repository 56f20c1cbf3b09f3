package io.kavro.bench;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Benchmark records from a fixed seed, in Avro's raw generic form (decimals as two's complement bytes,
 * timestamps as longs, dates as ints, uuids as strings), which every contender writes without conversion.
 */
public final class BenchData {
  /** Records per shape, rotated through. */
  public static final int RECORDS = 1024;
  private static final long SEED = 20261129L;

  private BenchData() {}

  /** {@link #RECORDS} records of the shape's writer schema. */
  public static List<GenericRecord> records(Shape shape) {
    Random random = new Random(SEED);
    List<GenericRecord> records = new ArrayList<>(RECORDS);
    for (int i = 0; i < RECORDS; i++) {
      records.add(switch (shape) {
        case S1 -> s1(shape.writer(), random);
        case S2 -> s2(shape.writer(), random);
        case S3, S4 -> s3(shape.writer(), random);
      });
    }
    return records;
  }

  /**
   * The same records as the classes avro-maven-plugin generated from the shape's schema ({@code User} for S2,
   * {@code Order} for S3), with their logical types as the classes convert them: written generic, read specific.
   */
  public static List<org.apache.avro.specific.SpecificRecord> specific(Shape shape) {
    Class<? extends org.apache.avro.specific.SpecificRecord> type = specificClass(shape);
    org.apache.avro.specific.SpecificData model = org.apache.avro.specific.SpecificData.getForClass(type);
    Schema schema = model.getSchema(type);
    RawAvro codec = new RawAvro(new org.apache.avro.generic.GenericDatumWriter<>(shape.writer()),
        new org.apache.avro.specific.SpecificDatumReader<>(shape.writer(), schema, model), 0);
    List<org.apache.avro.specific.SpecificRecord> records = new ArrayList<>(RECORDS);
    for (GenericRecord record : records(shape)) {
      records.add((org.apache.avro.specific.SpecificRecord) codec.deserialize(codec.serialize(record)));
    }
    return records;
  }

  /** The generated class of S2 or S3. */
  public static Class<? extends org.apache.avro.specific.SpecificRecord> specificClass(Shape shape) {
    return switch (shape) {
      case S2 -> User.class;
      case S3 -> Order.class;
      default -> throw new IllegalArgumentException("no generated class for " + shape);
    };
  }

  private static GenericRecord s1(Schema schema, Random random) {
    GenericRecord record = new GenericData.Record(schema);
    record.put("f1", text(random, 8 + random.nextInt(8)));
    return record;
  }

  private static GenericRecord s2(Schema schema, Random random) {
    GenericRecord record = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      record.put(field.pos(), Double.toString(random.nextDouble()));
    }
    return record;
  }

  private static GenericRecord s3(Schema schema, Random random) {
    GenericRecord record = new GenericData.Record(schema);
    record.put("id", new UUID(random.nextLong(), random.nextLong()).toString());
    record.put("seq", random.nextLong());
    record.put("count", random.nextInt(100_000));
    record.put("ratio", random.nextFloat());
    record.put("score", random.nextDouble() * 1000);
    record.put("active", random.nextBoolean());
    record.put("name", text(random, 12));
    record.put("payload", ByteBuffer.wrap(bytes(random, 32)));
    Schema status = schema.getField("status").schema();
    record.put("status", new GenericData.EnumSymbol(status, status.getEnumSymbols().get(random.nextInt(4))));
    record.put("hash", new GenericData.Fixed(schema.getField("hash").schema(), bytes(random, 16)));
    record.put("nickname", random.nextBoolean() ? text(random, 8) : null);
    List<Long> tags = new ArrayList<>();
    for (int i = 0, n = 3 + random.nextInt(3); i < n; i++) {
      tags.add(random.nextLong());
    }
    record.put("tags", tags);
    Map<String, String> attributes = new HashMap<>();
    for (int i = 0, n = 2 + random.nextInt(2); i < n; i++) {
      attributes.put("k" + i, text(random, 6));
    }
    record.put("attributes", attributes);
    GenericRecord address = new GenericData.Record(schema.getField("address").schema());
    address.put("street", text(random, 16));
    address.put("city", text(random, 8));
    address.put("zip", random.nextBoolean() ? text(random, 5) : null);
    record.put("address", address);
    Schema line = schema.getField("lines").schema().getElementType();
    List<GenericRecord> lines = new ArrayList<>();
    for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
      GenericRecord l = new GenericData.Record(line);
      l.put("sku", text(random, 10));
      l.put("qty", 1 + random.nextInt(9));
      l.put("price", decimal(random, 1_000_000));
      lines.add(l);
    }
    record.put("lines", lines);
    record.put("createdAt", 1_700_000_000_000L + random.nextInt(1_000_000_000));
    record.put("birthday", random.nextInt(20_000));
    record.put("balance", decimal(random, 1_000_000_000));
    return record;
  }

  private static ByteBuffer decimal(Random random, int bound) {
    return ByteBuffer.wrap(BigInteger.valueOf(random.nextInt(bound) - bound / 2).toByteArray());
  }

  private static String text(Random random, int length) {
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(chars);
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
