package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Kavro against Apache Avro itself, the oracle, on random schemas with random datums and payloads, invalid
 * ones included (issues 13 and 22). Plain JUnit: {@link Property} runs the cases from seeds and shrinks a
 * failing one by structure.
 *
 * <p><b>Write:</b> for each datum, valid or not (wrong Java types in every position, unions included, nulls in
 * non-null fields, numbers out of range, Java enums, strings and unknown symbols for enums, wrong fixed sizes,
 * records of other schemas), Kavro's serializer on each codec and with reflection on, and Avro's
 * {@code GenericDatumWriter}, either both accept with identical bytes, which Avro's reader reads back to the
 * same datum, or both refuse, Kavro with a {@link SerializationException}. After every refusal the next record
 * on the same serializer and thread is byte-identical to a fresh serializer's.
 *
 * <p><b>Read:</b> for each payload, valid or mutated (bit flips, cuts, inserted and appended bytes, huge
 * varints), written in one block or in many (Avro's blocking encoder), read as the writer schema or as a reader
 * schema that {@link Evolution} derives from it: Kavro returns the value Avro's reader returns, and refuses,
 * with a {@link SerializationException}, exactly what Avro refuses, apart from {@link #DELIBERATE_REFUSALS}.
 * An {@code Error} is never acceptable.
 *
 * <p>The generators ({@link RandomAvro}) cover every type, logical types included (decimals on bytes and on
 * fixed, dates, times and timestamps of every precision, local timestamps, uuids, durations), records nested
 * three deep, top-level non-records, unions of up to five branches with records, enums, fixed, arrays and
 * maps among them, enums of 1 to 70 symbols, collections of up to 150 items, text of every UTF-8 width with
 * unpaired surrogates, NaN, infinities and -0.0, extreme integers, a recursive schema, and fixed types larger
 * than the 64 KiB that Avro's reader may allocate. Tries: 1,000 per property; {@code -Dkavro.property.tries}
 * and {@code -Dkavro.property.seed} (see {@link Property}).
 */
class DifferentialProperties {
  private static final GenericData MODEL = new AvroDataModels(true, false).generic();
  private static final String SCOPE = "differential-" + UUID.randomUUID();
  private static final Map<String, Object> BASE = Map.of("schema.registry.url", "mock://" + SCOPE,
      "avro.use.logical.type.converters", true);
  private static final List<Map<String, Object>> WRITERS = List.of(
      Map.of("avro.fast.codec", true), Map.of("avro.fast.codec", false), Map.of("schema.reflection", true));
  private static final List<Map<String, Object>> READERS = List.of(
      Map.of("avro.fast.codec", true), Map.of("avro.fast.codec", false));
  /** Every so many tries the registry scope starts anew, so that a million-case run keeps its memory flat. */
  private static final int TRIES_PER_SCOPE = 5_000;
  private static final int TRIES = 1_000;

  /**
   * Where Kavro refuses a payload that Avro reads, on purpose: a part of Kavro's message, and why. Nothing
   * else may differ.
   */
  static final Map<String, String> DELIBERATE_REFUSALS = Map.of(
      "item(s) at offset", "a block claims more items than the payload can hold (its length, plus 1,048,576 "
          + "items of no width): Avro allocates room for them first; Kavro refuses before allocating",
      "fixed type of more than 65536 bytes", "Avro's reader allocates a fixed before it reads it: Kavro gives it "
          + "no writer schema with a fixed over 64 KiB, and reads those with its compiled decoder only");

  /**
   * Where Avro 1.12.2 refuses a valid payload that Kavro reads: a part of Avro's message, and why. Such a case
   * counts only when Avro reads the same bytes as the writer schema.
   */
  static final Map<String, String> AVRO_QUIRKS = Map.of(
      "Collection claims", "Avro 1.12.2 checks an array's or map's bytes against the reader schema's smallest item, "
          + "counting reader fields that are not in the payload (added with defaults): it refuses valid data");

  private static List<KafkaAvroSerializer> serializers;
  private static List<KafkaAvroDeserializer> deserializers;
  private static SchemaRegistryClient registry;
  private static int tries;
  private static final AtomicInteger CASES = new AtomicInteger();

  /** A Java enum with the random schemas' first symbols (A, B, C, D) in another order. */
  enum Letter { D, C, B, A }

  @AfterAll
  static void dropScope() {
    MockRegistries.drop(SCOPE);
  }

  /** The shared serializers, deserializers and registry client, anew every {@link #TRIES_PER_SCOPE} tries. */
  private static void nextTry() {
    if (tries++ % TRIES_PER_SCOPE == 0) {
      MockRegistries.drop(SCOPE);
      serializers = WRITERS.stream().map(DifferentialProperties::serializer).toList();
      deserializers = READERS.stream().map(DifferentialProperties::deserializer).toList();
      registry = SchemaRegistryClients.create(BASE);
    }
  }

  /**
   * A datum to write, of a schema Kavro can tell from the datum (a record mostly); {@code valid} when no
   * mutation put a wrong value in it.
   */
  record WriteCase(Schema schema, Object datum, boolean valid) {
    @Override
    public String toString() {
      return "schema " + schema + "\ndatum " + datum + (valid ? " (valid)" : " (mutated)");
    }
  }

  /** A payload: the datum written with {@code writer} (in blocks or not), mutated, read as {@code reader}. */
  record ReadCase(Schema writer, Schema reader, Object datum, long mutation, boolean blocks) {
    @Override
    public String toString() {
      return "writer " + writer + "\nreader " + (reader == writer ? "(the writer)" : reader.toString())
          + "\ndatum " + datum + "\nmutation " + mutation + ", blocks " + blocks;
    }
  }

  @Test
  void write_agreesWithAvro_readBackByAvro_andARefusalLeavesNoTrace() {
    Property.forAll("write", Property.tries(TRIES), DifferentialProperties::writeCase,
        c -> Shrink.smaller(c.schema(), c.datum()).stream()
            .map(p -> new WriteCase(p.schema(), p.datum(), c.valid())).toList(),
        DifferentialProperties::checkWrite);
  }

  @Test
  void read_sameValueAsAvro_sameRefusals() {
    Property.forAll("read", Property.tries(TRIES), DifferentialProperties::readCase,
        DifferentialProperties::smaller, DifferentialProperties::checkRead);
  }

  static WriteCase writeCase(long seed) {
    RandomAvro random = new RandomAvro(seed).withUnpairedSurrogates();
    Random rnd = random.random();
    Schema schema = rnd.nextInt(10) == 0 ? ReadTrustTest.NODE : random.topLevel(3);
    if (!writable(schema)) {
      schema = random.record(3);
    }
    Object original = datum(random, schema);
    Object datum = original;
    double chance = rnd.nextInt(5) == 0 ? 0 : 0.08 + rnd.nextDouble() * 0.2;
    if (schema.getType() == Schema.Type.RECORD) {
      datum = mutate(datum, schema, rnd, chance);
    } else if (schema.getType() == Schema.Type.ARRAY) {
      GenericData.Array<Object> array = new GenericData.Array<>(0, schema);
      for (Object item : (List<?>) original) {
        array.add(mutateValue(item, schema.getElementType(), rnd, chance));
      }
      datum = array;
    }
    return new WriteCase(schema, datum, comparable(datum).equals(comparable(original)));
  }

  /** Whether Kavro can tell the schema from a datum of it: not a map, a union or a logical type at the top. */
  private static boolean writable(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ARRAY, ENUM, FIXED -> schema.getLogicalType() == null;
      case STRING, INT, LONG, DOUBLE, BOOLEAN, BYTES -> schema.getLogicalType() == null;
      default -> false;
    };
  }

  static void checkWrite(WriteCase c) {
    Schema schema = c.schema();
    Object datum = c.datum();
    String topic = "w" + CASES.incrementAndGet();
    nextTry();

    Outcome oracle = avroWrite(schema, datum, false);
    for (int i = 0; i < serializers.size(); i++) {
      KafkaAvroSerializer serializer = serializers.get(i);
      Outcome kavro = kavroWrite(serializer, topic, datum);
      String where = WRITERS.get(i) + " datum " + datum + " schema " + schema;
      if (oracle.bytes() != null) {
        assertThat(kavro.failure()).as("Avro accepts, Kavro refuses: " + where).isNull();
        byte[] body = Arrays.copyOfRange(kavro.bytes(), 5, kavro.bytes().length);
        assertThat(body).as(where).isEqualTo(oracle.bytes());
        // A wrong value that Avro's writer takes (a Long in an int, a long fixed, a raw long out of a logical
        // type's range) is Avro's to coerce; a valid datum reads back as itself.
        if (c.valid()) {
          Outcome readBack = avroRead(schema, schema, body);
          assertThat(readBack.failure()).as("Avro cannot read what Kavro wrote: " + where).isNull();
          assertThat(comparable(readBack.value())).as("read back: " + where).isEqualTo(comparable(datum));
        }
      } else {
        assertThat(kavro.failure()).as("Avro refuses (" + oracle.failure() + "), Kavro accepts: " + where)
            .isInstanceOf(SerializationException.class);
        assertThat(kavro.failure().getMessage()).as("a refusal that names no value: " + where)
            .containsPattern("(does not match expected type .* at |null value (for field|at) )" + schema.getName());
        Object valid = datum(new RandomAvro(topic.hashCode()), schema);
        KafkaAvroSerializer fresh = serializer(WRITERS.get(i));
        try {
          assertThat(serializer.serialize(topic, valid)).as("after a refusal: " + where)
              .isEqualTo(fresh.serialize(topic, valid));
        } finally {
          fresh.close();
        }
      }
    }
  }

  static ReadCase readCase(long seed) {
    RandomAvro random = new RandomAvro(seed).withUnpairedSurrogates();
    Random rnd = random.random();
    int roll = rnd.nextInt(20);
    Schema writer = roll < 2 ? ReadTrustTest.NODE : roll == 2 ? hostileFixed(rnd) : random.topLevel(3);
    Object datum = datum(random, writer);
    Schema reader = rnd.nextInt(5) < 2 ? new Evolution(rnd).reader(writer) : writer;
    return new ReadCase(writer, reader, datum, rnd.nextLong(), rnd.nextBoolean());
  }

  /** A record with a fixed larger than the 64 KiB that Avro's reader may allocate ahead of the bytes. */
  private static Schema hostileFixed(Random rnd) {
    Schema big = Schema.createFixed("Big" + rnd.nextInt(1000), null, "io.kavro.random",
        (1 << 16) + 1 + rnd.nextInt(100_000));
    return Schema.createRecord("Holder" + rnd.nextInt(1000), null, "io.kavro.random", false,
        List.of(new Schema.Field("n", Schema.create(Schema.Type.INT)), new Schema.Field("big", big)));
  }

  /** Smaller read cases: the writer and datum shrunk, the reader with them when it is the writer. */
  private static List<ReadCase> smaller(ReadCase c) {
    return Shrink.smaller(c.writer(), c.datum()).stream()
        .map(p -> new ReadCase(p.schema(), c.reader() == c.writer() ? p.schema() : c.reader(), p.datum(),
            c.mutation(), c.blocks()))
        .toList();
  }

  static void checkRead(ReadCase c) {
    Schema writer = c.writer();
    Schema reader = c.reader();
    if (reader != writer && SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
        != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
      return; // not a pair Avro resolves: nothing to compare
    }
    Outcome written = avroWrite(writer, c.datum(), c.blocks());
    if (written.bytes() == null) {
      return;
    }
    nextTry();
    int id = registry.register("r" + CASES.incrementAndGet() + "-value", writer);
    byte[] body = mutate(written.bytes(), new Random(c.mutation()));
    byte[] payload = new byte[5 + body.length];
    ByteBuffer.wrap(payload).put((byte) 0).putInt(id).put(body);

    Outcome oracle = avroRead(writer, reader, body);
    boolean avroQuirk = oracle.failure() != null && AVRO_QUIRKS.keySet().stream()
        .anyMatch(String.valueOf(oracle.failure().getMessage())::contains)
        && avroRead(writer, writer, body).failure() == null;
    for (int i = 0; i < READERS.size(); i++) {
      KafkaAvroDeserializer deserializer = reader == writer ? deserializers.get(i)
          : deserializer(READERS.get(i), reader);
      Object value;
      try {
        value = deserializer.deserialize("r", payload);
      } catch (SerializationException refused) {
        if (oracle.failure() == null) {
          assertThat(DELIBERATE_REFUSALS.keySet().stream().anyMatch(refused.getMessage()::contains))
              .as("Avro reads, Kavro refuses (" + READERS.get(i) + "): " + refused.getMessage() + "; payload "
                  + Arrays.toString(body)).isTrue();
        }
        continue;
      } catch (Throwable other) {
        fail("not a SerializationException (" + READERS.get(i) + ") for " + Arrays.toString(body), other);
        return;
      } finally {
        if (reader != writer) {
          deserializer.close();
        }
      }
      if (avroQuirk) {
        continue; // Avro refuses what it wrote; Kavro reads it (its value is compared where Avro reads)
      }
      assertThat(oracle.failure()).as("Kavro reads what Avro refuses (" + READERS.get(i) + "): "
          + Arrays.toString(body)).isNull();
      String where = READERS.get(i) + ", payload " + Arrays.toString(body);
      assertThat(avroWrite(reader, value, false).bytes()).as(where)
          .isEqualTo(avroWrite(reader, oracle.value(), false).bytes());
      assertThat(String.valueOf(value)).as(where).isEqualTo(String.valueOf(oracle.value()));
      CodecEquivalenceProperties.assertSameClasses(value, oracle.value(), "$");
    }
  }

  /** What a writer or reader did: bytes or a value, or the failure; an {@code Error} fails the test at once. */
  private record Outcome(byte[] bytes, Object value, Throwable failure) {}

  /** Avro's writer; with {@code blocks}, arrays and maps in blocks of about 32 bytes, sized (negative counts). */
  private static Outcome avroWrite(Schema schema, Object datum, boolean blocks) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = blocks
          ? EncoderFactory.get().configureBlockSize(32).blockingBinaryEncoder(out, null)
          : EncoderFactory.get().binaryEncoder(out, null);
      new GenericDatumWriter<>(schema, MODEL).write(datum, encoder);
      encoder.flush();
      return new Outcome(out.toByteArray(), null, null);
    } catch (IOException | RuntimeException e) {
      return new Outcome(null, null, e);
    } catch (StackOverflowError e) {
      return new Outcome(null, null, e);
    }
  }

  private static Outcome kavroWrite(KafkaAvroSerializer serializer, String topic, Object datum) {
    try {
      return new Outcome(serializer.serialize(topic, datum), null, null);
    } catch (RuntimeException e) {
      return new Outcome(null, null, e);
    }
  }

  /** Avro's reader on a plain decoder; a value counts only if it used every byte. */
  private static Outcome avroRead(Schema writer, Schema reader, byte[] body) {
    try {
      BinaryDecoder in = DecoderFactory.get().binaryDecoder(body, null);
      Object value = new GenericDatumReader<>(writer, reader, MODEL).read(null, in);
      return in.isEnd() ? new Outcome(null, value, null) : new Outcome(null, null, new IOException("trailing bytes"));
    } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
      return new Outcome(null, null, e);
    }
  }

  private static Object datum(RandomAvro random, Schema schema) {
    return schema == ReadTrustTest.NODE ? node(random.random().nextInt(60)) : random.datum(schema);
  }

  private static GenericRecord node(int depth) {
    GenericRecord head = null;
    for (int i = 0; i <= depth; i++) {
      GenericRecord node = new GenericData.Record(ReadTrustTest.NODE);
      node.put("v", i);
      node.put("next", head);
      head = node;
    }
    return head;
  }

  /**
   * A datum in a form to compare: records as maps of their fields, maps keyed by text, bytes as hex, and text
   * as UTF-8 gives it back (an unpaired surrogate becomes '?').
   */
  static Object comparable(Object value) {
    Object normal = RoundTripProperties.normalize(value);
    return utf8(normal);
  }

  private static Object utf8(Object value) {
    if (value instanceof String text) {
      return new String(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), java.nio.charset.StandardCharsets.UTF_8);
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new HashMap<>();
      map.forEach((k, v) -> copy.put(utf8(k), utf8(v)));
      return copy;
    }
    if (value instanceof List<?> items) {
      return items.stream().map(DifferentialProperties::utf8).toList();
    }
    return value;
  }

  /** The datum with, at each position, a chance of a wrong value in its place; the top record stays. */
  static Object mutate(Object datum, Schema schema, Random rnd, double chance) {
    if (datum instanceof IndexedRecord record && record.getSchema() == schema) {
      GenericData.Record copy = new GenericData.Record(schema);
      for (Schema.Field field : schema.getFields()) {
        copy.put(field.pos(), mutateValue(record.get(field.pos()), field.schema(), rnd, chance));
      }
      return copy;
    }
    return datum;
  }

  private static Object mutateValue(Object value, Schema schema, Random rnd, double chance) {
    if (schema.getType() == Schema.Type.FIXED && rnd.nextDouble() < chance) {
      return new GenericData.Fixed(schema, new byte[Math.max(0, schema.getFixedSize() + (rnd.nextBoolean() ? 1 : -1))]);
    }
    if (rnd.nextDouble() < chance) {
      return wrong(schema, rnd);
    }
    if (value instanceof IndexedRecord record) {
      return mutate(record, record.getSchema(), rnd, chance);
    }
    if (value instanceof List<?> items && schema.getType() == Schema.Type.ARRAY) {
      List<Object> copy = new ArrayList<>();
      items.forEach(item -> copy.add(mutateValue(item, schema.getElementType(), rnd, chance)));
      return copy;
    }
    if (value instanceof Map<?, ?> entries && schema.getType() == Schema.Type.MAP) {
      Map<Object, Object> copy = new HashMap<>();
      entries.forEach((k, v) -> copy.put(k, mutateValue(v, schema.getValueType(), rnd, chance)));
      return copy;
    }
    return value;
  }

  /** A value that is likely wrong for {@code schema}, sometimes right by accident. */
  private static Object wrong(Schema schema, Random rnd) {
    return switch (rnd.nextInt(26)) {
      case 0 -> null;
      case 1 -> 1L << 40;
      case 2 -> rnd.nextInt();
      case 3 -> (long) rnd.nextInt(100);
      case 4 -> rnd.nextDouble();
      case 5 -> rnd.nextFloat();
      case 6 -> rnd.nextBoolean();
      case 7 -> "x" + rnd.nextInt(9);
      case 8 -> new Utf8("u");
      case 9 -> ByteBuffer.wrap(new byte[] {1, 2});
      case 10 -> new byte[] {1, 2};
      case 11 -> Letter.values()[rnd.nextInt(4)];
      case 12 -> "A";
      case 13 -> new GenericData.EnumSymbol(Schema.createEnum("Other", null, "x", List.of("A", "Z")),
          rnd.nextBoolean() ? "A" : "Z");
      case 14 -> schema.getType() == Schema.Type.FIXED
          ? new GenericData.Fixed(schema, new byte[schema.getFixedSize() + (rnd.nextBoolean() ? 1 : -1)])
          : new GenericData.Fixed(Schema.createFixed("F", null, "x", 2), new byte[2]);
      case 15 -> new GenericData.Record(Schema.createRecord("Other", null, "x", false, List.of()));
      case 16 -> Arrays.asList(1, "x", null);
      case 17 -> Map.of(1, "one");
      case 18 -> new BigDecimal("1.23456789");
      case 19 -> Instant.ofEpochMilli(rnd.nextLong() % 1_000_000_000_000L);
      case 20 -> UUID.randomUUID();
      case 21 -> (int) Short.MAX_VALUE + rnd.nextInt(3);
      case 22 -> Double.NaN;
      case 23 -> new ArrayList<>();
      case 24 -> new HashMap<>(Map.of("k", rnd.nextInt()));
      default -> new Object();
    };
  }

  /** The body with, sometimes, one of the mutations a broken producer or a bad disk makes. */
  private static byte[] mutate(byte[] body, Random rnd) {
    byte[] bytes = body.clone();
    switch (rnd.nextInt(7)) {
      case 0 -> { } // as written
      case 1 -> {
        for (int i = 0, n = 1 + rnd.nextInt(3); i < n && bytes.length > 0; i++) {
          bytes[rnd.nextInt(bytes.length)] ^= (byte) (1 << rnd.nextInt(8));
        }
      }
      case 2 -> bytes = Arrays.copyOf(bytes, rnd.nextInt(bytes.length + 1));
      case 3 -> {
        int at = rnd.nextInt(bytes.length + 1);
        byte[] grown = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, grown, 0, at);
        grown[at] = (byte) rnd.nextInt(256);
        System.arraycopy(bytes, at, grown, at + 1, bytes.length - at);
        bytes = grown;
      }
      case 4 -> bytes = Arrays.copyOf(bytes, bytes.length + 1 + rnd.nextInt(3));
      case 5 -> {
        if (bytes.length > 0) { // a huge varint (a length, count or index) in place of one byte
          int at = rnd.nextInt(bytes.length);
          byte[] grown = Arrays.copyOf(bytes, bytes.length + 4);
          System.arraycopy(bytes, at + 1, grown, at + 5, bytes.length - at - 1);
          grown[at] = (byte) 0xfe;
          grown[at + 1] = (byte) 0xff;
          grown[at + 2] = (byte) 0xff;
          grown[at + 3] = (byte) 0xff;
          grown[at + 4] = (byte) 0x0f;
          bytes = grown;
        }
      }
      default -> {
        if (bytes.length > 0) {
          bytes[rnd.nextInt(bytes.length)] = (byte) rnd.nextInt(256);
        }
      }
    }
    return bytes;
  }

  private static KafkaAvroSerializer serializer(Map<String, Object> settings) {
    Map<String, Object> config = new HashMap<>(BASE);
    config.putAll(settings);
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    return serializer;
  }

  private static KafkaAvroDeserializer deserializer(Map<String, Object> settings) {
    return deserializer(settings, null);
  }

  /** A deserializer that projects onto {@code reader}, or reads as the writer when it is {@code null}. */
  private static KafkaAvroDeserializer deserializer(Map<String, Object> settings, Schema reader) {
    Map<String, Object> config = new HashMap<>(BASE);
    config.putAll(settings);
    if (reader != null) {
      config.put("value.reader.schema", reader.toString());
    }
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config, false);
    return deserializer;
  }
}
