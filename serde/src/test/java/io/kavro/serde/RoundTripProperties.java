package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.test.specific.Address;
import io.kavro.test.specific.Customer;
import io.kavro.test.specific.Tier;
import io.kavro.test.specific.Zip;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Random schemas and data round-trip through the serializer and deserializer, generic and specific. */
class RoundTripProperties {

  @Test
  void generic_randomSchemaAndData_roundTrip() {
    Property.forAll("generic round trip", Property.tries(300), seed -> seed, RoundTripProperties::genericRoundTrip);
  }

  private static void genericRoundTrip(long seed) throws IOException {
    RandomAvro random = new RandomAvro(seed);
    Schema schema = random.record(3);
    Object datum = random.datum(schema);
    try (Serdes serdes = Serdes.withLogicalTypeConverters()) {
      KafkaAvroSerializer serializer = serdes.serializer();
      byte[] bytes = serializer.serialize("t", datum);

      // The body is exactly what plain Apache Avro writes for the datum.
      byte[] body = Arrays.copyOfRange(bytes, WireFormat.HEADER_SIZE, bytes.length);
      assertThat(body).isEqualTo(plainAvro(schema, datum));

      // Reading gives back an equal datum: nothing lost or changed.
      Object read = serdes.deserializer().deserialize("t", bytes);
      assertThat(normalize(read)).isEqualTo(normalize(datum));
    }
  }

  /** The generated class's values: random id, name, tier, balance, day and address. */
  private record CustomerCase(long id, String name, int tier, long cents, int day, boolean withAddress) {}

  @Test
  void specific_randomValues_roundTrip() {
    Property.forAll("specific round trip", Property.tries(200), seed -> {
      java.util.Random random = new java.util.Random(seed);
      StringBuilder name = new StringBuilder();
      for (int i = random.nextInt(31); i > 0; i--) {
        name.appendCodePoint(random.nextInt(4) == 0 ? 0x3b1 + random.nextInt(20) : 'a' + random.nextInt(26));
      }
      return new CustomerCase(random.nextLong(), name.toString(), random.nextInt(3),
          random.nextLong() % 100_000_000, random.nextInt(40_001) - 20_000, random.nextBoolean());
    }, RoundTripProperties::specificRoundTrip);
  }

  private static void specificRoundTrip(CustomerCase c) {
    long id = c.id();
    String name = c.name();
    int tier = c.tier();
    long cents = c.cents();
    int day = c.day();
    boolean withAddress = c.withAddress();
    Customer customer = Customer.newBuilder()
        .setId(id)
        .setName(name)
        .setEmail(name.isEmpty() ? null : name + "@x")
        .setTier(Tier.values()[tier])
        .setBalance(BigDecimal.valueOf(cents, 2))
        .setSince(LocalDate.ofEpochDay(day))
        .setUpdated(Instant.ofEpochMilli(id % 10_000_000_000_000L))
        .setTags(List.of(name, "t"))
        .setAddress(withAddress ? new Address(name, new Zip(new byte[] {1, 2, 3, 4, 5})) : null)
        .build();
    try (Serdes serdes = Serdes.withLogicalTypeConverters()) {
      byte[] bytes = serdes.serializer().serialize("c", customer);

      assertThat(serdes.deserializer("specific.avro.reader", true).deserialize("c", bytes)).isEqualTo(customer);
    }
  }

  /** Comparable form: strings for text and symbols, lists for arrays and bytes, maps keyed by String. */
  static Object normalize(Object value) {
    if (value instanceof org.apache.avro.generic.IndexedRecord record) {
      java.util.Map<String, Object> fields = new java.util.LinkedHashMap<>();
      for (Schema.Field field : record.getSchema().getFields()) {
        fields.put(field.name(), normalize(record.get(field.pos())));
      }
      return fields;
    }
    if (value instanceof java.util.Map<?, ?> map) {
      java.util.Map<String, Object> copy = new java.util.HashMap<>();
      map.forEach((k, v) -> copy.put(k.toString(), normalize(v)));
      return copy;
    }
    if (value instanceof java.util.Collection<?> items) {
      return items.stream().map(RoundTripProperties::normalize).toList();
    }
    if (value instanceof java.nio.ByteBuffer buffer) {
      return java.util.HexFormat.of().formatHex(java.util.Arrays.copyOfRange(buffer.array(),
          buffer.arrayOffset() + buffer.position(), buffer.arrayOffset() + buffer.limit()));
    }
    if (value instanceof org.apache.avro.generic.GenericFixed fixed) {
      return java.util.HexFormat.of().formatHex(fixed.bytes());
    }
    if (value instanceof CharSequence || value instanceof org.apache.avro.generic.GenericEnumSymbol<?>) {
      return value.toString();
    }
    return value;
  }

  private static byte[] plainAvro(Schema schema, Object datum) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<>(schema, new AvroDataModels(true, false).generic()).write(datum, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
