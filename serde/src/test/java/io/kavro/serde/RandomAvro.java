package io.kavro.serde;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** Random Avro schemas and matching data, from a seed, for property and fuzz tests. */
final class RandomAvro {
  private final Random random;
  private int names;

  RandomAvro(long seed) {
    this.random = new Random(seed);
  }

  /** A record with 1 to 6 fields of any type, nested up to {@code depth} levels. */
  Schema record(int depth) {
    return record(depth, 1 + random.nextInt(6));
  }

  private Schema record(int depth, int count) {
    List<Schema.Field> fields = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      fields.add(new Schema.Field("f" + i, any(depth)));
    }
    return Schema.createRecord("R" + (names++), null, "io.kavro.random", false, fields);
  }

  private Schema any(int depth) {
    int choice = random.nextInt(depth > 0 ? 20 : 13);
    return switch (choice) {
      case 0 -> Schema.create(Schema.Type.BOOLEAN);
      case 1 -> Schema.create(Schema.Type.INT);
      case 2 -> Schema.create(Schema.Type.LONG);
      case 3 -> Schema.create(Schema.Type.FLOAT);
      case 4 -> Schema.create(Schema.Type.DOUBLE);
      case 5 -> Schema.create(Schema.Type.STRING);
      case 6 -> Schema.create(Schema.Type.BYTES);
      case 7 -> Schema.createEnum("E" + (names++), null, "io.kavro.random", List.of("A", "B", "C", "D"));
      case 8 -> Schema.createFixed("F" + (names++), null, "io.kavro.random", 1 + random.nextInt(8));
      case 9 -> LogicalTypes.decimal(9, random.nextInt(5)).addToSchema(Schema.create(Schema.Type.BYTES));
      case 10 -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
      case 11 -> LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
      case 12 -> LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING));
      case 13 -> Schema.createArray(any(depth - 1));
      case 14 -> Schema.createMap(any(depth - 1));
      case 15 -> Schema.createUnion(Schema.create(Schema.Type.NULL), nonUnion(depth - 1));
      case 16 -> wideUnion(depth - 1);
      // Items of no width: an array of nulls or of empty records.
      case 17 -> Schema.createArray(random.nextBoolean() ? Schema.create(Schema.Type.NULL) : record(0, 0));
      default -> record(depth - 1);
    };
  }

  /** A union of two to four branches of distinct types, null among them or not, a record perhaps. */
  private Schema wideUnion(int depth) {
    List<Schema.Type> types = new ArrayList<>(List.of(Schema.Type.NULL, Schema.Type.INT, Schema.Type.LONG,
        Schema.Type.STRING, Schema.Type.DOUBLE, Schema.Type.BOOLEAN, Schema.Type.BYTES, Schema.Type.RECORD));
    java.util.Collections.shuffle(types, random);
    List<Schema> branches = new ArrayList<>();
    for (Schema.Type type : types.subList(0, 2 + random.nextInt(3))) {
      branches.add(type == Schema.Type.RECORD ? record(Math.max(depth, 0)) : Schema.create(type));
    }
    return Schema.createUnion(branches);
  }

  private Schema nonUnion(int depth) {
    Schema schema;
    do {
      schema = any(depth);
    } while (schema.getType() == Schema.Type.UNION);
    return schema;
  }

  /** A datum of the schema, with logical types as Java types. */
  Object datum(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal decimal) {
      return new BigDecimal(BigInteger.valueOf(random.nextInt(1_000_000_000) - 500_000_000), decimal.getScale());
    }
    if (schema.getLogicalType() instanceof LogicalTypes.Date) {
      return LocalDate.ofEpochDay(random.nextInt(40_000) - 20_000);
    }
    if (schema.getLogicalType() instanceof LogicalTypes.TimestampMillis) {
      return Instant.ofEpochMilli(random.nextLong() % 10_000_000_000_000L);
    }
    if (schema.getLogicalType() instanceof LogicalTypes.Uuid) {
      return new UUID(random.nextLong(), random.nextLong());
    }
    return switch (schema.getType()) {
      case NULL -> null;
      case BOOLEAN -> random.nextBoolean();
      case INT -> random.nextInt();
      case LONG -> random.nextLong();
      case FLOAT -> random.nextFloat() * 1000 - 500;
      case DOUBLE -> random.nextDouble() * 1e6 - 5e5;
      case STRING -> string();
      case BYTES -> ByteBuffer.wrap(bytes(random.nextInt(20)));
      case ENUM -> new GenericData.EnumSymbol(schema,
          schema.getEnumSymbols().get(random.nextInt(schema.getEnumSymbols().size())));
      case FIXED -> new GenericData.Fixed(schema, bytes(schema.getFixedSize()));
      case ARRAY -> {
        int n = random.nextInt(4);
        GenericData.Array<Object> array = new GenericData.Array<>(n, schema);
        for (int i = 0; i < n; i++) {
          array.add(datum(schema.getElementType()));
        }
        yield array;
      }
      case MAP -> {
        int n = random.nextInt(4);
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < n; i++) {
          map.put(string(), datum(schema.getValueType()));
        }
        yield map;
      }
      case UNION -> datum(schema.getTypes().get(random.nextInt(schema.getTypes().size())));
      case RECORD -> {
        GenericRecord record = new GenericData.Record(schema);
        for (Schema.Field field : schema.getFields()) {
          record.put(field.pos(), datum(field.schema()));
        }
        yield record;
      }
    };
  }

  private String string() {
    int n = random.nextInt(12);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      text.appendCodePoint(random.nextInt(10) == 0 ? 0x4e00 + random.nextInt(500) : 'a' + random.nextInt(26));
    }
    return text.toString();
  }

  byte[] bytes(int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  Random random() {
    return random;
  }
}
