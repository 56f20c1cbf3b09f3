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

  @AfterEach
  void close() {
    serdes.close();
  }

  @Test
  void theCompiledEncoderCoversTheseTypes() {
    // Otherwise the property below would compare Avro's writer with itself.
    assertThat(EncoderCompiler.compile(MODEL.getSchema(Tree.class), MODEL, Tree.class)).isNotNull();
    assertThat(EncoderCompiler.compile(MODEL.getSchema(Leaf.class), MODEL, Leaf.class)).isNotNull();
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
    Class<?>[] types = {Tree.class, Leaf.class, Scalars.class};
    for (int t = 0; t < TRIES; t++) {
      boolean invalid = t % 5 == 4;
      Object record;
      do { // a null record is not a case: Kafka's serializer gets none
        record = value(types[random.nextInt(types.length)], random, invalid);
      } while (record == null);
      written += check(fixture, record, t) ? 1 : 0;
    }
    assertThat(written).as("records written; the rest refused by both").isBetween(TRIES / 2, TRIES - 1);
  }

  private final class KafkaAvroSerializerFixture {
    final KafkaAvroSerializer serializer;
    final KafkaAvroDeserializer compiled;
    final KafkaAvroDeserializer avros;

    KafkaAvroSerializerFixture(boolean logical) {
      serializer = serdes.serializer("schema.reflection", true, LOGICAL, logical);
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
        args[i] = nullable && random.nextInt(3) == 0 ? null : value(components[i].getGenericType(), random, invalid);
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
}
