package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.reflect.AvroDefault;
import org.apache.avro.reflect.AvroSchema;
import org.apache.avro.specific.FixedSize;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Java records by reflection (issue 33, item 3): records that gain components, the Java types that mean logical
 * types in both settings of {@code avro.use.logical.type.converters}, fixed components, nested record classes, and
 * the narrow primitives {@code char} and {@code byte} (item 11); on the compiled codec and on Avro's.
 */
class JavaRecordTypesTest {
  private static final String NAMESPACE = "io.kavro.serde.JavaRecordTypesTest";
  private final Serdes serdes = new Serdes();

  /** A consumer's record that gained {@code qty}, with no default. */
  public record Wide(long id, int qty, String note) {}

  /** A consumer's record that gained {@code qty} and {@code ratio}, with defaults. */
  public record Defaulted(long id, @AvroDefault("7") int qty, @AvroDefault("1.5") double ratio, String note) {}

  /** A record whose canonical constructor refuses some values. */
  public record Checked(long id, String note) {
    /** Refuses a negative id. */
    public Checked {
      if (id < 0) {
        throw new IllegalArgumentException("negative id " + id);
      }
    }
  }

  /** Checks a negative id with a class that fails to initialize: a library missing at run time. */
  public record LinksLate(long id, String note) {
    /** Asks {@link Missing} about a negative id. */
    public LinksLate {
      if (id < 0) {
        Missing.check(id);
      }
    }
  }

  /** A class whose static initializer fails. */
  static final class Missing {
    static final long BOUND = fail();

    private Missing() {}

    private static long fail() {
      throw new IllegalStateException("a library missing at run time");
    }

    static void check(long id) {
      if (id < BOUND) {
        throw new IllegalArgumentException("below " + BOUND);
      }
    }
  }

  /** A record with a component that Avro's reflection writes as its text. */
  public record Linked(long id, java.net.URI link) {}

  /** A fixed of four bytes whose constructor asks {@link Missing} about a negative first byte. */
  @FixedSize(4)
  public static class LateFour extends JavaRecordProperties.Bytes {
    private static final long serialVersionUID = 1L;
    private static final Schema SCHEMA = Schema.createFixed("LateFour", null, NAMESPACE, 4);

    /** An empty one, for Avro. */
    public LateFour() {
      super(new byte[4]);
    }

    /** These bytes. */
    public LateFour(byte[] bytes) {
      super(bytes);
      if (bytes[0] < 0) {
        Missing.check(bytes[0]);
      }
    }

    @Override
    public Schema getSchema() {
      return SCHEMA;
    }
  }

  /** A record with a fixed component that fails to link for a negative first byte. */
  public record LateTagged(String name, LateFour tag) {}

  /** A text whose String constructor asks {@link Missing} about a text that starts with '-'. */
  @org.apache.avro.reflect.Stringable
  public static final class LateText {
    private final String text;

    /** This text. */
    public LateText(String text) {
      if (text.startsWith("-")) {
        Missing.check(-1);
      }
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** A record with a component written as its text, whose class fails to link for some texts. */
  public record LateLinked(long id, LateText link) {}

  /** Every Java type that means a logical type. */
  public record Times(BigDecimal amount, LocalDate date, LocalTime time, Instant at, LocalDateTime local, UUID id) {}

  /** Decimals given by a schema: as a BigDecimal and as its raw bytes. */
  public record Decimals(
      @AvroSchema("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}") BigDecimal amount,
      @AvroSchema("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}") ByteBuffer raw) {}

  /**
   * An order whose components carry their logical types by {@code @AvroSchema} but hold the underlying values
   * (issue 49 item 14).
   */
  public record Order(
      @AvroSchema("{\"type\":\"int\",\"logicalType\":\"date\"}") int birthday,
      @AvroSchema("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}") long placedAt,
      @AvroSchema("{\"type\":\"string\",\"logicalType\":\"uuid\"}") String id,
      @AvroSchema("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}")
      ByteBuffer amount) {}

  /** Components of type {@code Object} with logical types: they can hold either form, and take the conversion. */
  public record Loose(
      @AvroSchema("{\"type\":\"int\",\"logicalType\":\"date\"}") Object day,
      @AvroSchema("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}") Object at) {}

  /** A fixed of four bytes, in Avro reflection's own form. */
  @FixedSize(4)
  public static class Four extends JavaRecordProperties.Bytes {
    private static final long serialVersionUID = 1L;
    private static final Schema SCHEMA = Schema.createFixed("Four", null, NAMESPACE, 4);

    /** An empty one, for Avro. */
    public Four() {
      super(new byte[4]);
    }

    /** These bytes. */
    public Four(byte[] bytes) {
      super(bytes);
    }

    @Override
    public Schema getSchema() {
      return SCHEMA;
    }
  }

  /** A record with a fixed component. */
  public record Tagged(String name, Four tag) {}

  /** A holder of a nested record class. */
  public static final class Outer {
    private Outer() {}

    /** A static nested record. */
    public record Inner(String name, int rank) {}
  }

  /** The narrow primitives, which Avro's reflection writes as ints. */
  public record Narrow(char letter, byte small, Character boxedLetter, Byte boxedSmall, short tiny) {}

  /** A nullable string whose union puts null second. */
  public record NullSecond(
      @AvroSchema("[\"string\",\"null\"]") String text,
      @AvroSchema("[\"long\",\"null\"]") Long count) {}

  @AfterEach
  void close() {
    serdes.close();
  }

  private Object roundTrip(Object record, boolean fastCodec, boolean logicalTypes) {
    String topic = record.getClass().getSimpleName() + fastCodec + logicalTypes;
    byte[] bytes = serdes.serializer("schema.reflection", true, "avro.fast.codec", fastCodec,
        "avro.use.logical.type.converters", logicalTypes).serialize(topic, record);
    return serdes.deserializer("schema.reflection", true, "avro.fast.codec", fastCodec,
        "avro.use.logical.type.converters", logicalTypes).deserialize(topic, bytes);
  }

  /**
   * A record of {@code own}'s schema (an {@code id} and a {@code note}) with id -3, written generic to {@code topic}
   * after the application wrote {@code own} once to {@code <topic>-own} (which makes Kavro read into its class).
   */
  private byte[] withNegativeId(String topic, Object own) {
    serdes.serializer("schema.reflection", true).serialize(topic + "-own", own);
    Schema schema = serdes.registry().latestVersion(topic + "-own-value").schema();
    GenericRecord negative = new GenericData.Record(schema);
    negative.put("id", -3L);
    negative.put("note", "n");
    return serdes.serializer().serialize(topic, negative);
  }

  private static boolean causedByLinkage(Throwable thrown) {
    for (Throwable cause = thrown.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof LinkageError) {
        return true;
      }
    }
    return false;
  }

  /** Data written before the reader's record had a component: the old shape, under the record's own name. */
  private byte[] writeOld(String topic, String name, Object trusted) {
    // The application writes its record once, which is what makes Kavro read into its class.
    serdes.serializer("schema.reflection", true).serialize(topic + "-own", trusted);
    Schema old = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"" + name + "\",\"namespace\":\""
        + NAMESPACE + "\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"note\",\"type\":\"string\"}]}");
    GenericRecord record = new GenericData.Record(old);
    record.put("id", 42L);
    record.put("note", "before");
    return serdes.serializer().serialize(topic, record);
  }

  /** The write and the read decide alike for an {@code Object} component: the logical type's Java value. */
  @ParameterizedTest
  @CsvSource({"true", "false"})
  void objectComponentsOfLogicalTypes_readBackAsTheLogicalTypesJavaValues(boolean fastCodec) {
    Loose loose = new Loose(LocalDate.of(2024, 2, 29), Instant.ofEpochMilli(1_700_000_000_123L));

    assertThat(roundTrip(loose, fastCodec, true)).isEqualTo(loose);
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void recordGainsComponentsWithDefaults_oldDataReadsWithTheDefaults(boolean fastCodec) {
    byte[] old = writeOld("defaulted", "Defaulted", new Defaulted(1, 2, 3.0, "own"));

    Object read = serdes.deserializer("schema.reflection", true, "avro.fast.codec", fastCodec)
        .deserialize("defaulted", old);

    assertThat(read).isEqualTo(new Defaulted(42, 7, 1.5, "before"));
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void recordGainsComponentWithoutDefault_resolutionErrorNamesTheField(boolean fastCodec) {
    byte[] old = writeOld("wide", "Wide", new Wide(1, 2, "own"));

    assertThatThrownBy(() -> serdes.deserializer("schema.reflection", true, "avro.fast.codec", fastCodec)
        .deserialize("wide", old))
        .isInstanceOf(SchemaResolutionException.class)
        .hasMessageContaining("qty");
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void canonicalConstructorThrows_errorNamesTheClassAndCause_notCorrupt(boolean fastCodec) {
    byte[] bytes = withNegativeId("checked", new Checked(1, "own"));
    KafkaAvroDeserializer deserializer = serdes.deserializer("schema.reflection", true,
        "avro.fast.codec", fastCodec);

    assertThatThrownBy(() -> deserializer.deserialize("checked", bytes))
        .isInstanceOf(SerializationException.class)
        .isNotInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining(Checked.class.getName())
        .hasMessageContaining("negative id -3")
        .hasMessageNotContaining("corrupt");
  }

  /**
   * A Java record whose constructor uses a class that fails to link or initialize: the deployment's fault, named as
   * such (a {@code SchemaResolutionException}), neither the application refusing the values nor a corrupt record;
   * the first record (an {@code ExceptionInInitializerError}) and the next ({@code NoClassDefFoundError}) alike.
   */
  @ParameterizedTest
  @CsvSource({"true", "false"})
  void canonicalConstructorFailsToLink_isADeploymentFault_notCorrupt(boolean fastCodec) {
    byte[] bytes = withNegativeId("late", new LinksLate(1, "own"));
    KafkaAvroDeserializer deserializer = serdes.deserializer("schema.reflection", true,
        "avro.fast.codec", fastCodec);

    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> deserializer.deserialize("late", bytes))
          .isInstanceOf(SchemaResolutionException.class)
          .hasMessageContaining(LinksLate.class.getName().replace('$', '.'))
          .hasMessageContaining("failed to link or initialize")
          .hasMessageNotContaining("corrupt Avro body");
    }
  }

  /**
   * A fixed component's class, or a class built from its text, that fails to link while a record is read is the
   * deployment's fault as the canonical constructor's is: a {@link SchemaResolutionException}, never the values'
   * refusal nor a corrupt record, for the record and the next.
   */
  @ParameterizedTest
  @CsvSource({"true", "false"})
  void aComponentsClassFailsToLink_isADeploymentFault_notTheValues(boolean fastCodec) {
    serdes.serializer("schema.reflection", true).serialize("late-fixed-own",
        new LateTagged("t", new LateFour(new byte[] {1, 2, 3, 4})));
    serdes.serializer("schema.reflection", true).serialize("late-text-own", new LateLinked(1, new LateText("ok")));
    Schema tagged = serdes.registry().latestVersion("late-fixed-own-value").schema();
    Schema linked = serdes.registry().latestVersion("late-text-own-value").schema();
    GenericRecord negative = new GenericData.Record(tagged);
    negative.put("name", "n");
    negative.put("tag", new GenericData.Fixed(tagged.getField("tag").schema(), new byte[] {-1, 2, 3, 4}));
    GenericRecord dashed = new GenericData.Record(linked);
    dashed.put("id", 2L);
    dashed.put("link", "-dashed");
    byte[] fixedBytes = serdes.serializer().serialize("late-fixed", negative);
    byte[] textBytes = serdes.serializer().serialize("late-text", dashed);
    KafkaAvroDeserializer deserializer = serdes.deserializer("schema.reflection", true,
        "avro.fast.codec", fastCodec);

    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> deserializer.deserialize("late-fixed", fixedBytes)).as("the fixed, try %d", i)
          .isInstanceOf(SchemaResolutionException.class).hasMessageContaining("failed to link or initialize")
          .hasMessageNotContaining("corrupt Avro body").hasMessageNotContaining("cannot construct")
          .matches(JavaRecordTypesTest::causedByLinkage, "caused by a LinkageError");
      assertThatThrownBy(() -> deserializer.deserialize("late-text", textBytes)).as("the text, try %d", i)
          .isInstanceOf(SchemaResolutionException.class).hasMessageContaining("failed to link or initialize")
          .hasMessageNotContaining("corrupt Avro body").hasMessageNotContaining("cannot build")
          .matches(JavaRecordTypesTest::causedByLinkage, "caused by a LinkageError");
    }
    assertThat(((LateTagged) deserializer.deserialize("late-fixed-own", serdes.serializer("schema.reflection", true)
        .serialize("late-fixed-own", new LateTagged("t", new LateFour(new byte[] {1, 2, 3, 4}))))).tag().bytes())
        .as("a good record of the same classes").containsExactly(1, 2, 3, 4);
    assertThat(((LateLinked) deserializer.deserialize("late-text-own", serdes.serializer("schema.reflection", true)
        .serialize("late-text-own", new LateLinked(1, new LateText("ok"))))).link()).hasToString("ok");
  }

  /**
   * Review of issue 49, item 5: on a route with rules (which may have decrypted the value), the constructor's
   * refusal is named by its class only: the value it quotes is in no message of the chain.
   */
  @ParameterizedTest
  @CsvSource({"true", "false"})
  void canonicalConstructorThrows_onARouteWithRules_quotesNoValue(boolean fastCodec) {
    try (Serdes ruled = new Serdes("rule.executors", "xor", "rule.executors.xor.class",
        RulesTest.Xor.class.getName())) {
      ruled.serializer("schema.reflection", true).serialize("checked-own", new Checked(1, "own"));
      Schema schema = ruled.registry().latestVersion("checked-own-value").schema();
      io.kavro.registry.mock.MockRegistries.scope(ruled.scope).register("checked-value", schema, java.util.List.of(),
          Contracts.encoding(Contracts.rule("xor", io.kavro.registry.contract.Rule.Kind.TRANSFORM,
              io.kavro.registry.contract.Rule.Mode.WRITEREAD, "XOR", "90")));
      GenericRecord negative = new GenericData.Record(schema);
      negative.put("id", -3L);
      negative.put("note", "n");
      byte[] bytes = ruled.serializer().serialize("checked", negative);
      KafkaAvroDeserializer deserializer = ruled.deserializer("schema.reflection", true,
          "avro.fast.codec", fastCodec);

      Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
          () -> deserializer.deserialize("checked", bytes));
      assertThat(refused).isInstanceOf(SerializationException.class)
          .isNotInstanceOf(MalformedPayloadException.class).hasMessageContaining("JavaRecordConstructionException");
      for (Throwable t = refused; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).as("the message of %s", t.getClass().getName())
            .doesNotContain("negative id");
      }
    }
  }

  /**
   * Review of issue 49, item 5: a text that its Java type refuses ("cannot build a java.net.URI from the text ...")
   * is quoted without rules, and on a route with rules quoted nowhere.
   */
  @ParameterizedTest
  @CsvSource({"true", "false"})
  void textItsJavaTypeRefuses_onARouteWithRules_quotesNoValue(boolean fastCodec) {
    try (Serdes ruled = new Serdes("rule.executors", "xor", "rule.executors.xor.class",
        RulesTest.Xor.class.getName())) {
      ruled.serializer("schema.reflection", true).serialize("linked-own", new Linked(1, java.net.URI.create("h:x")));
      Schema schema = ruled.registry().latestVersion("linked-own-value").schema();
      io.kavro.registry.mock.MockRegistries.scope(ruled.scope).register("linked-value", schema, java.util.List.of(),
          Contracts.encoding(Contracts.rule("xor", io.kavro.registry.contract.Rule.Kind.TRANSFORM,
              io.kavro.registry.contract.Rule.Mode.WRITEREAD, "XOR", "90")));
      GenericRecord bad = new GenericData.Record(schema);
      bad.put("id", 2L);
      bad.put("link", "not a uri secret-77");
      byte[] plain = ruled.serializer().serialize("linked-own", bad);
      byte[] ruledBytes = ruled.serializer().serialize("linked", bad);
      KafkaAvroDeserializer deserializer = ruled.deserializer("schema.reflection", true,
          "avro.fast.codec", fastCodec);

      assertThatThrownBy(() -> deserializer.deserialize("linked-own", plain)).hasMessageContaining("secret-77");
      Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
          () -> deserializer.deserialize("linked", ruledBytes));
      assertThat(refused).isInstanceOf(SerializationException.class);
      for (Throwable t = refused; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).as("the message of %s", t.getClass().getName())
            .doesNotContain("secret-77");
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"true,false", "true,true", "false,false", "false,true"})
  void javaTypesOfLogicalTypes_roundTripInBothSettings(boolean fastCodec, boolean logicalTypes) {
    Times times = new Times(new BigDecimal("-12.340"), LocalDate.of(2024, 2, 29), LocalTime.of(23, 59, 58, 123_000_000),
        Instant.ofEpochMilli(1_700_000_000_123L), LocalDateTime.of(1969, 12, 31, 23, 0, 1, 5_000_000),
        UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));

    assertThat(roundTrip(times, fastCodec, logicalTypes)).isEqualTo(times);
    Schema schema = serdes.registry().latestVersion("Times" + fastCodec + logicalTypes + "-value").schema();
    assertThat(schema.getField("date").schema().getLogicalType().getName()).isEqualTo("date");
    assertThat(schema.getField("time").schema().getLogicalType().getName()).isEqualTo("time-millis");
    assertThat(schema.getField("at").schema().getLogicalType().getName()).isEqualTo("timestamp-millis");
    assertThat(schema.getField("local").schema().getLogicalType().getName()).isEqualTo("local-timestamp-millis");
    assertThat(schema.getField("id").schema().getLogicalType().getName()).isEqualTo("uuid");
    assertThat(schema.getField("amount").schema().getType()).isEqualTo(Schema.Type.STRING);
  }

  @ParameterizedTest
  @CsvSource({"true,false", "true,true", "false,false", "false,true"})
  void decimalsOfASchema_roundTripAsBigDecimalAndAsBytes(boolean fastCodec, boolean logicalTypes) {
    Decimals decimals = new Decimals(new BigDecimal("1234.56"), ByteBuffer.wrap(new byte[] {0x01, (byte) 0xE2, 0x40}));

    Decimals read = (Decimals) roundTrip(decimals, fastCodec, logicalTypes);

    assertThat(read.amount()).isEqualTo(new BigDecimal("1234.56"));
    assertThat(read.raw()).isEqualTo(ByteBuffer.wrap(new byte[] {0x01, (byte) 0xE2, 0x40}));
  }

  @ParameterizedTest
  @CsvSource({"true,false", "true,true", "false,false", "false,true"})
  void underlyingValuesOfLogicalTypes_readBackAsTheComponentsHoldThem(boolean fastCodec, boolean logicalTypes) {
    // 0x00 0x01 0xE2 0x40 is 1234.56 with a sign byte more than the fewest: read back as written, not re-encoded.
    Order order = new Order(19_782, 1_700_000_000_123L, "123e4567-e89b-12d3-a456-426614174000",
        ByteBuffer.wrap(new byte[] {0x00, 0x01, (byte) 0xE2, 0x40}));

    Order read = (Order) roundTrip(order, fastCodec, logicalTypes);

    assertThat(read).isEqualTo(order);
    Schema schema = serdes.registry().latestVersion("Order" + fastCodec + logicalTypes + "-value").schema();
    assertThat(schema.getField("birthday").schema().getLogicalType().getName()).isEqualTo("date");
    assertThat(schema.getField("amount").schema().getLogicalType().getName()).isEqualTo("decimal");
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void fixedComponent_readsBackAsItsClass(boolean fastCodec) {
    Tagged tagged = new Tagged("t", new Four(new byte[] {1, 2, 3, (byte) 0xFF}));

    Tagged read = (Tagged) roundTrip(tagged, fastCodec, false);

    assertThat(read.name()).isEqualTo("t");
    assertThat(read.tag()).isInstanceOf(Four.class);
    assertThat(read.tag().bytes()).containsExactly(1, 2, 3, (byte) 0xFF);
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void nestedRecordClass_readsBackAsItself(boolean fastCodec) {
    Outer.Inner inner = new Outer.Inner("n", 3);

    assertThat(roundTrip(inner, fastCodec, false)).isEqualTo(inner);
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void charAndByteComponents_readBackWithoutSignExtension(boolean fastCodec) {
    for (Narrow narrow : new Narrow[] {
        new Narrow('é', (byte) -1, '\uFFFF', (byte) 200, (short) -2),
        new Narrow('\uFFFF', (byte) 200, 'é', (byte) -128, Short.MIN_VALUE),
        new Narrow('\u0000', (byte) 127, '\u20AC', (byte) 0, Short.MAX_VALUE)}) {
      assertThat(roundTrip(narrow, fastCodec, false)).isEqualTo(narrow);
    }
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void nullSecondUnions_keepTheirValue(boolean fastCodec) {
    assertThat(roundTrip(new NullSecond("hi", 5L), fastCodec, false)).isEqualTo(new NullSecond("hi", 5L));
    assertThat(roundTrip(new NullSecond(null, null), fastCodec, false)).isEqualTo(new NullSecond(null, null));
  }
}
