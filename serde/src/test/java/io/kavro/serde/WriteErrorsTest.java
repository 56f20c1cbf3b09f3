package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.test.specific.Address;
import io.kavro.test.specific.Customer;
import io.kavro.test.specific.Zip;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A datum that does not fit its schema fails naming the value: its path, the type expected there and the value with
 * its class, as Avro's writer says it (issue 37, item 3); on the compiled codec and on Avro's
 * ({@code avro.fast.codec=false}), for generic data, generated classes and Java records.
 */
class WriteErrorsTest {
  private static final Schema PAYMENT = new Schema.Parser().parse("""
      {"type":"record","name":"Payment","namespace":"com.example.avro","fields":[
        {"name":"amount","type":"double"},
        {"name":"currency","type":{"type":"enum","name":"Currency","symbols":["EUR","USD"]},"default":"EUR"},
        {"name":"note","type":["null","string"],"default":null}]}""");
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.example.avro","fields":[
        {"name":"id","type":"string"},
        {"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[
          {"name":"sku","type":"string"},{"name":"price","type":"double"}]}}},
        {"name":"extras","type":{"type":"map","values":"double"},"default":{}}]}""");
  private static final Schema PRICE = new Schema.Parser().parse("""
      {"type":"record","name":"Price","namespace":"com.example.avro","fields":[
        {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}}]}""");

  private final Serdes serdes = new Serdes();

  /** A line of a basket, written by reflection. */
  public record Item(String sku, double price) {}

  /** A basket of items, written by reflection. */
  public record Basket(String id, List<Item> items) {}

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord payment() {
    GenericRecord payment = new GenericData.Record(PAYMENT);
    payment.put("amount", 10.0);
    payment.put("currency", new GenericData.EnumSymbol(PAYMENT.getField("currency").schema(), "EUR"));
    return payment;
  }

  private static GenericRecord order(Object thirdPrice) {
    Schema line = ORDER.getField("lines").schema().getElementType();
    List<GenericRecord> lines = new java.util.ArrayList<>();
    for (Object price : new Object[] {1.0, 2.0, thirdPrice}) {
      GenericRecord item = new GenericData.Record(line);
      item.put("sku", "sku-" + lines.size());
      item.put("price", price);
      lines.add(item);
    }
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", "o-1");
    order.put("lines", lines);
    order.put("extras", Map.of());
    return order;
  }

  private KafkaAvroSerializer serializer(boolean fastCodec, Object... more) {
    Object[] config = java.util.Arrays.copyOf(more, more.length + 2);
    config[more.length] = "avro.fast.codec";
    config[more.length + 1] = fastCodec;
    return serdes.serializer(config);
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void wrongClass_namesFieldTypeAndValue(boolean fastCodec) {
    GenericRecord r = payment();
    r.put("amount", "ten");

    assertThatThrownBy(() -> serializer(fastCodec).serialize("payments", r))
        .isInstanceOf(SerializationException.class)
        .hasCauseInstanceOf(ClassCastException.class)
        .hasMessageContaining("value of topic 'payments'")
        .hasMessageContaining("value ten (a java.lang.String) does not match expected type double at Payment.amount");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void failure_leavesNoTrace(boolean fastCodec) {
    KafkaAvroSerializer serializer = serializer(fastCodec);
    GenericRecord bad = payment();
    bad.put("amount", "ten");
    byte[] expected = serializer.serialize("payments", payment());

    assertThatThrownBy(() -> serializer.serialize("payments", bad)).isInstanceOf(SerializationException.class);

    assertThat(serializer.serialize("payments", payment())).isEqualTo(expected);
  }

  /**
   * A class the datum's code uses that fails to link (here the record's own {@code get}) is thrown as it is, the
   * deployment's fault that no handler may skip as a bad record, and leaves no trace. With Avro's writer
   * ({@code avro.fast.codec=false}) its encoder held the fields written before it, which the next record on the
   * thread would have carried; the compiled codec writes into the sink that each record resets.
   */
  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void aClassThatFailsToLink_isThrownAsItIs_andLeavesNoTrace(boolean fastCodec) {
    KafkaAvroSerializer serializer = serializer(fastCodec);
    byte[] expected = serializer.serialize("payments", payment());

    assertThatThrownBy(() -> serializer.serialize("payments", new Unlinked(payment())))
        .isInstanceOf(NoClassDefFoundError.class);

    assertThat(serializer.serialize("payments", payment())).isEqualTo(expected);
  }

  /** A record whose last field's {@code get} fails as a class missing at run time would. */
  private static final class Unlinked extends GenericData.Record {
    Unlinked(GenericRecord of) {
      super((GenericData.Record) of, true);
    }

    @Override
    public Object get(int field) {
      if (field == 2) {
        throw new NoClassDefFoundError("com/acme/Missing");
      }
      return super.get(field);
    }
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void nestedArrayItem_namesItsPath(boolean fastCodec) {
    assertThatThrownBy(() -> serializer(fastCodec).serialize("orders", order("free")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("value free (a java.lang.String) does not match expected type double at "
            + "Order.lines[2].price");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void mapValue_namesItsKey(boolean fastCodec) {
    GenericRecord order = order(3.0);
    order.put("extras", Map.of("tip", true));

    assertThatThrownBy(() -> serializer(fastCodec).serialize("orders", order))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("value true (a java.lang.Boolean) does not match expected type double at "
            + "Order.extras[\"tip\"]");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void nullInRequiredField_namesFieldAndType(boolean fastCodec) {
    GenericRecord r = payment();
    r.put("amount", null);

    assertThatThrownBy(() -> serializer(fastCodec).serialize("payments", r))
        .isInstanceOf(SerializationException.class)
        .hasCauseInstanceOf(NullPointerException.class)
        .hasMessageContaining("null value for field Payment.amount (expected double)");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void unknownEnumSymbol_namesEnumAndSymbols(boolean fastCodec) {
    GenericRecord r = payment();
    r.put("currency", new GenericData.EnumSymbol(PAYMENT.getField("currency").schema(), "GBP"));

    assertThatThrownBy(() -> serializer(fastCodec).serialize("payments", r))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("value GBP (a org.apache.avro.generic.GenericData$EnumSymbol) does not match expected "
            + "type enum com.example.avro.Currency at Payment.currency: not one of its symbols [EUR, USD]");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void noUnionBranch_namesTheUnion(boolean fastCodec) {
    GenericRecord r = payment();
    r.put("note", 5);

    assertThatThrownBy(() -> serializer(fastCodec).serialize("payments", r))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("value 5 (a java.lang.Integer) does not match expected type union [null, string] at "
            + "Payment.note");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void decimalOfAnotherScale_namesTheLogicalType(boolean fastCodec) {
    GenericRecord price = new GenericData.Record(PRICE);
    price.put("amount", new BigDecimal("1.005"));

    assertThatThrownBy(() -> serializer(fastCodec, "avro.use.logical.type.converters", true)
        .serialize("prices", price))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("value 1.005 (a java.math.BigDecimal) does not match expected type decimal(10,2) at "
            + "Price.amount: ");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void longValue_shownCut(boolean fastCodec) {
    GenericRecord r = payment();
    String text = "x".repeat(WriteDiagnosis.SHOWN) + "SECRET-TAIL";
    r.put("amount", text);

    assertThatThrownBy(() -> serializer(fastCodec).serialize("payments", r))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("value " + "x".repeat(WriteDiagnosis.SHOWN) + "... (a java.lang.String)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("SECRET-TAIL"));
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void generatedClass_nullInRequiredField(boolean fastCodec) {
    Customer customer = DeserializerTest.customer();
    customer.setName(null);

    assertThatThrownBy(() -> serializer(fastCodec).serialize("customers", customer))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("the io.kavro.test.specific.Customer does not match its schema")
        .hasMessageContaining("null value for field Customer.name (expected string)");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void generatedClass_shortFixedInUnionBranch(boolean fastCodec) {
    Customer customer = DeserializerTest.customer();
    customer.setAddress(new Address("Main St 1", new Zip(new byte[] {1, 2, 3})));

    assertThatThrownBy(() -> serializer(fastCodec).serialize("customers", customer))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("(a io.kavro.test.specific.Zip) does not match expected type fixed "
            + "io.kavro.test.specific.Zip (5 bytes) at Customer.address.zip: it has 3 bytes, not 5");
  }

  @ParameterizedTest(name = "avro.fast.codec={0}")
  @ValueSource(booleans = {true, false})
  void javaRecord_nullComponentInList(boolean fastCodec) {
    Basket basket = new Basket("b-1", List.of(new Item("a", 1.0), new Item(null, 2.0)));

    assertThatThrownBy(() -> serializer(fastCodec, "schema.reflection", true).serialize("baskets", basket))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("the " + Basket.class.getTypeName() + " does not match its schema")
        .hasMessageContaining("null value for field Basket.items[1].sku (expected string)");
  }

  @Test
  void explain_withoutValues_namesTheClassAlone() {
    GenericRecord order = order(3.0);
    order.put("extras", Map.of("card-4111", "secret"));

    String why = WriteDiagnosis.explain(ORDER, order, GenericData.get(), false);

    assertThat(why).isEqualTo("a value (a java.lang.String) does not match expected type double at "
        + "Order.extras[\"...\"]");
  }

  @Test
  void explain_datumThatFits_findsNothing() {
    assertThat(WriteDiagnosis.explain(ORDER, order(3.0), GenericData.get(), true)).isNull();
  }
}
