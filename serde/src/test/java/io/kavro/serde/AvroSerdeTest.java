package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.test.specific.Customer;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {
  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  @Test
  void specific_configurePassedToBothHalves() {
    try (AvroSerde<Customer> serde = new AvroSerde<>()) {
      serde.configure(serdes.config("specific.avro.reader", true), false);
      Customer customer = DeserializerTest.customer();

      byte[] bytes = serde.serializer().serialize("c", customer);
      Customer read = serde.deserializer().deserialize("c", bytes);

      assertThat(read).isEqualTo(customer);
      assertThat(serdes.registry().subjects()).containsExactly("c-value");
    }
  }

  @Test
  void generic_keySide_usesKeySubject() {
    try (AvroSerde<Object> serde = new AvroSerde<>(serdes.registry())) {
      serde.configure(serdes.config(), true);

      byte[] bytes = serde.serializer().serialize("c", DeserializerTest.customer());
      Object read = serde.deserializer().deserialize("c", bytes);

      assertThat(read).isInstanceOf(GenericRecord.class);
      assertThat(serdes.registry().subjects()).containsExactly("c-key");
    }
  }

  @Test
  void reflect_javaRecord() {
    try (AvroSerde<ReflectionTest.Point> serde = new AvroSerde<>()) {
      serde.configure(serdes.config("schema.reflection", true), false);
      ReflectionTest.Point point = new ReflectionTest.Point(1, 2, "z");

      assertThat(serde.deserializer().deserialize("p", serde.serializer().serialize("p", point))).isEqualTo(point);
    }
  }

  /** Both halves share one registry client: the id the serializer registered is known to the deserializer. */
  @Test
  void bothHalves_shareOneClient() {
    try (AvroSerde<Object> serde = new AvroSerde<>()) {
      serde.configure(serdes.config(), false);
      byte[] bytes = serde.serializer().serialize("c", DeserializerTest.customer());
      long requests = serdes.registryRequests();

      serde.deserializer().deserialize("c", bytes);

      assertThat(serdes.registryRequests()).isEqualTo(requests);
    }
  }
}
