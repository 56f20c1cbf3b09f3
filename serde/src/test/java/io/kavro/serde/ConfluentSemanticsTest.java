package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.subject.SubjectNameStrategy;
import io.kavro.serde.subject.TopicRecordNameStrategy;
import io.kavro.test.specific.Customer;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Keys whose meaning follows Confluent's serializer, as its {@code AbstractKafkaAvroSerializer.serializeImpl}
 * and {@code AbstractKafkaSchemaSerDeConfig} define it: the order of precedence of the ways to pick the
 * writer schema, the compatibility checks of {@code use.schema.id} and {@code use.latest.version}, the
 * latest-version cache, class-valued keys and {@code avro.remove.java.properties}.
 */
class ConfluentSemanticsTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
  private static final Schema ORDER_V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
        {"name":"note","type":"string","default":""}]}""");
  private static final Schema UNRELATED = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"sku","type":"long"}]}""");

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord order(long id) {
    GenericRecord record = new GenericData.Record(ORDER);
    record.put("id", id);
    return record;
  }

  private static int idOf(byte[] bytes) {
    return WireFormat.schemaId(ByteBuffer.wrap(bytes));
  }

  @Test
  void autoRegister_takesPrecedenceOverUseLatestVersion() {
    SchemaRegistryClient registry = serdes.registry();
    registry.register("orders-value", ORDER);
    int latest = registry.register("orders-value", ORDER_V2);

    // Both on, as many Confluent configurations have them: Confluent registers the datum's own schema.
    byte[] bytes = serdes.serializer("use.latest.version", true).serialize("orders", order(1));

    assertThat(idOf(bytes)).isNotEqualTo(latest).isEqualTo(registry.lookup("orders-value", ORDER).id());
  }

  @Test
  void latestCacheTtlMinusOne_isConfluentsDefault_andKeepsTheLatestForTheClientsLife() {
    SchemaRegistryClient registry = serdes.registry();
    int first = registry.register("orders-value", ORDER);
    KafkaAvroSerializer serializer = serdes.serializer("use.latest.version", true, "auto.register.schemas", false,
        "latest.cache.ttl.sec", -1);
    assertThat(idOf(serializer.serialize("orders", order(1)))).isEqualTo(first);

    registry.register("orders-value", ORDER_V2);

    assertThat(idOf(serializer.serialize("orders", order(2)))).isEqualTo(first);
    assertThat(new AvroSerdeConfig(serdes.config(), false).registryConfig().latestCacheTtl())
        .isEqualTo(io.kavro.registry.config.RegistryConfig.NO_EXPIRY);
  }

  @Test
  void latestCacheSize_boundsTheLatestVersionsKept() {
    assertThat(new AvroSerdeConfig(serdes.config("latest.cache.size", 7), false).registryConfig()
        .latestCacheSize()).isEqualTo(7);
    assertThatThrownBy(() -> new AvroSerdeConfig(serdes.config("latest.cache.size", 0), false))
        .isInstanceOf(ConfigException.class).hasMessageContaining("latest.cache.size");
  }

  @Test
  void useSchemaId_writesThatIdWithItsSchema() {
    SchemaRegistryClient registry = serdes.registry();
    int v2 = registry.register("orders-value", ORDER_V2);

    byte[] bytes = serdes.serializer("auto.register.schemas", false, "use.schema.id", v2)
        .serialize("orders", order(5));

    assertThat(idOf(bytes)).isEqualTo(v2);
    GenericRecord read = (GenericRecord) serdes.deserializer().deserialize("orders", bytes);
    assertThat(read.getSchema()).isEqualTo(ORDER_V2);
    assertThat(read.get("id")).isEqualTo(5L);
    assertThat(registry.versions("orders-value")).hasSize(1);
  }

  @Test
  void useSchemaId_strict_refusesASchemaThatCannotReadTheDatum_nonStrictWritesAsIs() {
    int unrelated = serdes.registry().register("other-value", UNRELATED);

    assertThatThrownBy(() -> serdes.serializer("auto.register.schemas", false, "use.schema.id", unrelated)
        .serialize("orders", order(5)))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("use.schema.id")
        .hasMessageContaining("id.compatibility.strict");

    // Confluent's non-strict path writes the datum with that schema as it is: here field by field position.
    byte[] bytes = serdes.serializer("auto.register.schemas", false, "use.schema.id", unrelated,
        "id.compatibility.strict", false).serialize("orders", order(5));
    GenericRecord read = (GenericRecord) serdes.deserializer().deserialize("orders", bytes);
    assertThat(read.get("sku")).isEqualTo(5L);
  }

  @Test
  void latestCompatibilityStrictFalse_writesTheDatumWithTheLatestSchemaAsIs() {
    serdes.registry().register("orders-value", UNRELATED);

    assertThatThrownBy(() -> serdes.serializer("auto.register.schemas", false, "use.latest.version", true)
        .serialize("orders", order(3)))
        .hasMessageContaining("latest.compatibility.strict=true");

    byte[] bytes = serdes.serializer("auto.register.schemas", false, "use.latest.version", true,
        "latest.compatibility.strict", false).serialize("orders", order(3));
    assertThat(((GenericRecord) serdes.deserializer().deserialize("orders", bytes)).get("sku")).isEqualTo(3L);
  }

  @Test
  void useLatestWithMetadata_picksTheVersionWhoseMetadataMatches_onBothSides() {
    var registry = MockRegistries.scope(serdes.scope);
    int tagged = registry.register("orders-value", ORDER_V2, Map.of("app", "billing", "owner", "team-a"));
    registry.register("orders-value", ORDER, Map.of("app", "other"));
    String spec = "app=billing, owner=team-a";

    byte[] bytes = serdes.serializer("auto.register.schemas", false, "use.latest.with.metadata", spec,
        "use.latest.version", true).serialize("orders", order(8));

    assertThat(idOf(bytes)).isEqualTo(tagged);
    // A record written with the plain latest (ORDER) is read as the metadata's version.
    byte[] plain = serdes.serializer().serialize("orders", order(9));
    GenericRecord read = (GenericRecord) serdes.deserializer("use.latest.with.metadata", spec)
        .deserialize("orders", plain);
    assertThat(read.getSchema()).isEqualTo(ORDER_V2);
    assertThat(read.get("note")).hasToString("");
  }

  @Test
  void useLatestWithMetadata_noVersionMatches_namesTheMetadata() {
    MockRegistries.scope(serdes.scope).register("orders-value", ORDER, Map.of("app", "other"));

    assertThatThrownBy(() -> serdes.serializer("auto.register.schemas", false, "use.latest.with.metadata",
        "app=billing").serialize("orders", order(1)))
        .isInstanceOf(SchemaRegistrationException.class)
        .hasMessageContaining("{app=billing}");
    assertThatThrownBy(() -> serdes.serializer("use.latest.with.metadata", "app"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("key=value");
  }

  @Test
  void classValuedKeys_takeAClass_asConfluentsTypeClassKeysDo() {
    byte[] bytes = serdes.serializer("value.subject.name.strategy", TopicRecordNameStrategy.class)
        .serialize("orders", order(1));
    assertThat(serdes.registry().subjects()).containsExactly("orders-com.acme.Order");

    byte[] customer = serdes.serializer().serialize("customers", customer());
    Object read = serdes.deserializer("specific.avro.reader", true, "specific.avro.value.type", Customer.class)
        .deserialize("customers", customer);
    assertThat(read).isInstanceOf(Customer.class);
    assertThat(idOf(bytes)).isPositive();
  }

  /** A user's strategy: Kavro's interface, configured with the serde's settings when it is Configurable. */
  public static final class TenantStrategy implements SubjectNameStrategy, Configurable {
    private String tenant;

    @Override
    public void configure(Map<String, ?> configs) {
      tenant = String.valueOf(configs.get("tenant"));
    }

    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      return tenant + "." + topic + (isKey ? "-key" : "-value");
    }
  }

  @Test
  void customStrategy_byName_isMadeAndConfigured() {
    serdes.serializer("value.subject.name.strategy", TenantStrategy.class.getName(), "tenant", "acme")
        .serialize("orders", order(1));

    assertThat(serdes.registry().subjects()).containsExactly("acme.orders-value");
    assertThatThrownBy(() -> serdes.serializer("value.subject.name.strategy", String.class))
        .isInstanceOf(ConfigException.class).hasMessageContaining("does not implement");
  }

  @Test
  void removeJavaProperties_registersTheSchemaWithoutAvroJavaString() {
    assertThat(Customer.SCHEMA$.toString()).contains("avro.java.string");

    byte[] kept = serdes.serializer().serialize("kept", customer());
    byte[] removed = serdes.serializer("avro.remove.java.properties", true).serialize("removed", customer());

    SubjectVersion withProps = serdes.registry().latestVersion("kept-value");
    SubjectVersion without = serdes.registry().latestVersion("removed-value");
    assertThat(withProps.schema().toString()).contains("avro.java.string");
    assertThat(without.schema().toString()).doesNotContain("avro.java.string");
    assertThat(without.id()).isNotEqualTo(withProps.id());
    // The same bytes after the header: the property changes no byte written.
    assertThat(ByteBuffer.wrap(removed, 5, removed.length - 5)).isEqualTo(ByteBuffer.wrap(kept, 5, kept.length - 5));
  }

  @Test
  void logicalTypeConverters_offByDefault_asInConfluent() {
    assertThat(new AvroSerdeConfig(serdes.config(), false).useLogicalTypeConverters()).isFalse();
  }

  private static Customer customer() {
    return DeserializerTest.customer();
  }
}
