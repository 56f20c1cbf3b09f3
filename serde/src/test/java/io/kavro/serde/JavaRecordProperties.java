package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.reflect.AvroSchema;
import org.apache.avro.reflect.Nullable;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.ReflectDatumWriter;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Java records through the compiled codecs (issue 26) against Avro: random records of types that cover every kind
 * of component (primitives, boxes, strings, bytes, enums, nullable fields, lists, sets, nested lists, maps, records
 * in lists and maps and unions, stringables, timestamps), invalid ones included (nulls where Avro allows none).
 * Kavro's serializer writes exactly the bytes of Avro's {@code ReflectDatumWriter}, or both refuse; and what it
 * wrote reads back, on the compiled decoder and on Avro's reader alike, as the record it was.
 */
class JavaRecordProperties {
  private static final int TRIES = Property.tries(500);
  private static final String LOGICAL = "avro.use.logical.type.converters";
  private static final ReflectData MODEL = new AvroDataModels(true, false).reflect();
  private final Serdes serdes = new Serdes();

  /** A colour. */
  public enum Color { RED, GREEN, BLUE }

  /** Every scalar a component can be. */
  public record Leaf(String text, int i, long l, float f, double d, boolean b, byte[] bytes, Color color,
      @Nullable String maybe, short small, Integer boxed, @Nullable Long maybeLong) {}

  /** Containers and nesting. */
  public record Tree(Leaf leaf, @Nullable Leaf maybeLeaf, List<Leaf> leaves, Map<String, Long> counts,
      Set<String> tags, List<List<Integer>> nested, Map<String, Leaf> byName, BigDecimal amount, URI uri,
      @Nullable List<String> maybeList, Instant at, List<Color> colors) {}

  /** The narrow primitives and the Java types that mean logical types (issue 33). */
  public record Scalars(char letter, byte small, Character boxedLetter, Byte boxedSmall, java.time.LocalDate date,
      java.time.LocalTime time, java.time.LocalDateTime local, java.util.UUID id, Instant at, BigDecimal amount) {}

  private static final String DATE = "{\"type\":\"int\",\"logicalType\":\"date\"}";
  private static final String TIME_MILLIS = "{\"type\":\"int\",\"logicalType\":\"time-millis\"}";
  private static final String TIME_MICROS = "{\"type\":\"long\",\"logicalType\":\"time-micros\"}";
  private static final String TS_MILLIS = "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}";
  private static final String TS_MICROS = "{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}";
  private static final String TS_NANOS = "{\"type\":\"long\",\"logicalType\":\"timestamp-nanos\"}";
  private static final String LOCAL_MILLIS = "{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}";
  private static final String LOCAL_MICROS = "{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}";
  private static final String LOCAL_NANOS = "{\"type\":\"long\",\"logicalType\":\"local-timestamp-nanos\"}";
  private static final String UUID_TEXT = "{\"type\":\"string\",\"logicalType\":\"uuid\"}";
  private static final String UUID_FIXED =
      "{\"type\":\"fixed\",\"name\":\"Uuid16\",\"size\":16,\"logicalType\":\"uuid\"}";
  private static final String DECIMAL_BYTES =
      "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}";
  private static final String DECIMAL_FIXED =
      "{\"type\":\"fixed\",\"name\":\"Dec8\",\"size\":8,\"logicalType\":\"decimal\",\"precision\":15,"
          + "\"scale\":4}";
  private static final String DURATION =
      "{\"type\":\"fixed\",\"name\":\"Twelve\",\"size\":12,\"logicalType\":\"duration\"}";
  private static final String MAYBE_DATE = "[\"null\"," + DATE + "]";
  private static final String TS_MILLIS_LIST = "{\"type\":\"array\",\"items\":" + TS_MILLIS + "}";
  private static final String UUID_MAP = "{\"type\":\"map\",\"values\":" + UUID_TEXT + "}";

  /**
   * Every logical type as the Java type it converts to (issue 49 item 14), its schema given by {@code @AvroSchema}
   * where reflection derives another; a duration, which has no conversion, as its fixed.
   */
  public record Logical(@AvroSchema(DATE) java.time.LocalDate date,
      @AvroSchema(TIME_MILLIS) java.time.LocalTime timeMillis, @AvroSchema(TIME_MICROS) java.time.LocalTime timeMicros,
      @AvroSchema(TS_MILLIS) Instant tsMillis, @AvroSchema(TS_MICROS) Instant tsMicros,
      @AvroSchema(TS_NANOS) Instant tsNanos, @AvroSchema(LOCAL_MILLIS) java.time.LocalDateTime localMillis,
      @AvroSchema(LOCAL_MICROS) java.time.LocalDateTime localMicros,
      @AvroSchema(LOCAL_NANOS) java.time.LocalDateTime localNanos, @AvroSchema(UUID_TEXT) java.util.UUID uuid,
      @AvroSchema(UUID_FIXED) java.util.UUID uuidFixed, @AvroSchema(DECIMAL_BYTES) BigDecimal decimal,
      @AvroSchema(DECIMAL_FIXED) BigDecimal decimalFixed, @AvroSchema(DURATION) Twelve duration,
      @AvroSchema(MAYBE_DATE) java.time.LocalDate maybeDate, @AvroSchema(TS_MILLIS_LIST) List<Instant> times,
      @AvroSchema(UUID_MAP) Map<String, java.util.UUID> ids) {}

  /**
   * The same schemas, each component holding the underlying value (issue 49 item 14): an {@code int} date, a
   * {@code long} or {@code Long} timestamp, a {@code String} uuid, a decimal's {@code ByteBuffer} or {@code byte[]},
   * the application's fixed classes.
   */
  public record Underlying(@AvroSchema(DATE) int date, @AvroSchema(TIME_MILLIS) int timeMillis,
      @AvroSchema(TIME_MICROS) long timeMicros, @AvroSchema(TS_MILLIS) long tsMillis,
      @AvroSchema(TS_MICROS) Long tsMicros, @AvroSchema(TS_NANOS) long tsNanos,
      @AvroSchema(LOCAL_MILLIS) long localMillis, @AvroSchema(LOCAL_MICROS) long localMicros,
      @AvroSchema(LOCAL_NANOS) long localNanos, @AvroSchema(UUID_TEXT) String uuid,
      @AvroSchema(UUID_FIXED) Uuid16 uuidFixed, @AvroSchema(DECIMAL_BYTES) ByteBuffer decimal,
      @AvroSchema(DECIMAL_BYTES) byte[] decimalArray, @AvroSchema(DECIMAL_FIXED) Dec8 decimalFixed,
      @AvroSchema(DURATION) Twelve duration, @AvroSchema(MAYBE_DATE) Integer maybeDate,
      @AvroSchema(TS_MILLIS_LIST) List<Long> times, @AvroSchema(UUID_MAP) Map<String, String> ids) {}

  /** A uuid's 16 bytes, as the application's fixed class. */
  public static final class Uuid16 extends Bytes {
    private static final long serialVersionUID = 1L;

    /** These bytes. */
    public Uuid16(byte[] bytes) {
      super(bytes);
    }
  }

  /** A decimal's 8 bytes, as the application's fixed class. */
  public static final class Dec8 extends Bytes {
    private static final long serialVersionUID = 1L;

    /** These bytes. */
    public Dec8(byte[] bytes) {
      super(bytes);
    }
  }

  /** A duration's 12 bytes (months, days, milliseconds), as the application's fixed class. */
  public static final class Twelve extends Bytes {
    private static final long serialVersionUID = 1L;

    /** These bytes. */
    public Twelve(byte[] bytes) {
      super(bytes);
    }
  }

  /** A fixed class of the application's: its bytes, shown by {@link #show} as the class and the bytes. */
  public abstract static class Bytes extends org.apache.avro.specific.SpecificFixed {
    private static final long serialVersionUID = 1L;

    Bytes(byte[] bytes) {
      super(bytes);
    }

    @Override
    public Schema getSchema() {
      return Schema.createFixed(getClass().getSimpleName(), null, null, bytes().length);
    }

    @Override
    public void writeExternal(java.io.ObjectOutput out) throws java.io.IOException {
      out.write(bytes());
    }

    @Override
    public void readExternal(java.io.ObjectInput in) throws java.io.IOException {
      in.readFully(bytes());
    }
  }

  @AfterEach
  void close() {
    serdes.close();
  }

  @Test
  void theCompiledEncoderCoversTheseTypes() {
    // Otherwise the property below would compare Avro's writer with itself.
    assertThat(EncoderCompiler.compile(MODEL.getSchema(Tree.class), MODEL, Tree.class)).isNotNull();
    assertThat(EncoderCompiler.compile(MODEL.getSchema(Leaf.class), MODEL, Leaf.class)).isNotNull();
    assertThat(EncoderCompiler.compile(MODEL.getSchema(Logical.class), MODEL, Logical.class)).isNotNull();
    assertThat(EncoderCompiler.compile(MODEL.getSchema(Underlying.class), MODEL, Underlying.class)).isNotNull();
  }

  @Test
  void write_sameBytesAsAvrosReflectWriter_readBackAsItWas() {
    check(new KafkaAvroSerializerFixture(true));
  }

  /** The Java types of logical types mean them in either setting of the converters (issue 33). */
  @Test
  void withoutLogicalTypeConverters_sameBytesAsAvrosReflectWriter_readBackAsItWas() {
    check(new KafkaAvroSerializerFixture(false));
  }

  private void check(KafkaAvroSerializerFixture fixture) {
    Random random = new Random(26);
    int written = 0;
    Class<?>[] types = {Tree.class, Leaf.class, Scalars.class, Logical.class, Underlying.class};
    Map<Class<?>, Integer> writtenByType = new HashMap<>();
    for (int t = 0; t < TRIES; t++) {
      boolean invalid = t % 5 == 4;
      Object record;
      do { // a null record is not a case: Kafka's serializer gets none
        record = value(types[random.nextInt(types.length)], random, invalid);
      } while (record == null);
      if (check(fixture, record, t)) {
        written++;
        writtenByType.merge(record.getClass(), 1, Integer::sum);
      }
    }
    assertThat(written).as("records written; the rest refused by both").isBetween(TRIES / 2, TRIES - 1);
    for (Class<?> type : types) {
      assertThat(writtenByType.getOrDefault(type, 0)).as("%s records written", type.getSimpleName())
          .isGreaterThanOrEqualTo(TRIES / types.length / 4);
    }
  }

  private final class KafkaAvroSerializerFixture {
    final KafkaAvroSerializer serializer;
    final KafkaAvroSerializer avrosSerializer;
    final KafkaAvroDeserializer compiled;
    final KafkaAvroDeserializer avros;

    KafkaAvroSerializerFixture(boolean logical) {
      serializer = serdes.serializer("schema.reflection", true, LOGICAL, logical);
      avrosSerializer = serdes.serializer("schema.reflection", true, LOGICAL, logical, "avro.fast.codec", false);
      compiled = serdes.deserializer("schema.reflection", true, LOGICAL, logical);
      avros = serdes.deserializer("schema.reflection", true, LOGICAL, logical, "avro.fast.codec", false);
    }
  }

  /** @return whether the record was written (else both refused it) */
  private static boolean check(KafkaAvroSerializerFixture fixture, Object record, int t) {
    // Kavro first: planning the class trusts it, as Avro's reader needs (SERIALIZABLE_PACKAGES otherwise).
    byte[] written;
    SerializationException kavrosRefusal = null;
    try {
      written = fixture.serializer.serialize(topic(record), record);
    } catch (SerializationException e) {
      written = null;
      kavrosRefusal = e;
    }
    byte[] expected;
    try {
      expected = avro(record);
    } catch (RuntimeException e) {
      if (written != null) {
        fail("try " + t + ": Kavro wrote what Avro refuses: " + show(record), e);
      }
      return false;
    }
    if (written == null) {
      fail("try " + t + ": Kavro refused what Avro writes: " + show(record), kavrosRefusal);
    }
    assertThat(Arrays.copyOfRange(written, 5, written.length)).as("try %d: %s", t, show(record))
        .isEqualTo(expected);
    byte[] avros = fixture.avrosSerializer.serialize(topic(record), record);
    assertThat(Arrays.copyOfRange(avros, 5, avros.length)).as("try %d, Avro's writer: %s", t, show(record))
        .isEqualTo(expected);
    assertThat(show(fixture.compiled.deserialize(topic(record), written))).as("try %d", t).isEqualTo(show(record));
    assertThat(show(fixture.avros.deserialize(topic(record), written))).as("try %d", t).isEqualTo(show(record));
    return true;
  }

  private static String topic(Object record) {
    return record.getClass().getSimpleName();
  }

  private static byte[] avro(Object record) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      new ReflectDatumWriter<>(MODEL.getSchema(record.getClass()), MODEL).write(record, encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A deep, order-aware text of a value: records by component, arrays by content, sets and maps sorted. */
  static String show(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof byte[] bytes) {
      return Arrays.toString(bytes);
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return Arrays.toString(bytes) + ":ByteBuffer";
    }
    if (value instanceof Record) {
      StringBuilder text = new StringBuilder(value.getClass().getSimpleName()).append('(');
      for (RecordComponent component : value.getClass().getRecordComponents()) {
        try {
          text.append(component.getName()).append('=').append(show(component.getAccessor().invoke(value)))
              .append(' ');
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      return text.append(')').toString();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(JavaRecordProperties::show).toList().toString();
    }
    if (value instanceof Set<?> set) {
      return set.stream().map(JavaRecordProperties::show).sorted().toList().toString();
    }
    if (value instanceof Map<?, ?> map) {
      return map.entrySet().stream().map(e -> show(e.getKey()) + "=" + show(e.getValue())).sorted().toList()
          .toString();
    }
    return value + ":" + value.getClass().getSimpleName();
  }

  static Object value(Type type, Random random, boolean invalid) {
    Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    if (invalid && !raw.isPrimitive() && random.nextInt(12) == 0) {
      return null; // nulls anywhere: Avro refuses some, takes others
    }
    if (raw.isRecord()) {
      RecordComponent[] components = raw.getRecordComponents();
      Object[] args = new Object[components.length];
      Class<?>[] types = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        boolean nullable = components[i].isAnnotationPresent(Nullable.class)
            || components[i].getAccessor().isAnnotationPresent(Nullable.class);
        Schema given = givenSchema(raw, components[i]);
        args[i] = nullable && random.nextInt(3) == 0 ? null
            : given != null ? logicalValue(given, components[i].getGenericType(), random, invalid)
            : value(components[i].getGenericType(), random, invalid);
      }
      try {
        Constructor<?> constructor = raw.getDeclaredConstructor(types);
        return constructor.newInstance(args);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    Type[] arguments = type instanceof ParameterizedType p ? p.getActualTypeArguments() : new Type[0];
    if (raw == List.class || raw == Set.class) {
      int size = random.nextInt(4);
      java.util.Collection<Object> items = raw == Set.class ? new LinkedHashSet<>() : new ArrayList<>();
      for (int i = 0; i < size; i++) {
        items.add(value(arguments[0], random, invalid));
      }
      return items;
    }
    if (raw == Map.class) {
      Map<Object, Object> map = new HashMap<>();
      for (int i = 0, n = random.nextInt(4); i < n; i++) {
        map.put("k" + random.nextInt(10), value(arguments[1], random, invalid));
      }
      return map;
    }
    if (raw == String.class) {
      return random.nextInt(10) == 0 ? "é\u20ac\uD83D\uDE00" : "s" + random.nextInt(1000);
    }
    if (raw == int.class || raw == Integer.class) {
      return random.nextInt();
    }
    if (raw == long.class || raw == Long.class) {
      return random.nextLong();
    }
    if (raw == short.class) {
      return (short) random.nextInt();
    }
    if (raw == float.class) {
      return random.nextInt(20) == 0 ? Float.NaN : random.nextFloat();
    }
    if (raw == double.class) {
      return random.nextInt(20) == 0 ? -0.0 : random.nextDouble();
    }
    if (raw == boolean.class) {
      return random.nextBoolean();
    }
    if (raw == byte[].class) {
      byte[] bytes = new byte[random.nextInt(5)];
      random.nextBytes(bytes);
      return bytes;
    }
    if (raw == Color.class) {
      return Color.values()[random.nextInt(3)];
    }
    if (raw == BigDecimal.class) {
      return BigDecimal.valueOf(random.nextLong(), random.nextInt(5));
    }
    if (raw == URI.class) {
      return URI.create("urn:k:" + random.nextInt(100));
    }
    if (raw == char.class || raw == Character.class) {
      return "é\uFFFF\u0000a\u20AC".charAt(random.nextInt(5));
    }
    if (raw == byte.class || raw == Byte.class) {
      return (byte) random.nextInt();
    }
    if (raw == java.time.LocalDate.class) {
      return java.time.LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
    }
    if (raw == java.time.LocalTime.class) {
      return java.time.LocalTime.ofNanoOfDay(random.nextInt(86_400_000) * 1_000_000L);
    }
    if (raw == java.time.LocalDateTime.class) {
      return java.time.LocalDateTime.ofEpochSecond(random.nextInt(), random.nextInt(1000) * 1_000_000,
          java.time.ZoneOffset.UTC);
    }
    if (raw == java.util.UUID.class) {
      return new java.util.UUID(random.nextLong(), random.nextLong());
    }
    if (raw == Instant.class) {
      return Instant.ofEpochMilli(random.nextLong() >> 20);
    }
    throw new IllegalArgumentException("no generator for " + type);
  }

  /** The schema a component's {@code @AvroSchema} gives, or {@code null}. */
  private static Schema givenSchema(Class<?> record, RecordComponent component) {
    try {
      AvroSchema given = record.getDeclaredField(component.getName()).getAnnotation(AvroSchema.class);
      return given == null ? null : new Schema.Parser().parse(given.value());
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A value of a logical type's schema in the Java type {@code type}: its Java type (a {@code LocalDate}) or its
   * underlying value (an epoch day); valid for the schema, or now and then not ({@code invalid}: a null, a decimal
   * of another scale), which Avro's writer refuses.
   */
  private static Object logicalValue(Schema schema, Type type, Random random, boolean invalid) {
    Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    if (invalid && !raw.isPrimitive() && random.nextInt(12) == 0) {
      return null;
    }
    Type[] arguments = type instanceof ParameterizedType p ? p.getActualTypeArguments() : new Type[0];
    switch (schema.getType()) {
      case UNION -> {
        Schema branch = schema.getTypes().get(1);
        return random.nextInt(3) == 0 ? null : logicalValue(branch, type, random, invalid);
      }
      case ARRAY -> {
        List<Object> items = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          items.add(logicalValue(schema.getElementType(), arguments[0], random, invalid));
        }
        return items;
      }
      case MAP -> {
        Map<Object, Object> map = new HashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          map.put("k" + random.nextInt(10), logicalValue(schema.getValueType(), arguments[1], random, invalid));
        }
        return map;
      }
      default -> { }
    }
    boolean typed = !(raw.isPrimitive() || Number.class.isAssignableFrom(raw) || raw == String.class
        || raw == ByteBuffer.class || raw == byte[].class || Bytes.class.isAssignableFrom(raw));
    java.time.ZoneOffset utc = java.time.ZoneOffset.UTC;
    switch (schema.getLogicalType().getName()) {
      case "date" -> {
        int day = random.nextInt(200_000) - 100_000;
        return typed ? java.time.LocalDate.ofEpochDay(day) : day;
      }
      case "time-millis" -> {
        int millis = random.nextInt(86_400_000);
        return typed ? java.time.LocalTime.ofNanoOfDay(millis * 1_000_000L) : millis;
      }
      case "time-micros" -> {
        long micros = random.nextLong(86_400_000_000L);
        return typed ? java.time.LocalTime.ofNanoOfDay(micros * 1_000L) : micros;
      }
      case "timestamp-millis", "local-timestamp-millis" -> {
        long millis = random.nextLong() >> 20;
        Instant at = Instant.ofEpochMilli(millis);
        return !typed ? millis : raw == Instant.class ? at : java.time.LocalDateTime.ofInstant(at, utc);
      }
      case "timestamp-micros", "local-timestamp-micros" -> {
        long micros = random.nextLong() >> 10;
        Instant at = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
            Math.floorMod(micros, 1_000_000L) * 1_000L);
        return !typed ? micros : raw == Instant.class ? at : java.time.LocalDateTime.ofInstant(at, utc);
      }
      case "timestamp-nanos", "local-timestamp-nanos" -> {
        long nanos = random.nextLong() >> 1;
        Instant at = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
        return !typed ? nanos : raw == Instant.class ? at : java.time.LocalDateTime.ofInstant(at, utc);
      }
      case "uuid" -> {
        java.util.UUID id = new java.util.UUID(random.nextLong(), random.nextLong());
        if (raw == java.util.UUID.class) {
          return id;
        }
        return raw == String.class ? id.toString() : fixed(raw, schema.getFixedSize(), random);
      }
      case "decimal" -> {
        org.apache.avro.LogicalTypes.Decimal decimal = (org.apache.avro.LogicalTypes.Decimal) schema.getLogicalType();
        long bound = (long) Math.pow(10, decimal.getPrecision());
        int scale = decimal.getScale() + (invalid && random.nextInt(6) == 0 ? 1 : 0); // a scale Avro refuses
        BigDecimal number = BigDecimal.valueOf(random.nextLong(bound) - bound / 2, scale);
        if (raw == BigDecimal.class) {
          return number;
        }
        // The fewest two's-complement bytes, or one sign byte more (the same number): they read back as written.
        byte[] fewest = number.unscaledValue().toByteArray();
        byte[] bytes = fewest;
        if (random.nextBoolean()) {
          bytes = new byte[fewest.length + 1];
          bytes[0] = (byte) (number.signum() < 0 ? -1 : 0);
          System.arraycopy(fewest, 0, bytes, 1, fewest.length);
        }
        if (raw == ByteBuffer.class) {
          return ByteBuffer.wrap(bytes);
        }
        return raw == byte[].class ? bytes : fixed(raw, schema.getFixedSize(), random);
      }
      case "duration" -> {
        return fixed(raw, 12, random);
      }
      default -> throw new IllegalArgumentException("no generator for " + schema);
    }
  }

  /** One of the application's fixed classes, with random bytes. */
  private static Object fixed(Class<?> type, int size, Random random) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    try {
      return type.getDeclaredConstructor(byte[].class).newInstance((Object) bytes);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
