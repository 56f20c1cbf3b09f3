package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.internal.avro.AvroDataModels;
import io.kavro.serde.internal.codec.CodecEquivalenceProperties;
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
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.avro.Schema;
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

/**
 * Kavro against Apache Avro itself, the oracle, on random schemas with random datums and payloads, invalid
 * ones included (issue 13).
 *
 * <p><b>Write:</b> for each datum, valid or not (wrong Java types in every position, unions included, nulls in
 * non-null fields, numbers out of range, Java enums, strings and unknown symbols for enums, wrong fixed sizes,
 * records of other schemas), Kavro's serializer on each codec and with reflection on, and Avro's
 * {@code GenericDatumWriter}, either both accept with identical bytes, or both refuse, Kavro with a
 * {@link SerializationException}. After every refusal the next record on the same serializer and thread is
 * byte-identical to a fresh serializer's.
 *
 * <p><b>Read:</b> for each payload, valid or mutated (bit flips, cuts, inserted and appended bytes, huge
 * varints), and for deep recursive payloads: Kavro returns the value Avro's reader returns, or throws a
 * {@link SerializationException}. An {@code Error} is never acceptable.
 *
 * <p>Tries default to jqwik's 1,000 per property; {@code -Djqwik.tries.default=1000000} runs a million (see the
 * README's "What Kavro guarantees").
 */
class DifferentialProperties {
  private static final GenericData MODEL = new AvroDataModels(true, false).generic();
  private static final String SCOPE = "differential-" + UUID.randomUUID();
  private static final Map<String, Object> BASE = Map.of("schema.registry.url", "mock://" + SCOPE,
      "avro.use.logical.type.converters", true);
  private static final List<Map<String, Object>> WRITERS = List.of(
      Map.of("avro.fast.codec", true), Map.of("avro.fast.codec", false), Map.of("schema.reflection", true));
  /** Every so many tries the registry scope starts anew, so that a million-case run keeps its memory flat. */
  private static final int TRIES_PER_SCOPE = 5_000;

  private static List<KafkaAvroSerializer> serializers;
  private static List<KafkaAvroDeserializer> deserializers;
  private static SchemaRegistryClient registry;
  private static int tries;

  /** A Java enum with the random schemas' symbols (A, B, C, D) in another order. */
  enum Letter { D, C, B, A }

  @AfterContainer
  static void dropScope() {
    MockRegistries.drop(SCOPE);
  }

  /** The shared serializers, deserializers and registry client, anew every {@link #TRIES_PER_SCOPE} tries. */
  private static void nextTry() {
    if (tries++ % TRIES_PER_SCOPE == 0) {
      MockRegistries.drop(SCOPE);
      serializers = WRITERS.stream().map(DifferentialProperties::serializer).toList();
      deserializers = List.of(deserializer(Map.of("avro.fast.codec", true)),
          deserializer(Map.of("avro.fast.codec", false)));
      registry = SchemaRegistryClients.create(BASE);
    }
  }

  @Property
  void write_agreesWithAvro_andARefusalLeavesNoTrace(@ForAll long seed) {
    RandomAvro random = new RandomAvro(seed);
    Random rnd = random.random();
    Schema schema = rnd.nextInt(10) == 0 ? ReadTrustTest.NODE : random.record(3);
    Object datum = mutate(datum(random, schema), schema, rnd, 0.08 + rnd.nextDouble() * 0.2);
    String topic = "w" + seed;
    nextTry();

    Outcome oracle = avroWrite(schema, datum);
    Statistics.label("write").collect(oracle.bytes() != null ? "both accept" : "both refuse");
    for (int i = 0; i < serializers.size(); i++) {
      KafkaAvroSerializer serializer = serializers.get(i);
      Outcome kavro = kavroWrite(serializer, topic, datum);
      String where = WRITERS.get(i) + " datum " + datum + " schema " + schema;
      if (oracle.bytes() != null) {
        assertThat(kavro.failure()).as("Avro accepts, Kavro refuses: " + where).isNull();
        assertThat(Arrays.copyOfRange(kavro.bytes(), 5, kavro.bytes().length)).as(where).isEqualTo(oracle.bytes());
      } else {
        assertThat(kavro.failure()).as("Avro refuses (" + oracle.failure() + "), Kavro accepts: " + where)
            .isInstanceOf(SerializationException.class);
        Object valid = datum(random, schema);
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

  @Property
  void read_sameValueAsAvroOrATypedError(@ForAll long seed) throws IOException {
    RandomAvro random = new RandomAvro(seed);
    Random rnd = random.random();
    Schema schema = rnd.nextInt(10) == 0 ? ReadTrustTest.NODE : random.record(3);
    nextTry();
    int id = registry.register("r" + seed + "-value", schema);
    byte[] body = mutate(avroWrite(schema, datum(random, schema)).bytes(), rnd);
    byte[] payload = new byte[5 + body.length];
    ByteBuffer.wrap(payload).put((byte) 0).putInt(id).put(body);

    Outcome oracle = avroRead(schema, body);
    for (KafkaAvroDeserializer deserializer : deserializers) {
      Object value;
      try {
        value = deserializer.deserialize("r" + seed, payload);
      } catch (SerializationException refused) {
        Statistics.label("read").collect(oracle.failure() == null ? "Avro reads, Kavro refuses" : "both refuse");
        continue; // refusing is always allowed, typed
      } catch (Throwable other) {
        fail("not a SerializationException for " + Arrays.toString(body) + " of " + schema, other);
        return;
      }
      assertThat(oracle.failure()).as("Kavro reads what Avro refuses: " + Arrays.toString(body) + " of " + schema)
          .isNull();
      assertThat(avroWrite(schema, value).bytes()).isEqualTo(avroWrite(schema, oracle.value()).bytes());
      assertThat(String.valueOf(value)).isEqualTo(String.valueOf(oracle.value()));
      CodecEquivalenceProperties.assertSameClasses(value, oracle.value(), "$");
      Statistics.label("read").collect("both read the same value");
    }
  }

  /** What a writer or reader did: bytes or a value, or the failure; an {@code Error} fails the test at once. */
  private record Outcome(byte[] bytes, Object value, Throwable failure) {}

  private static Outcome avroWrite(Schema schema, Object datum) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
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
  private static Outcome avroRead(Schema schema, byte[] body) {
    try {
      BinaryDecoder in = DecoderFactory.get().binaryDecoder(body, null);
      Object value = new GenericDatumReader<>(schema, schema, MODEL).read(null, in);
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
    Map<String, Object> config = new HashMap<>(BASE);
    config.putAll(settings);
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config, false);
    return deserializer;
  }
}
