package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.InlineValidationException;
import io.kavro.serde.KafkaAvroSerializer;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.reflect.AvroSchema;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51: an inline rule's {@code this} is the application's object, as Confluent's serializer binds it. A
 * {@code timestamp-millis} is a {@code long} in a generic record without logical type converters (Confluent's and
 * Kavro's default: {@code timestamp.of(this, "millis")}, {@code this > 0}), and an {@code Instant} in a generated
 * class or with converters ({@code timestamp.of(this)}).
 */
class InlineBindingEndToEndTest {
  private static final String SINCE_2000 = "timestamp(\"2000-01-01T00:00:00Z\")";
  /** Confluent's form for a long of epoch milliseconds. */
  private static final String UNDERLYING = "timestamp.of(this, \"millis\") > " + SINCE_2000;
  /** The form for an Instant. */
  private static final String JAVA = "timestamp.of(this) > " + SINCE_2000;
  private static final long NOV_2023 = 1_700_000_000_000L;

  private final String scope = "binding-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private static Schema event(String expr) {
    return new Schema.Parser().parse("""
        {"type":"record","name":"Event","namespace":"com.acme","fields":[
         {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"},
          "confluent:rules":[{"name":"recent","expr":%s}]}]}""".formatted(quote(expr)));
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private KafkaAvroSerializer serializer(Schema schema, boolean converters) {
    return serializer(schema, converters, false);
  }

  private KafkaAvroSerializer serializer(Schema schema, boolean converters, boolean reflection) {
    registry.register("events-value", schema);
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "auto.register.schemas", false, "use.latest.version", true,
        "validation.rules.execution", "AFTER_DOMAIN_RULES"));
    if (converters) {
      config.put("avro.use.logical.type.converters", true);
    }
    if (reflection) {
      config.put("schema.reflection", true);
    }
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    return serializer;
  }

  private static GenericRecord generic(Schema schema, Object at) {
    GenericRecord record = new GenericData.Record(schema);
    record.put("at", at);
    return record;
  }

  @Test
  void genericWithoutConverters_bindsTheLong_asConfluentDoes() {
    Schema schema = event(UNDERLYING);
    KafkaAvroSerializer serializer = serializer(schema, false);
    assertThat(serializer.serialize("events", generic(schema, NOV_2023))).isNotEmpty();
    // the rule runs: a 1990 timestamp breaks it
    assertThatThrownBy(() -> serializer.serialize("events", generic(schema, 631_152_000_000L)))
        .isInstanceOfSatisfying(InlineValidationException.class, e -> assertThat(e.violations())
            .containsExactly("at: recent: " + UNDERLYING));
  }

  @Test
  void genericWithoutConverters_comparesTheLong() {
    Schema schema = event("this > 0");
    assertThat(serializer(schema, false).serialize("events", generic(schema, NOV_2023))).isNotEmpty();
  }

  @Test
  void genericWithoutConverters_javaFormFails_asInConfluent() {
    Schema schema = event(JAVA);
    assertThatThrownBy(() -> serializer(schema, false).serialize("events", generic(schema, NOV_2023)))
        .isInstanceOf(InlineValidationException.class).hasMessageContaining("at: recent");
  }

  @Test
  void genericWithConverters_bindsTheInstant() {
    Schema schema = event(JAVA);
    assertThat(serializer(schema, true).serialize("events", generic(schema, Instant.ofEpochMilli(NOV_2023))))
        .isNotEmpty();
  }

  @Test
  void specificRecord_bindsTheInstant() {
    Schema schema = event(JAVA);
    KafkaAvroSerializer serializer = serializer(schema, false);
    assertThat(serializer.serialize("events", new SpecificEvent(schema, Instant.ofEpochMilli(NOV_2023))))
        .isNotEmpty();
    Schema underlying = event("this > 0");
    registry.register("events-value", underlying);
    assertThatThrownBy(() -> serializer(underlying, false).serialize("events",
        new SpecificEvent(underlying, Instant.ofEpochMilli(NOV_2023))))
        .isInstanceOf(InlineValidationException.class).hasMessageContaining("at: recent: this > 0");
  }

  @Test
  void ruleWhoseResultIsNotBoolOrString_isRefusedByName_notAViolationPerRecord() {
    Schema schema = event("size(string(this))");
    assertThatThrownBy(() -> serializer(schema, false).serialize("events", generic(schema, NOV_2023)))
        .isInstanceOf(SerializationException.class).isNotInstanceOf(InlineValidationException.class)
        .hasMessageContaining("validation rule 'recent'").hasMessageContaining("must return bool or string");
  }

  /** Confluent's decimal rule for a BigDecimal: cannot run on a decimal's raw bytes, which need a scale. */
  private static final String NON_NEGATIVE = "decimals.ge(decimal(this), decimal('0'))";

  private static Schema payment(String expr) {
    return new Schema.Parser().parse("""
        {"type":"record","name":"Payment","namespace":"com.acme","fields":[
         {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2},
          "confluent:rules":[{"name":"nonNegative","expr":%s}]}]}""".formatted(quote(expr)));
  }

  private KafkaAvroSerializer paymentSerializer(Schema schema) {
    registry.register("payments-value", schema);
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false,
        "use.latest.version", true, "validation.rules.execution", "AFTER_DOMAIN_RULES"), false);
    return serializer;
  }

  @Test
  void generatedByteBufferDecimal_bindsTheBytes_soDecimalOfThisFails_asInConfluent() {
    // avro-maven-plugin's default (enableDecimalLogicalType=false): a ByteBuffer field without a conversion
    Schema schema = payment(NON_NEGATIVE);
    ByteBuffer twelve = ByteBuffer.wrap(new BigDecimal("12.34").unscaledValue().toByteArray());
    assertThatThrownBy(() -> paymentSerializer(schema).serialize("payments", new BytesPayment(schema, twelve)))
        .isInstanceOfSatisfying(InlineValidationException.class, e -> assertThat(e.violations())
            .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
            .startsWith("amount: nonNegative: " + NON_NEGATIVE + " (caused by: ").contains("failed"));
  }

  @Test
  void generatedByteBufferDecimal_takesTheScaledForm() {
    Schema schema = payment("decimals.ge(decimal(this, 2), decimal('0'))");
    ByteBuffer twelve = ByteBuffer.wrap(new BigDecimal("12.34").unscaledValue().toByteArray());
    assertThat(paymentSerializer(schema).serialize("payments", new BytesPayment(schema, twelve))).isNotEmpty();
  }

  @Test
  void generatedBigDecimal_bindsTheBigDecimal() {
    Schema schema = payment(NON_NEGATIVE);
    KafkaAvroSerializer serializer = paymentSerializer(schema);
    assertThat(serializer.serialize("payments", new DecimalPayment(schema, new BigDecimal("12.34")))).isNotEmpty();
    // the rule runs: a negative amount breaks it
    assertThatThrownBy(() -> serializer.serialize("payments", new DecimalPayment(schema, new BigDecimal("-1.00"))))
        .isInstanceOfSatisfying(InlineValidationException.class, e -> assertThat(e.violations())
            .containsExactly("amount: nonNegative: " + NON_NEGATIVE));
  }

  /**
   * A class as avro-maven-plugin 1.12 generates it with its default {@code enableDecimalLogicalType=false}: its
   * decimal field is a {@code ByteBuffer} and has no conversion of its own, though its {@code MODEL$} has the
   * decimal conversion (the compiler adds one for every logical type the schema uses).
   */
  public static final class BytesPayment extends SpecificRecordBase {
    public static final SpecificData MODEL$ = new SpecificData();

    static {
      MODEL$.addLogicalTypeConversion(new Conversions.DecimalConversion());
    }

    private final Schema schema;
    private ByteBuffer amount;

    BytesPayment(Schema schema, ByteBuffer amount) {
      this.schema = schema;
      this.amount = amount;
    }

    @Override
    public SpecificData getSpecificData() {
      return MODEL$;
    }

    @Override
    public Schema getSchema() {
      return schema;
    }

    @Override
    public Object get(int field) {
      return amount;
    }

    @Override
    public void put(int field, Object value) {
      amount = (ByteBuffer) value;
    }
  }

  /** The same with {@code enableDecimalLogicalType=true}: a {@code BigDecimal} field with the decimal conversion. */
  public static final class DecimalPayment extends SpecificRecordBase {
    private static final Conversion<?> DECIMAL = new Conversions.DecimalConversion();
    public static final SpecificData MODEL$ = new SpecificData();

    static {
      MODEL$.addLogicalTypeConversion(DECIMAL);
    }

    private final Schema schema;
    private BigDecimal amount;

    DecimalPayment(Schema schema, BigDecimal amount) {
      this.schema = schema;
      this.amount = amount;
    }

    @Override
    public SpecificData getSpecificData() {
      return MODEL$;
    }

    @Override
    public Schema getSchema() {
      return schema;
    }

    @Override
    public Object get(int field) {
      return amount;
    }

    @Override
    public void put(int field, Object value) {
      amount = (BigDecimal) value;
    }

    @Override
    public Conversion<?> getConversion(int field) {
      return DECIMAL;
    }
  }

  /** A class written by reflection whose timestamp is its underlying long, as the schema it declares says. */
  public static final class LongEvent {
    @AvroSchema("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}")
    long at;

    LongEvent(long at) {
      this.at = at;
    }
  }

  /** A class written by reflection whose timestamp is an Instant. */
  public static final class InstantEvent {
    Instant at;

    InstantEvent(Instant at) {
      this.at = at;
    }
  }

  /** The schema Kavro derives for {@code type}, under that name, with {@code expr} on its field {@code at}. */
  private static Schema reflected(Class<?> type, String expr) {
    Schema derived = ReflectData.get().getSchema(type);
    return new Schema.Parser().parse("""
        {"type":"record","name":"%s","namespace":"%s","fields":[
         {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"},
          "confluent:rules":[{"name":"recent","expr":%s}]}]}""".formatted(derived.getName(),
        derived.getNamespace(), quote(expr)));
  }

  @Test
  void reflectedLongField_bindsTheLong_soTheJavaFormFails_asInConfluent() {
    Schema schema = reflected(LongEvent.class, JAVA);
    assertThatThrownBy(() -> serializer(schema, false, true).serialize("events", new LongEvent(NOV_2023)))
        .isInstanceOf(InlineValidationException.class).hasMessageContaining("at: recent");
    Schema underlying = reflected(LongEvent.class, UNDERLYING);
    assertThat(serializer(underlying, false, true).serialize("events", new LongEvent(NOV_2023))).isNotEmpty();
  }

  @Test
  void reflectedInstantField_bindsTheInstant() {
    Schema schema = reflected(InstantEvent.class, JAVA);
    assertThat(serializer(schema, false, true).serialize("events", new InstantEvent(Instant.ofEpochMilli(NOV_2023))))
        .isNotEmpty();
  }

  /** A generated class's shape: its timestamp is an Instant, converted by the class's own conversion. */
  public static final class SpecificEvent extends SpecificRecordBase {
    private static final Conversion<?> MILLIS = new TimeConversions.TimestampMillisConversion();
    private final Schema schema;
    private Instant at;

    SpecificEvent(Schema schema, Instant at) {
      this.schema = schema;
      this.at = at;
    }

    @Override
    public Schema getSchema() {
      return schema;
    }

    @Override
    public Object get(int field) {
      return at;
    }

    @Override
    public void put(int field, Object value) {
      at = (Instant) value;
    }

    @Override
    public Conversion<?> getConversion(int field) {
      return MILLIS;
    }
  }
}
