package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kavro.serde.JavaRecordProperties.Leaf;
import io.kavro.serde.JavaRecordProperties.Logical;
import io.kavro.serde.JavaRecordProperties.Scalars;
import io.kavro.serde.JavaRecordProperties.Tree;
import io.kavro.serde.JavaRecordProperties.Underlying;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.ReflectDatumWriter;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * The decoder that reads straight into Java records ({@link JavaRecordDecoderCompiler}, issue 36 item 4) against
 * Avro's generic reader followed by the conversion into the records ({@link JavaRecordReader}, the oracle), on
 * random records written with evolved writer schemas: fields reordered, fields the reader lacks (every kind,
 * records and unions included) at random places, fields the writer lacks read from the reader's defaults, promoted
 * numbers and strings, union branches and enum symbols in another order. Valid payloads read as Avro's reader reads
 * them, the whole payload consumed; mutated ones (bit flips, cuts) read or are refused exactly as on the two-step
 * compiled path (a constructor's refusal included), and what both Avro and the decoder read is the same.
 */
class JavaRecordDecoderProperties {
  private static final ReflectData MODEL = new AvroDataModels(true, false).reflect();
  private static final GenericData READ_MODEL = JavaRecordReader.readModel(MODEL);
  private static final GenericData RAW = new GenericData();

  /** A record whose canonical constructor refuses some values: an id that is a multiple of 5. */
  public record Guarded(long id, String note) {
    /** Refuses an id that is a multiple of 5. */
    public Guarded {
      if (id % 5 == 0) {
        throw new IllegalArgumentException("id " + id + " is a multiple of 5");
      }
    }
  }

  /** A refusing record before more data, which a cut payload may lack. */
  public record Holder(Guarded first, List<Leaf> rest, String tail) {}

  private static final Class<?>[] TYPES = {Leaf.class, Tree.class, Scalars.class, Holder.class, Logical.class,
      Underlying.class};

  @Test
  void evolvedWriters_readAsAvroReadsThem() {
    Property.forAll("evolvedWriters_readAsAvroReadsThem", Property.tries(400), seed -> seed,
        seed -> check(seed, false));
  }

  @Test
  void mutatedPayloads_readAsAvroOrRefusedAsTheTwoStepPath() {
    Property.forAll("mutatedPayloads_readAsAvroOrRefusedAsTheTwoStepPath", Property.tries(400), seed -> seed,
        seed -> check(seed, true));
  }

  private static void check(long seed, boolean mutate) throws IOException {
    // Mixed: java.util.Random's first draws from consecutive seeds are alike (the same type every time).
    Random random = new Random(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
    Class<?> type = TYPES[random.nextInt(TYPES.length)];
    Object record = type == Holder.class ? holder(random) : JavaRecordProperties.value(type, random, false);
    ClassTrust.trust(type, MODEL.getSchema(type)); // as the application's serializer would: Avro's writer needs it
    Schema reader = withDefaults(MODEL.getSchema(type), new HashMap<>());
    Schema writer = new Evolution(random).writer(reader);
    byte[] written = write(writer, toWriter(read(reader, reflectBytes(reader, record)), reader, writer, random));
    byte[] bytes = mutate ? mutated(written, random) : written;

    // As the read planner: the components' Java types decide which logical types convert (issue 49 item 14).
    Schema declared = DeclaredConversions.readerSchema(reader, type, MODEL);
    CompiledDecoder generic = DecoderCompiler.compile(writer, declared, READ_MODEL);
    JavaRecordReader records = new JavaRecordReader(writer, declared, type, MODEL);
    CompiledDecoder twoStep = in -> records.convert(generic.decode(in));
    CompiledDecoder direct = JavaRecordDecoderCompiler.compile(writer, declared, type, READ_MODEL, twoStep);
    assertThat(direct).as("a direct decoder for %s", writer).isNotNull();

    Outcome expected = Outcome.of(() -> records.read(null, DecoderFactory.get().binaryDecoder(bytes, null)));
    BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(bytes, 0, bytes.length);
    Outcome actual = Outcome.of(() -> direct.decode(in));
    if (!mutate) {
      assertThat(actual.text()).as("writer %s", writer).isEqualTo(expected.text());
      assertThat(expected.failure() == null
          || type == Holder.class && expected.failure() instanceof JavaRecordConstructionException)
          .as("Avro reads it, or the only constructor that refuses values refuses it: %s", expected.text()).isTrue();
      assertThat(in.isEnd() || actual.failure() != null).as("the whole payload read").isTrue();
      return;
    }
    // Avro's resolving reader checks what the compiled decoders skip (an enum index, say): as the two-step path.
    Outcome twoSteps = Outcome.of(() -> twoStep.decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length)));
    assertThat(actual.text()).as("read or refused as the two-step path; writer %s", writer)
        .isEqualTo(twoSteps.text());
    if (actual.failure() == null && expected.failure() == null) {
      assertThat(actual.text()).as("read as Avro reads; writer %s", writer).isEqualTo(expected.text());
    }
  }

  /** A holder of a guarded record that accepts its values: the payload may refuse them (see toWriter). */
  private static Holder holder(Random random) {
    List<Leaf> rest = new ArrayList<>();
    for (int i = random.nextInt(3); i > 0; i--) {
      rest.add((Leaf) JavaRecordProperties.value(Leaf.class, random, false));
    }
    return new Holder(new Guarded(random.nextInt(1000) * 5L + 1 + random.nextInt(4), "n" + random.nextInt(9)),
        rest, "t" + random.nextInt(9));
  }

  /** A value read, or the class and message of the refusal. */
  private record Outcome(Object value, Throwable failure) {
    interface Read {
      Object read() throws Exception;
    }

    static Outcome of(Read read) {
      try {
        return new Outcome(read.read(), null);
      } catch (Exception e) {
        return new Outcome(null, e);
      }
    }

    String text() {
      return failure == null ? JavaRecordProperties.show(value)
          : "refused: " + failure.getClass().getName() + ": " + failure.getMessage();
    }
  }

  /** The reader schema with defaults on its plain fields, which a writer may then lack. */
  private static Schema withDefaults(Schema schema, Map<String, Schema> done) {
    switch (schema.getType()) {
      case RECORD -> {
        Schema known = done.get(schema.getFullName());
        if (known != null) {
          return known;
        }
        Schema copy = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false);
        schema.getObjectProps().forEach(copy::addProp);
        done.put(schema.getFullName(), copy);
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : schema.getFields()) {
          Schema type = withDefaults(field.schema(), done);
          Object fallback = field.hasDefaultValue() ? field.defaultVal() : defaultOf(type);
          Schema.Field added = new Schema.Field(field.name(), type, field.doc(), fallback);
          field.getObjectProps().forEach(added::addProp);
          fields.add(added);
        }
        copy.setFields(fields);
        return copy;
      }
      case ARRAY -> {
        return copyProps(schema, Schema.createArray(withDefaults(schema.getElementType(), done)));
      }
      case MAP -> {
        return copyProps(schema, Schema.createMap(withDefaults(schema.getValueType(), done)));
      }
      case UNION -> {
        List<Schema> branches = new ArrayList<>();
        schema.getTypes().forEach(branch -> branches.add(withDefaults(branch, done)));
        return Schema.createUnion(branches);
      }
      default -> {
        return schema;
      }
    }
  }

  private static Schema copyProps(Schema from, Schema to) {
    from.getObjectProps().forEach(to::addProp);
    return to;
  }

  /** A literal default for a plain type (no logical type, no Java class), or none. */
  private static Object defaultOf(Schema type) {
    if (type.getLogicalType() != null || type.getProp("java-class") != null) {
      return null;
    }
    return switch (type.getType()) {
      case INT -> 7;
      case LONG -> 8L;
      case DOUBLE -> 1.5;
      case FLOAT -> 2.5f;
      case BOOLEAN -> true;
      case STRING -> "dflt";
      default -> null;
    };
  }

  /** Writer schemas derived from a reader schema: what each field may have been written as. */
  private static final class Evolution {
    private final Random random;
    private final Map<String, Schema> done = new HashMap<>();
    private int extras;

    Evolution(Random random) {
      this.random = random;
    }

    Schema writer(Schema reader) {
      switch (reader.getType()) {
        case RECORD -> {
          Schema known = done.get(reader.getFullName());
          if (known != null) {
            return known;
          }
          Schema copy = Schema.createRecord(reader.getName(), null, reader.getNamespace(), false);
          done.put(reader.getFullName(), copy);
          List<Schema.Field> fields = new ArrayList<>();
          for (Schema.Field field : reader.getFields()) {
            if (field.hasDefaultValue() && random.nextInt(4) == 0) {
              continue; // the reader's default fills it
            }
            fields.add(new Schema.Field(field.name(), promoted(writer(field.schema())), null, (Object) null));
          }
          for (int i = random.nextInt(3); i > 0; i--) {
            fields.add(random.nextInt(fields.size() + 1), extra(random.nextInt(EXTRAS.length), fields.size()));
          }
          if (random.nextBoolean()) {
            Collections.shuffle(fields, random);
          }
          copy.setFields(fields);
          return copy;
        }
        case ARRAY -> {
          return copyProps(reader, Schema.createArray(writer(reader.getElementType())));
        }
        case MAP -> {
          return copyProps(reader, Schema.createMap(writer(reader.getValueType())));
        }
        case UNION -> {
          List<Schema> branches = new ArrayList<>();
          reader.getTypes().forEach(branch -> branches.add(writer(branch)));
          if (random.nextBoolean()) {
            Collections.reverse(branches);
          }
          return Schema.createUnion(branches);
        }
        case ENUM -> {
          Schema known = done.get(reader.getFullName());
          if (known != null) {
            return known;
          }
          List<String> symbols = new ArrayList<>(reader.getEnumSymbols());
          Collections.reverse(symbols);
          Schema copy = Schema.createEnum(reader.getName(), null, reader.getNamespace(), symbols);
          done.put(reader.getFullName(), copy);
          return copy;
        }
        default -> {
          return reader;
        }
      }
    }

    private Schema.Field extra(int kind, int at) {
      int n = extras++;
      Schema type = new Schema.Parser().parse(EXTRAS[kind].startsWith("\"") ? EXTRAS[kind]
          : String.format(EXTRAS[kind], n));
      return new Schema.Field("extra" + n + "at" + at, type, null, (Object) null);
    }

    /** Sometimes a narrower type that Avro promotes to the reader's. */
    private Schema promoted(Schema type) {
      if (type.getLogicalType() != null || type.getProp("java-class") != null || random.nextInt(3) != 0) {
        return type;
      }
      return switch (type.getType()) {
        case LONG, FLOAT -> Schema.create(Schema.Type.INT);
        case DOUBLE -> Schema.create(Schema.Type.FLOAT);
        case STRING -> Schema.create(Schema.Type.BYTES);
        case BYTES -> Schema.create(Schema.Type.STRING);
        default -> type;
      };
    }
  }

  /** Fields only writers have, of every kind. */
  private static final String[] EXTRAS = {
      "\"string\"", "[\"null\",\"long\"]", "{\"type\":\"array\",\"items\":\"int\"}",
      "{\"type\":\"map\",\"values\":\"string\"}",
      "{\"type\":\"record\",\"name\":\"Gone%d\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
          + "{\"name\":\"b\",\"type\":[\"null\",\"string\"]}]}",
      "{\"type\":\"enum\",\"name\":\"Faded%d\",\"symbols\":[\"X\",\"Y\",\"Z\"]}",
      "{\"type\":\"fixed\",\"name\":\"Old%d\",\"size\":3}", "\"double\"", "\"bytes\""};


  /** The generic datum of the reader schema as the writer schema holds it, with random values in its extras. */
  private static Object toWriter(Object value, Schema from, Schema to, Random random) {
    if (value == null) {
      return null;
    }
    switch (to.getType()) {
      case RECORD -> {
        IndexedRecord record = (IndexedRecord) value;
        GenericData.Record result = new GenericData.Record(to);
        for (Schema.Field field : to.getFields()) {
          Schema.Field source = from.getField(field.name());
          result.put(field.pos(), source == null ? extraValue(field.schema(), random)
              : toWriter(record.get(source.pos()), source.schema(), field.schema(), random));
        }
        if (to.getName().equals("Guarded") && to.getField("id") != null && random.nextInt(3) == 0) {
          result.put("id", random.nextInt(100) * 5L); // which its constructor refuses
        }
        return result;
      }
      case UNION -> {
        Schema branch = from.getTypes().get(RAW.resolveUnion(from, value));
        String name = branch.getType() == Schema.Type.RECORD || branch.getType() == Schema.Type.ENUM
            || branch.getType() == Schema.Type.FIXED ? branch.getFullName() : branch.getType().getName();
        Schema target = to.getTypes().get(to.getIndexNamed(name));
        return toWriter(value, branch, target, random);
      }
      case ARRAY -> {
        List<Object> items = new ArrayList<>();
        for (Object item : (List<?>) value) {
          items.add(toWriter(item, from.getElementType(), to.getElementType(), random));
        }
        return items;
      }
      case MAP -> {
        Map<Object, Object> map = new HashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> map.put(k, toWriter(v, from.getValueType(), to.getValueType(),
            random)));
        return map;
      }
      case ENUM -> {
        return new GenericData.EnumSymbol(to, value.toString());
      }
      case INT -> {
        return value instanceof Number number ? number.intValue() : value;
      }
      case FLOAT -> {
        return value instanceof Number number ? number.floatValue() : value;
      }
      case BYTES -> {
        return value instanceof CharSequence text ? ByteBuffer.wrap(new Utf8(text.toString()).getBytes()) : value;
      }
      case STRING -> {
        if (value instanceof ByteBuffer buffer) {
          byte[] bytes = new byte[buffer.remaining()];
          buffer.duplicate().get(bytes);
          return new Utf8(bytes);
        }
        return value;
      }
      default -> {
        return value;
      }
    }
  }

  private static Object extraValue(Schema type, Random random) {
    return switch (type.getType()) {
      case STRING -> "x" + random.nextInt(1000);
      case UNION -> random.nextBoolean() ? null : random.nextLong();
      case ARRAY -> List.of(random.nextInt(), random.nextInt(100));
      case MAP -> Map.of("k" + random.nextInt(9), "v");
      case RECORD -> {
        GenericData.Record record = new GenericData.Record(type);
        record.put("a", random.nextInt());
        record.put("b", random.nextBoolean() ? null : "b");
        yield record;
      }
      case ENUM -> new GenericData.EnumSymbol(type, type.getEnumSymbols().get(random.nextInt(3)));
      case FIXED -> new GenericData.Fixed(type, new byte[] {1, (byte) random.nextInt(), 3});
      case DOUBLE -> random.nextDouble();
      case BYTES -> ByteBuffer.wrap(new byte[] {(byte) random.nextInt(), 9});
      default -> throw new IllegalArgumentException("no extra of " + type);
    };
  }

  private static byte[] mutated(byte[] bytes, Random random) {
    byte[] copy = bytes.clone();
    if (copy.length > 0 && random.nextBoolean()) {
      copy[random.nextInt(copy.length)] ^= (byte) (1 << random.nextInt(8));
    }
    return random.nextBoolean() ? java.util.Arrays.copyOf(copy, random.nextInt(copy.length + 1)) : copy;
  }

  private static byte[] reflectBytes(Schema schema, Object record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new ReflectDatumWriter<>(schema, MODEL).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static Object read(Schema schema, byte[] bytes) throws IOException {
    return new GenericDatumReader<>(schema, schema, RAW).read(null, DecoderFactory.get().binaryDecoder(bytes, null));
  }

  private static byte[] write(Schema schema, Object datum) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<>(schema, RAW).write(datum, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
