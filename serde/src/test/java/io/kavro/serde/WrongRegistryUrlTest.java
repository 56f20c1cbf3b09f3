package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.WrongRegistryUrlException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 8b: a registry URL that leads to no registry's API (a {@link WrongRegistryUrlException}) is a
 * configuration error in Kafka's terms too: a {@code SerializationException}, never a {@code RetriableException},
 * whose message keeps the registry client's advice.
 */
class WrongRegistryUrlTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
  /** The client's methods that send no request: passed to the scope's registry. */
  private static final Set<String> OFFLINE = Set.of("dekRegistry", "replacedSchemas", "onChange", "stats", "close",
      "toString", "hashCode", "equals", "idsPerSubject", "hasContexts");
  private static final String ADVICE = "check that schema.registry.url is the registry's base URL (for Apicurio: "
      + "http://registry:8080/apis/ccompat/v7)";

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  /** A client whose every request meets a 404 without a registry error code, as the HTTP client raises it. */
  private SchemaRegistryClient wrongUrl() {
    SchemaRegistryClient registry = serdes.registry();
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (!OFFLINE.contains(method.getName())) {
            throw new WrongRegistryUrlException(method.getName() + " failed: HTTP 404: (empty body) "
                + "(http://registry:8080/x); a 404 from the registry's core API without the registry's own 404xx "
                + "error_code, so http://registry:8080/ is not the base URL of a schema registry's API: " + ADVICE,
                404, -1, "http://registry:8080/x", null);
          }
          try {
            return method.invoke(registry, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static GenericRecord order(long id) {
    GenericRecord record = new GenericData.Record(ORDER);
    record.put("id", id);
    return record;
  }

  @Test
  void serializer_wrongUrl_notRetriable() {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer(wrongUrl(), serdes.config(), false);

    assertThatThrownBy(() -> serializer.serialize("orders", order(1)))
        .isInstanceOf(RegistryUrlException.class)
        .isInstanceOf(SerializationException.class)
        .isNotInstanceOf(RetriableException.class)
        .hasRootCauseInstanceOf(WrongRegistryUrlException.class)
        .hasMessageContaining("value of topic 'orders'")
        .hasMessageContaining("schema.registry.url does not lead to a schema registry's API")
        .hasMessageContaining(ADVICE);
  }

  @Test
  void deserializer_wrongUrl_notRetriable_notAnUnknownId() {
    byte[] framed = serdes.serializer().serialize("orders", order(1));
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(wrongUrl(), serdes.config(), false);

    assertThatThrownBy(() -> deserializer.deserialize("orders", framed))
        .isInstanceOf(SerializationException.class)
        .isNotInstanceOf(RetriableException.class)
        .isNotInstanceOf(UnknownSchemaIdException.class)
        .hasRootCauseInstanceOf(WrongRegistryUrlException.class)
        .hasMessageContaining("value of topic 'orders'")
        .hasMessageContaining(ADVICE);
  }
}
