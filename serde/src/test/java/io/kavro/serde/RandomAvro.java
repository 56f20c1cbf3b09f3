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

  /** Whether text may hold unpaired surrogates, which do not round-trip (UTF-8 writes them as '?'). */
  private boolean unpairedSurrogates;

  RandomAvro(long seed) {
    this.random = new Random(seed);
  }

  /** This generator, with unpaired surrogates in text now and then: for tests against Avro, not round trips. */
  RandomAvro withUnpairedSurrogates() {
    this.unpairedSurrogates = true;
    return this;
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

  /**
   * The top-level schema of a record's value: a record mostly, else any other type (an array, a map, a union,
   * an enum, a fixed, a primitive, a logical type).
   */
  Schema topLevel(int depth) {
    return random.nextInt(10) < 7 ? record(depth) : any(depth);
  }

  private Schema any(int depth) {
    int choice = random.nextInt(depth > 0 ? 30 : 23);
    return switch (choice) {
      case 0 -> Schema.create(Schema.Type.BOOLEAN);
      case 1 -> Schema.create(Schema.Type.INT);
      case 2 -> Schema.create(Schema.Type.LONG);
      case 3 -> Schema.create(Schema.Type.FLOAT);
      case 4 -> Schema.create(Schema.Type.DOUBLE);
      case 5 -> javaString(Schema.create(Schema.Type.STRING));
      case 6 -> Schema.create(Schema.Type.BYTES);
      case 7 -> enumSchema();
      case 8 -> Schema.createFixed("F" + (names++), null, "io.kavro.random", 1 + random.nextInt(8));
      case 9 -> LogicalTypes.decimal(9, random.nextInt(5)).addToSchema(Schema.create(Schema.Type.BYTES));
      case 10 -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
      case 11 -> LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
      // A uuid on a string, or on a fixed(16) (Avro 1.12).
      case 12 -> AvroFeatures.AVRO_1_12 && random.nextInt(3) == 0
          ? LogicalTypes.uuid().addToSchema(Schema.createFixed("U" + (names++), null, "io.kavro.random", 16))
          : LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING));
      case 13 -> LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
      case 14 -> LogicalTypes.timeMicros().addToSchema(Schema.create(Schema.Type.LONG));
      case 15 -> LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
      case 16 -> LogicalTypes.timestampNanos().addToSchema(Schema.create(Schema.Type.LONG));
      case 17 -> LogicalTypes.localTimestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
      case 18 -> LogicalTypes.localTimestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
      case 19 -> {
        int size = 1 + random.nextInt(16);
        int precision = 1 + random.nextInt(maxPrecision(size));
        yield LogicalTypes.decimal(precision, random.nextInt(precision + 1))
            .addToSchema(Schema.createFixed("D" + (names++), null, "io.kavro.random", size));
      }
      // Avro's duration: a fixed of 12 bytes, no conversion.
      case 20 -> new org.apache.avro.LogicalType("duration")
          .addToSchema(Schema.createFixed("Dur" + (names++), null, "io.kavro.random", 12));
      case 21, 22 -> Schema.create(random.nextBoolean() ? Schema.Type.STRING : Schema.Type.LONG);
      case 23 -> Schema.createArray(any(depth - 1));
      case 24 -> Schema.createMap(any(depth - 1));
      // ["null", T] mostly, [T, "null"] now and then
      case 25 -> random.nextInt(4) == 0
          ? Schema.createUnion(nonUnion(depth - 1), Schema.create(Schema.Type.NULL))
          : Schema.createUnion(Schema.create(Schema.Type.NULL), nonUnion(depth - 1));
      case 26 -> wideUnion(depth - 1);
      // Items of no width: an array of nulls or of empty records.
      case 27 -> Schema.createArray(random.nextBoolean() ? Schema.create(Schema.Type.NULL) : record(0, 0));
      default -> record(depth - 1);
    };
  }

  /** {@code string}, held as {@code java.lang.String} ({@code avro.java.string}) one time in four. */
  private Schema javaString(Schema string) {
    if (random.nextInt(4) == 0) {
      string.addProp(GenericData.STRING_PROP, "String");
    }
    return string;
  }

  /** An enum of 1 to 70 symbols: the index is one byte up to 63 symbols, two from 64. */
  private Schema enumSchema() {
    int n = random.nextInt(4) == 0 ? 1 + random.nextInt(70) : 4;
    List<String> symbols = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      symbols.add(i < 4 ? String.valueOf((char) ('A' + i)) : "S" + i);
    }
    return Schema.createEnum("E" + (names++), null, "io.kavro.random", symbols);
  }

  /** The largest decimal precision a fixed of {@code size} bytes holds. */
  private static int maxPrecision(int size) {
    return (int) Math.floor(Math.log10(2) * (8 * size - 1));
  }

  /**
   * A union of two to five branches of distinct types, null among them or not: primitives, and a record, an
   * enum, a fixed, an array or a map perhaps.
   */
  private Schema wideUnion(int depth) {
    List<String> kinds = new ArrayList<>(List.of("null", "int", "long", "string", "double", "boolean", "bytes",
        "record", "enum", "fixed", "array", "map", "float"));
    java.util.Collections.shuffle(kinds, random);
    List<Schema> branches = new ArrayList<>();
    for (String kind : kinds.subList(0, 2 + random.nextInt(4))) {
      branches.add(switch (kind) {
        case "record" -> record(Math.max(depth, 0));
        case "enum" -> enumSchema();
        case "fixed" -> Schema.createFixed("UF" + (names++), null, "io.kavro.random", 1 + random.nextInt(6));
        case "array" -> Schema.createArray(depth > 0 ? nonUnion(depth - 1) : Schema.create(Schema.Type.INT));
        case "map" -> Schema.createMap(depth > 0 ? nonUnion(depth - 1) : Schema.create(Schema.Type.STRING));
        default -> Schema.create(Schema.Type.valueOf(kind.toUpperCase(java.util.Locale.ROOT)));
      });
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
    org.apache.avro.LogicalType logical = schema.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal decimal) {
      int digits = schema.getType() == Schema.Type.FIXED ? decimal.getPrecision() : 9;
      BigInteger bound = BigInteger.TEN.pow(digits);
      BigInteger unscaled = new BigInteger(bound.bitLength() + 8, random).mod(bound);
      return new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), decimal.getScale());
    }
    if (logical instanceof LogicalTypes.Date) {
      return LocalDate.ofEpochDay(random.nextInt(40_000) - 20_000);
    }
    if (logical instanceof LogicalTypes.TimeMillis) {
      return java.time.LocalTime.ofNanoOfDay(random.nextInt(86_400_000) * 1_000_000L);
    }
    if (logical instanceof LogicalTypes.TimeMicros) {
      return java.time.LocalTime.ofNanoOfDay((random.nextLong() & Long.MAX_VALUE) % 86_400_000_000L * 1_000L);
    }
    if (logical instanceof LogicalTypes.TimestampMillis) {
      return Instant.ofEpochMilli(random.nextLong() % 10_000_000_000_000L);
    }
    if (logical instanceof LogicalTypes.TimestampMicros) {
      return Instant.EPOCH.plus(random.nextLong() % 10_000_000_000_000_000L, java.time.temporal.ChronoUnit.MICROS);
    }
    if (logical instanceof LogicalTypes.TimestampNanos) {
      return Instant.EPOCH.plusNanos(random.nextLong());
    }
    if (logical instanceof LogicalTypes.LocalTimestampMillis) {
      return java.time.LocalDateTime.ofEpochSecond(random.nextLong() % 10_000_000_000L,
          random.nextInt(1000) * 1_000_000, java.time.ZoneOffset.UTC);
    }
    if (logical instanceof LogicalTypes.LocalTimestampMicros) {
      return java.time.LocalDateTime.ofEpochSecond(random.nextLong() % 10_000_000_000L,
          random.nextInt(1_000_000) * 1_000, java.time.ZoneOffset.UTC);
    }
    if (logical instanceof LogicalTypes.Uuid) {
      return new UUID(random.nextLong(), random.nextLong());
    }
    return switch (schema.getType()) {
      case NULL -> null;
      case BOOLEAN -> random.nextBoolean();
      case INT -> random.nextInt(8) == 0 ? pick(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 63, 64, -64, -65)
          : random.nextInt();
      case LONG -> random.nextInt(8) == 0 ? pick(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L << 35) : random.nextLong();
      case FLOAT -> random.nextInt(6) == 0 ? pick(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f,
          Float.MIN_VALUE, Float.MAX_VALUE) : random.nextFloat() * 1000 - 500;
      case DOUBLE -> random.nextInt(6) == 0 ? pick(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
          -0.0d, Double.MIN_VALUE, Double.MAX_VALUE) : random.nextDouble() * 1e6 - 5e5;
      case STRING -> string();
      case BYTES -> ByteBuffer.wrap(bytes(size()));
      case ENUM -> new GenericData.EnumSymbol(schema,
          schema.getEnumSymbols().get(random.nextInt(schema.getEnumSymbols().size())));
      case FIXED -> new GenericData.Fixed(schema, bytes(schema.getFixedSize()));
      case ARRAY -> {
        int n = size();
        GenericData.Array<Object> array = new GenericData.Array<>(n, schema);
        for (int i = 0; i < n; i++) {
          array.add(datum(schema.getElementType()));
        }
        yield array;
      }
      case MAP -> {
        int n = size();
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < n; i++) {
          map.put(string() + i, datum(schema.getValueType()));
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

  @SafeVarargs
  private <T> T pick(T... values) {
    return values[random.nextInt(values.length)];
  }

  /** A collection's size: mostly 0 to 3, sometimes up to 20, now and then up to 150 (several blocks). */
  private int size() {
    int roll = random.nextInt(20);
    return roll < 16 ? random.nextInt(4) : roll < 19 ? 4 + random.nextInt(17) : 21 + random.nextInt(130);
  }

  /**
   * Text of every UTF-8 width: ASCII, 2-byte (Latin, Greek), 3-byte (CJK), 4-byte (emoji, as surrogate pairs),
   * and now and then an unpaired surrogate, which Java's UTF-8 encoder writes as '?'.
   */
  private String string() {
    int n = size() * 3 / 2;
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int roll = random.nextInt(40);
      if (roll < 24) {
        text.append((char) ('a' + random.nextInt(26)));
      } else if (roll < 30) {
        text.appendCodePoint(0xa0 + random.nextInt(0x370));
      } else if (roll < 35) {
        text.appendCodePoint(0x4e00 + random.nextInt(500));
      } else if (roll < 39) {
        text.appendCodePoint(0x1f600 + random.nextInt(80));
      } else if (unpairedSurrogates) {
        text.append((char) (0xd800 + random.nextInt(0x800)));
      } else {
        text.append('z');
      }
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
