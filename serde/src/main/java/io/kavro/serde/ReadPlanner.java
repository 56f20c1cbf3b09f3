package io.kavro.serde;

import io.kavro.registry.SchemaIncompatibilities;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.reflect.ReflectDatumReader;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;

/**
 * The deserializer's plan-time decisions, made once per writer schema id and never per record: which reader
 * schema the configuration asks for, whether the writer's can be read as it, which data model reads it, and
 * whether a compiled decoder does or Avro's datum reader. Immutable and thread-safe.
 */
final class ReadPlanner {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ReadPlanner.class);

  private final AvroSerdeConfig config;
  private final AvroDataModels models;

  /**
   * How the data of one writer schema id is read: as the reader schema, with the compiled decoder when there is
   * one, else Avro's datum reader ({@code null} beside a compiled decoder).
   * {@code generation} is the count of changes the registry client had told of when the deserializer built the
   * route: the route stands only while that count does (a route outlives no answer it was built from).
   */
  record ReadRoute(int id, Schema writerSchema, Schema readerSchema, DatumReader<Object> datumReader,
      CompiledDecoder decoder, ReadRules rules, long refreshAt, long generation) {
    /** Whether the route runs rules; see {@link WriteRouter.WriteRoute#hasRules()} for why the record path asks this. */
    boolean hasRules() {
      return rules != null;
    }

    Object read(BoundedBinaryDecoder in) throws IOException {
      return decoder != null ? decoder.decode(in) : datumReader.read(null, in);
    }

    /** This route, to be asked again at {@code refreshAt} ({@link System#nanoTime()}) when it follows latest. */
    ReadRoute refreshingAt(long refreshAt) {
      return new ReadRoute(id, writerSchema, readerSchema, datumReader, decoder, rules, refreshAt, generation);
    }

    /** This route, built while the client's count of changes stood at {@code generation}. */
    ReadRoute inGeneration(long generation) {
      return generation == this.generation ? this
          : new ReadRoute(id, writerSchema, readerSchema, datumReader, decoder, rules, refreshAt, generation);
    }

    /**
     * This route with the rules of its versions: its decoder reads what {@code rules} give (their
     * {@link ReadRules#output()} schema), and {@code writer} stays the record's own writer schema.
     */
    ReadRoute withRules(Schema writer, ReadRules rules) {
      return new ReadRoute(id, writer, readerSchema, datumReader, decoder, rules, refreshAt, generation);
    }
  }

  ReadPlanner(AvroSerdeConfig config) {
    this.config = config;
    this.models = new AvroDataModels(config.useLogicalTypeConverters(), config.reflectionAllowNull());
  }

  /**
   * The reader schema the configuration decides for {@code writer}: the generated class's
   * ({@code specific.avro.reader}) or the configured one; {@code null} when it does not decide.
   */
  Schema configuredReader(Schema writer, String record) {
    if (config.specificAvroReader() && isNamed(writer)) {
      return SpecificData.get().getSchema(specificClass(writer, record));
    }
    return config.readerSchema();
  }

  /**
   * The plan for reading data written with {@code writer} as {@code reader}.
   *
   * @throws SchemaResolutionException when the writer schema cannot be read as the reader schema, or no
   *     generated class fits it
   */
  ReadRoute plan(int id, Schema writer, Schema reader, String record) {
    checkResolves(writer, reader, record);
    DatumReader<Object> datumReader = null; // Avro's reader: made below only where no compiled decoder reads
    GenericData fastModel = null;
    CompiledDecoder javaRecords = null;
    Class<?> reflected = config.schemaReflection() ? named(reader) : null;
    if (config.specificAvroReader() && isNamed(writer)) {
      Class<? extends SpecificRecord> type = specificClass(writer, record);
      ClassTrust.trustGenerated(type, reader);
      fastModel = AvroDataModels.specific(type);
    } else if (config.specificAvroReader() && holdsRecords(reader)) {
      // A union, array or map of records (a multi-event topic): each record as its generated class.
      fastModel = specificModelOf(reader, record);
    } else if (config.schemaReflection() && trusted(reflected, record)) {
      if (reflected != null && reflected.isRecord()) {
        // The components' own Java types decide their logical types' conversions: decided here, once per route.
        Schema javaReader = DeclaredConversions.readerSchema(javaRecordReader(reader, reflected, record), reflected,
            models.reflect());
        java.util.function.Function<Object, Object> converter = JavaRecordReader.converter(reflected);
        javaRecords = config.fastCodec() ? javaRecordDecoder(writer, javaReader, reflected, converter) : null;
        if (javaRecords == null) {
          // Not made beside a compiled decoder, as for generic and generated records below.
          datumReader = new JavaRecordReader(writer, javaReader, converter, models.reflect());
        }
      } else {
        ReflectDatumReader<Object> reflect = new ReflectDatumReader<>(writer, reader, models.reflect());
        ClassTrust.allowIn(reflect, reader);
        datumReader = reflect;
      }
    } else {
      fastModel = models.generic();
    }
    CompiledDecoder fast = javaRecords;
    if (config.fastCodec() && fastModel != null) {
      fast = DecoderCompiler.compile(writer, reader, fastModel);
      if (fast == null) {
        log.debug("No compiled decoder for {} as {}; using Avro's reader", writer.getFullName(), reader.getFullName());
      }
    }
    if (fast == null && fastModel != null) {
      // Not made beside a compiled decoder: each of Avro's readers holds maps of its own, kept per route.
      datumReader = fastModel instanceof SpecificData specific ? new SpecificDatumReader<>(writer, reader, specific)
          : new GenericDatumReader<>(writer, reader, fastModel);
    }
    if (fast == null && largestFixed(writer, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()))
        > AVRO_READER_MAX_FIXED) {
      // Avro's readers allocate a fixed before reading it: a registry's schema must not size that allocation.
      throw new SchemaResolutionException("cannot deserialize " + record + ": writer schema " + writer.getFullName()
          + " has a fixed type of more than " + AVRO_READER_MAX_FIXED + " bytes, which Kavro reads only with its "
          + "compiled decoder (avro.fast.codec=true, generic or specific records), never with Avro's reader", null);
    }
    return new ReadRoute(id, writer, reader, datumReader, fast, null, Long.MAX_VALUE, 0);
  }

  /**
   * The compiled decoder of a Java record: straight into its components ({@link JavaRecordDecoderCompiler}), else
   * in two steps, generically and then converted by {@code converter} ({@link JavaRecordReader#converter});
   * {@code null} where neither compiles (a recursive schema), and Avro's reader reads.
   */
  private CompiledDecoder javaRecordDecoder(Schema writer, Schema javaReader, Class<?> type,
      java.util.function.Function<Object, Object> converter) {
    GenericData readModel = JavaRecordReader.readModel(models.reflect());
    CompiledDecoder generic = DecoderCompiler.compile(writer, javaReader, readModel);
    if (generic == null) {
      return null;
    }
    CompiledDecoder twoStep = in -> converter.apply(generic.decode(in));
    CompiledDecoder direct = JavaRecordDecoderCompiler.compile(writer, javaReader, type, readModel, twoStep);
    return direct != null ? direct : twoStep;
  }

  /**
   * The schema a Java record's data is read as: the reader schema, with the fields of the components it lacks
   * (a record that gained them since the data was written) as Avro's reflection derives them from the class,
   * their {@code @AvroDefault} defaults included. The reader's own fields keep their types, so what reads as the
   * reader schema reads as this.
   *
   * @throws SchemaResolutionException naming the class and the component when a component the reader schema
   *     lacks has no default
   */
  private Schema javaRecordReader(Schema reader, Class<?> type, String record) {
    if (reader.getType() != Schema.Type.RECORD) {
      return reader;
    }
    Schema derived = models.reflect().getSchema(type);
    java.util.List<Schema.Field> added = new java.util.ArrayList<>();
    for (Schema.Field field : derived.getFields()) {
      if (reader.getField(field.name()) != null) {
        continue;
      }
      if (!field.hasDefaultValue()) {
        throw new SchemaResolutionException("cannot deserialize " + record + " into " + type.getName()
            + ": its schema " + reader.getFullName() + " has no field '" + field.name() + "', and the record's "
            + "component " + field.name() + " has no default to read it as (give it one with @AvroDefault, or "
            + "@Nullable for null)", null);
      }
      added.add(new Schema.Field(field, field.schema()));
    }
    if (added.isEmpty()) {
      return reader;
    }
    java.util.List<Schema.Field> fields = new java.util.ArrayList<>();
    reader.getFields().forEach(field -> fields.add(new Schema.Field(field, field.schema())));
    fields.addAll(added);
    Schema merged = Schema.createRecord(reader.getName(), reader.getDoc(), reader.getNamespace(), reader.isError(),
        fields);
    reader.getObjectProps().forEach(merged::addProp);
    return merged;
  }

  /** @throws SchemaResolutionException when data written with {@code writer} cannot be read as {@code reader} */
  private static void checkResolves(Schema writer, Schema reader, String record) {
    if (reader == writer) {
      return;
    }
    String reasons = SchemaIncompatibilities.summary(reader, writer);
    if (reasons != null) {
      throw new SchemaResolutionException("cannot deserialize " + record + ": writer schema "
          + writer.getFullName() + " cannot be read as " + reader.getFullName() + ": " + reasons, null);
    }
  }

  /**
   * The largest fixed that Avro's own readers may be given: they allocate it before reading a byte of it. The
   * compiled decoder checks the bytes left first, so it reads any size the payload holds.
   */
  static final int AVRO_READER_MAX_FIXED = 1 << 16;

  private static int largestFixed(Schema schema, java.util.Set<Schema> seen) {
    if (!seen.add(schema)) {
      return 0;
    }
    return switch (schema.getType()) {
      case FIXED -> schema.getFixedSize();
      case RECORD -> schema.getFields().stream().mapToInt(f -> largestFixed(f.schema(), seen)).max().orElse(0);
      case ARRAY -> largestFixed(schema.getElementType(), seen);
      case MAP -> largestFixed(schema.getValueType(), seen);
      case UNION -> schema.getTypes().stream().mapToInt(b -> largestFixed(b, seen)).max().orElse(0);
      default -> 0;
    };
  }

  private Class<? extends SpecificRecord> specificClass(Schema writer, String record) {
    Class<? extends SpecificRecord> configured = config.specificType();
    if (configured != null) {
      return configured;
    }
    String className = SpecificData.getClassName(writer);
    Class<?> type = LocalClasses.find(className);
    if (type != null && SpecificRecord.class.isAssignableFrom(type)) {
      return type.asSubclass(SpecificRecord.class);
    }
    if (type != null) {
      throw new SchemaResolutionException("cannot deserialize " + record + ": the writer schema names "
          + className + ", which is not a generated SpecificRecord class; Kavro reads only into generated "
          + "classes. Set " + typeKey() + " to the generated class to read into, or turn specific.avro.reader off",
          null);
    }
    throw new SchemaResolutionException("cannot deserialize " + record + ": specific.avro.reader=true but no "
        + "generated SpecificRecord class " + className + " is on the classpath; generate it, set "
        + typeKey() + ", or turn specific.avro.reader off", null);
  }

  /**
   * The model that reads the records of a union, array or map into their generated classes, as Confluent's
   * deserializer does: each class is found by its record's name (loaded without being initialized), and a record
   * with no class on the class path is read as a {@code GenericRecord}; the model has the conversions of every
   * generated class.
   *
   * @throws SchemaResolutionException naming a record whose class exists but is not a generated one
   */
  private SpecificData specificModelOf(Schema reader, String record) {
    SpecificData model = new SpecificData(org.apache.kafka.common.utils.Utils.getContextOrKafkaClassLoader());
    for (Schema named : recordsIn(reader, new java.util.LinkedHashMap<>()).values()) {
      String className = SpecificData.getClassName(named);
      Class<?> type = LocalClasses.find(className);
      if (type == null) {
        continue;
      }
      if (!SpecificRecord.class.isAssignableFrom(type)) {
        throw new SchemaResolutionException("cannot deserialize " + record + ": the writer schema holds record "
            + named.getFullName() + ", and " + className + " is not a generated SpecificRecord class; Kavro "
            + "reads only into generated classes: turn specific.avro.reader off to read it generic", null);
      }
      ClassTrust.trustGenerated(type, named);
      AvroDataModels.specific(type).getConversions().forEach(model::addLogicalTypeConversion);
    }
    return model;
  }

  /** Whether the schema is a union, array or map that holds records somewhere. */
  private static boolean holdsRecords(Schema schema) {
    return schema.getType() != Schema.Type.RECORD && !recordsIn(schema, new java.util.LinkedHashMap<>()).isEmpty();
  }

  /** The records of {@code schema} by full name, the outermost of each branch (their own fields aside). */
  private static java.util.Map<String, Schema> recordsIn(Schema schema, java.util.Map<String, Schema> found) {
    switch (schema.getType()) {
      case RECORD -> found.putIfAbsent(schema.getFullName(), schema);
      case ARRAY -> recordsIn(schema.getElementType(), found);
      case MAP -> recordsIn(schema.getValueType(), found);
      case UNION -> schema.getTypes().forEach(branch -> recordsIn(branch, found));
      default -> { }
    }
    return found;
  }

  private String typeKey() {
    return config.isKey() ? AvroSerdeConfig.SPECIFIC_AVRO_KEY_TYPE_CONFIG : AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE_CONFIG;
  }

  /** The class that the reader schema names, loaded without being initialized, or {@code null}. */
  private static Class<?> named(Schema reader) {
    return isNamed(reader) ? LocalClasses.find(reader.getFullName()) : null;
  }

  /**
   * Whether reflection may read into {@code type}, the class the schema names: no class, or one the application
   * trusts (wrote through Kavro, or lists in Avro's serializable classes or packages). Otherwise the record is
   * read as a {@code GenericRecord}, and no class of the registry's choosing is loaded, built or initialized.
   */
  private static boolean trusted(Class<?> type, String record) {
    if (type == null || ClassTrust.isTrusted(type)) {
      return true;
    }
    log.info("Reading {} as a GenericRecord: schema.reflection=true, but its schema names {}, a class this "
        + "application has neither written through Kavro nor trusted. Trust it with the system property "
        + "org.apache.avro.SERIALIZABLE_PACKAGES={} (or SERIALIZABLE_CLASSES)", record, type.getName(),
        type.getPackageName());
    return false;
  }

  private static boolean isNamed(Schema schema) {
    return schema.getType() == Schema.Type.RECORD;
  }
}
