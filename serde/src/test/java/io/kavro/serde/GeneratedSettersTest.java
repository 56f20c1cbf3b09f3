package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.test.specific.Customer;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * The setters a spun reader stores a generated class's string fields through ({@link GeneratedSetters}): taken
 * only where one does exactly what {@code put} does, and a read through them the same as Avro's specific reader's,
 * which stores every field by {@code put}.
 */
class GeneratedSettersTest {
  private static final SpecificData MODEL = new SpecificData();
  private static final int UTF8 = LeafDecoders.kindOf(LeafDecoders.UTF8);
  private static final int NULLABLE_UTF8 = LeafDecoders.kindOf(LeafDecoders.NULLABLE_UTF8);
  private static final int INT = LeafDecoders.kindOf(LeafDecoders.INT);

  static {
    ClassTrust.trustGenerated(SetterRecord.class, SetterRecord.SCHEMA); // as the planner does before compiling
  }

  @Test
  void aSetterIsTakenOnlyWhereItStoresAsPut() {
    GenericData.InstanceSupplier supplier = (old, schema) -> new SetterRecord();

    List<Method> setters = GeneratedSetters.of(SetterRecord.class, supplier, SetterRecord.SCHEMA,
        new int[] {UTF8, NULLABLE_UTF8, UTF8, INT, UTF8, NULLABLE_UTF8}, new int[] {0, 1, 2, 3, 4, 5});

    assertThat(setters).hasSize(6);
    assertThat(setters.get(0)).extracting(Method::getName).isEqualTo("setFirstName");
    assertThat(setters.get(1)).as("setNick stores another value").isNull();
    assertThat(setters.get(2)).as("setOther changes another field").isNull();
    assertThat(setters.get(3)).as("an int: no string leaf").isNull();
    assertThat(setters.get(4)).as("setAlias stores into another field").isNull();
    assertThat(setters.get(5)).extracting(Method::getName).isEqualTo("setMiddle");
  }

  @Test
  void aSkippedFieldHasNoSetter_andNoneAtAllIsNull() {
    GenericData.InstanceSupplier supplier = (old, schema) -> new SetterRecord();

    assertThat(GeneratedSetters.of(SetterRecord.class, supplier, SetterRecord.SCHEMA, new int[] {UTF8, INT},
        new int[] {-1, 3})).isNull();
  }

  @Test
  void readThroughTheSetters_asAvrosSpecificReaderReadsIt() throws IOException {
    SetterRecord record = new SetterRecord();
    record.put(0, new Utf8("Ada"));
    record.put(1, new Utf8("ada"));
    record.put(2, new Utf8("other"));
    record.put(3, 36);
    record.put(4, new Utf8("alias"));
    record.put(5, null); // through setMiddle
    byte[] bytes = AvroBytes.written(new SpecificDatumWriter<>(SetterRecord.SCHEMA, MODEL), record);

    CompiledDecoder decoder = DecoderCompiler.compile(SetterRecord.SCHEMA, SetterRecord.SCHEMA, MODEL);
    Object read = decoder.decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length));

    assertThat(decoder.getClass().getName()).startsWith(SpunReaderClassFile.NAME.replace('/', '.') + "/");
    Object avro = new SpecificDatumReader<>(SetterRecord.SCHEMA, SetterRecord.SCHEMA, MODEL).read(null,
        DecoderFactory.get().binaryDecoder(bytes, null));
    assertThat(read).isInstanceOf(SetterRecord.class).isEqualTo(avro).isEqualTo(record);
    assertThat(((SetterRecord) read).get(1)).hasToString("ada");
  }

  @Test
  void aPutThatConverts_keepsPut_andTheValuesAreAvros() throws IOException {
    ClassTrust.trustGenerated(ConvertingPutRecord.class, ConvertingPutRecord.SCHEMA);
    GenericData.InstanceSupplier supplier = (old, schema) -> new ConvertingPutRecord();
    assertThat(GeneratedSetters.of(ConvertingPutRecord.class, supplier, ConvertingPutRecord.SCHEMA,
        new int[] {UTF8, NULLABLE_UTF8}, new int[] {0, 1})).as("put converts a string, and a null note").isNull();
    ConvertingPutRecord record = new ConvertingPutRecord();
    record.put(0, "a name");
    record.setNote(null); // written as null: read back, Avro's reader puts the null, which put makes ""
    byte[] bytes = AvroBytes.written(new SpecificDatumWriter<>(ConvertingPutRecord.SCHEMA, MODEL), record);

    Object read = DecoderCompiler.compile(ConvertingPutRecord.SCHEMA, ConvertingPutRecord.SCHEMA, MODEL)
        .decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length));

    Object avro = new SpecificDatumReader<>(ConvertingPutRecord.SCHEMA, ConvertingPutRecord.SCHEMA, MODEL)
        .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    // equals compares strings by their text: the classes are what a setter taken here would change
    assertThat(((ConvertingPutRecord) read).get(0)).isEqualTo(((ConvertingPutRecord) avro).get(0))
        .isInstanceOf(String.class);
    assertThat(((ConvertingPutRecord) read).get(1)).isEqualTo(((ConvertingPutRecord) avro).get(1)).hasToString("");
  }

  @Test
  void aClassWithSetters_getsAClassOfItsOwn_notTheShapes() throws IOException {
    org.apache.avro.Schema generic = new org.apache.avro.Schema.Parser().parse(SetterRecord.SCHEMA.toString()
        .replace("SetterRecord", "SameShapeGeneric"));
    GenericData genericModel = new GenericData();
    Class<?> withSetters = DecoderCompiler.compile(SetterRecord.SCHEMA, SetterRecord.SCHEMA, MODEL).getClass();
    CompiledDecoder shape = DecoderCompiler.compile(generic, generic, genericModel);

    assertThat(shape.getClass()).isNotSameAs(withSetters);
    assertThat(shape.getClass().getName()).startsWith(SpunReaderClassFile.NAME.replace('/', '.') + "/");
    GenericData.Record datum = new GenericData.Record(generic);
    for (int i = 0; i < 6; i++) {
      datum.put(i, i == 3 ? (Object) 7 : new Utf8("v" + i));
    }
    byte[] bytes = AvroBytes.written(new org.apache.avro.generic.GenericDatumWriter<>(generic, genericModel), datum);
    assertThat(shape.decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length))).isEqualTo(datum);
  }

  @Test
  void singleStores_readFromTheClassFile() {
    assertThat(GeneratedSetters.singleStores(SetterRecord.class)).contains(
        "setFirstName(Ljava/lang/CharSequence;)V", "setAlias(Ljava/lang/CharSequence;)V",
        "setMiddle(Ljava/lang/CharSequence;)V")
        .as("more code than a store; two stores").doesNotContain("setNick(Ljava/lang/CharSequence;)V",
            "setOther(Ljava/lang/CharSequence;)V");
    // avro-maven-plugin's own setters, as it generates them
    assertThat(GeneratedSetters.singleStores(Customer.class)).contains("setName(Ljava/lang/String;)V");
  }

  @Test
  void camelCase_asAvroMavenPluginNamesAccessors() {
    assertThat(GeneratedSetters.camelCase("name")).isEqualTo("Name");
    assertThat(GeneratedSetters.camelCase("first_name")).isEqualTo("FirstName");
    assertThat(GeneratedSetters.camelCase("f0")).isEqualTo("F0");
    assertThat(GeneratedSetters.camelCase("createdAt")).isEqualTo("CreatedAt");
  }
}
