package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which fields a field rule (CEL_FIELD, ENCRYPT) applies to, through the serializer and the deserializer on
 * {@code mock://}: the fields its tags select (inline {@code confluent:tags} or the contract's {@code metadata.tags}),
 * every primitive field when it has none; the other fields are neither evaluated nor changed. As in Confluent's Java
 * serde, a condition reads an unselected field's own value as its result: an untagged boolean {@code false} fails it,
 * naming that field (the benchmark's report: a condition on {@code PII} failed the records whose untagged
 * {@code active} was false), and a guard on the tags checks the tagged fields only.
 */
class FieldSelectionEndToEndTest {
  /** {@code name}: PII by the contract's metadata.tags; {@code email}: PII inline; the rest untagged. */
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"io.kavro.sel","fields":[
        {"name":"name","type":"string"},
        {"name":"email","type":"string","confluent:tags":["PII"]},
        {"name":"active","type":"boolean"},
        {"name":"count","type":"int"},
        {"name":"note","type":"string"},
        {"name":"nickname","type":["null","string"],"default":null},
        {"name":"address","type":{"type":"record","name":"Address","fields":[
          {"name":"city","type":"string"},{"name":"verified","type":"boolean"}]}}]}""");
  private static final Metadata NAME_IS_PII = new Metadata(Map.of("**.name", Set.of("PII")), Map.of(), Set.of());
  private static final Map<String, String> KMS = Map.of("encrypt.kek.name", "kek1", "encrypt.kms.type", "local-kms",
      "encrypt.kms.key.id", "key1");
  private static final String SECRET = Serdes.PARAM + "secret";

  private final String scope = "field-selection-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);
  /** The id {@link #register} got. */
  private int id;

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private KafkaAvroSerializer serializer() {
    return serializer(Map.of());
  }

  private KafkaAvroDeserializer deserializer() {
    return deserializer(Map.of());
  }

  private KafkaAvroSerializer serializer(Map<String, ?> more) {
    return Serdes.serializer(Serdes.config(scope, more));
  }

  private KafkaAvroDeserializer deserializer(Map<String, ?> more) {
    return Serdes.deserializer(Serdes.config(scope, more));
  }

  private void register(Rule.Kind kind, Rule.Mode mode, String type, Set<String> tags, Map<String, String> params,
      String expr) {
    Rule rule = new Rule("checked", null, kind, mode, type, tags, params, expr, null, null, false);
    id = registry.register("orders-value", ORDER, List.of(), new DataContract(NAME_IS_PII,
        new RuleSet(List.of(), List.of(rule), List.of(), null)));
  }

  /** An order whose untagged fields hold every value a walk could mistake for a verdict: false, 0, "", null. */
  private static GenericRecord order(String name, String email) {
    GenericRecord address = new GenericData.Record(ORDER.getField("address").schema());
    address.put("city", "");
    address.put("verified", false);
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("name", name);
    order.put("email", email);
    order.put("active", false);
    order.put("count", 0);
    order.put("note", "");
    order.put("nickname", null);
    order.put("address", address);
    return order;
  }

  /**
   * {@link #order} with its untagged booleans true: a condition reads an unselected field's own value as its result,
   * as Confluent's Java serde does, so an untagged false would fail it.
   */
  private static GenericRecord trueOrder(String name, String email) {
    GenericRecord order = order(name, email);
    order.put("active", true);
    ((GenericRecord) order.get("address")).put("verified", true);
    return order;
  }

  /** {@link #order} with non-empty untagged strings, to see them in clear. */
  private static GenericRecord plainOrder() {
    GenericRecord order = order("ann", "ann@example.com");
    order.put("note", "gift wrap");
    order.put("nickname", "annie");
    ((GenericRecord) order.get("address")).put("city", "Oslo");
    return order;
  }

  /** The Confluent framing of {@code record} under the registered id, encoded by Avro's own writer. */
  private byte[] framed(GenericRecord record) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(ByteBuffer.allocate(5).put((byte) 0).putInt(id).array());
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
      new GenericDatumWriter<GenericRecord>(ORDER).write(record, encoder);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void celFieldCondition_byTag_passesUntaggedZeroEmptyAndNull_onWriteAndRead() {
    register(Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CEL_FIELD", Set.of("PII"), Map.of(), "size(value) > 0");
    GenericRecord order = trueOrder("ann", "ann@example.com");

    byte[] written = serializer().serialize("orders", order);

    assertThat(written).as("as Confluent's framing and Avro's encoding").isEqualTo(framed(order));
    assertThat(deserializer().deserialize("orders", written)).isEqualTo(order);
  }

  @Test
  void celFieldCondition_byTag_failsOnAnUntaggedFalse_asConfluentsJavaSerde() {
    // Confluent's Java serde (AvroSchema.toTransformedMessage at 794611b) hands an unselected field's own value back
    // as the check's result: an untagged boolean false fails the condition, naming that field. Kavro fails closed
    // the same way; a rule that checks only the tagged fields is written with a guard (the test below).
    register(Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of("PII"), Map.of(), "size(value) > 0");

    assertThatThrownBy(() -> serializer().serialize("orders", order("ann", "ann@example.com")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("condition failed on field 'io.kavro.sel.Order.active'");
  }

  @Test
  void celFieldCondition_byTag_failsOnATaggedField_namingIt() {
    register(Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of("PII"), Map.of(), "size(value) > 0");
    KafkaAvroSerializer serializer = serializer();

    assertThatThrownBy(() -> serializer.serialize("orders", order("", "ann@example.com")))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: checked")
        .hasMessageContaining("condition failed on field 'io.kavro.sel.Order.name'")
        .hasMessageNotContaining("Order.active");
    assertThatThrownBy(() -> serializer.serialize("orders", order("ann", "")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("condition failed on field 'io.kavro.sel.Order.email'");
  }

  @Test
  void celFieldCondition_withoutTags_checksEveryPrimitiveField_nestedOnesToo() {
    register(Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of(), Map.of(),
        "typeName != 'BOOLEAN' || value");
    KafkaAvroSerializer serializer = serializer();
    GenericRecord order = order("ann", "ann@example.com");

    assertThatThrownBy(() -> serializer.serialize("orders", order))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("condition failed on field 'io.kavro.sel.Order.active'");
    order.put("active", true);
    assertThatThrownBy(() -> serializer.serialize("orders", order))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("condition failed on field 'io.kavro.sel.Address.verified'");
    ((GenericRecord) order.get("address")).put("verified", true);
    assertThat(serializer.serialize("orders", order)).isEqualTo(framed(order));
  }

  @Test
  void celFieldCondition_withoutTags_guardedOnTags_checksTheTaggedFieldsOnly() {
    // The form docs/data-contracts.md gives for the same outcome on Confluent's Java serde.
    register(Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of(), Map.of(), "'PII' in tags ; size(value) > 0");
    KafkaAvroSerializer serializer = serializer();
    GenericRecord order = order("ann", "ann@example.com");

    assertThat(serializer.serialize("orders", order)).isEqualTo(framed(order));
    assertThatThrownBy(() -> serializer.serialize("orders", order("", "ann@example.com")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("condition failed on field 'io.kavro.sel.Order.name'");
  }

  @Test
  void celFieldCondition_byTag_withNameAndTypeName_seesOnlyTheTaggedFields() {
    register(Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of("PII"), Map.of(),
        "name == 'email' && typeName == 'STRING' ; value.contains('@')");
    KafkaAvroSerializer emailHasAt = serializer();
    assertThat(emailHasAt.serialize("orders", trueOrder("ann", "ann@example.com"))).isNotEmpty();
    assertThatThrownBy(() -> emailHasAt.serialize("orders", trueOrder("ann", "nope")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("condition failed on field 'io.kavro.sel.Order.email'");
  }

  @Test
  void celFieldCondition_byTag_onBooleans_passesWhenNoBooleanIsTagged() {
    // Were the untagged fields evaluated, this rule would fail an order whose untagged booleans are true too.
    register(Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of("PII"), Map.of(),
        "typeName == 'BOOLEAN' ; !value");
    GenericRecord order = trueOrder("ann", "ann@example.com");

    assertThat(serializer().serialize("orders", order)).isEqualTo(framed(order));
  }

  @Test
  void celFieldCondition_fieldNameIsNoVariable_refusedNamingTheRuleAndTheName() {
    // Confluent binds the field's name as `name`; `fieldName` is no variable of CEL_FIELD.
    register(Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of("PII"), Map.of(), "fieldName == 'email'");

    Throwable thrown = catchThrowable(() -> serializer().serialize("orders", order("ann", "ann@example.com")));

    assertThat(thrown).isInstanceOf(SerializationException.class);
    assertThat(thrown).hasStackTraceContaining("rule 'checked' (CEL_FIELD, CONDITION, WRITE)")
        .hasStackTraceContaining("cannot compile CEL expression").hasStackTraceContaining("fieldName");
  }

  @Test
  void celFieldTransform_byTag_changesTheTaggedFields_andLeavesTheOthersAsTheyWere() {
    // No guard: evaluated on a boolean or an int, `value + '-x'` would fail; on an untagged string it would show.
    register(Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "CEL_FIELD", Set.of("PII"), Map.of(), "value + '-x'");
    GenericRecord order = plainOrder();

    byte[] written = serializer().serialize("orders", order);

    GenericRecord expected = plainOrder();
    expected.put("name", "ann-x");
    expected.put("email", "ann@example.com-x");
    assertThat(written).isEqualTo(framed(expected));
    assertThat(order).as("the application's record is not changed").isEqualTo(plainOrder());
  }

  @Test
  void encrypt_byTag_encryptsTheTaggedFields_andLeavesTheOthersInClear() {
    register(Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), KMS, null);
    GenericRecord order = plainOrder();

    byte[] written = serializer(Map.of(SECRET, "s3cret")).serialize("orders", order);

    GenericRecord raw = (GenericRecord) deserializer(Map.of("rules.ignore", true)).deserialize("orders", written);
    assertThat(Base64.getDecoder().decode(raw.get("name").toString())).as("nonce 12 + 3 bytes + tag 16").hasSize(31);
    assertThat(Base64.getDecoder().decode(raw.get("email").toString())).hasSize(12 + 15 + 16);
    GenericRecord clear = plainOrder();
    clear.put("name", raw.get("name").toString());
    clear.put("email", raw.get("email").toString());
    assertThat(written).as("every untagged field as Avro writes it").isEqualTo(framed(clear));
    assertThat(deserializer(Map.of(SECRET, "s3cret")).deserialize("orders", written)).isEqualTo(plainOrder());
  }
}
