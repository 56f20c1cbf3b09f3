package io.kavro.serde;

import io.kavro.registry.SchemaIncompatibilities;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.reflect.ReflectDatumWriter;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * The serializer's plan-time decisions, made once per datum schema and never per record: which schema a
 * datum has, what kind of datum it is, which data model and writer write it, whether a compiled encoder does,
 * and how to project it onto another registered schema. Immutable and thread-safe.
 */
final class WritePlanner {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(WritePlanner.class);

  private static final String JAVA_STRING = "avro.java.string";
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private final AvroDataModels models;
  private final DatumSchemas schemas;
  private final boolean fastCodec;
  private final boolean removeJavaProperties;
  private final boolean schemaReflection;

  /** What kind of Java value a datum is, which decides its data model. */
  enum DatumKind {
    /** An instance of a generated class: written with that class's own model. */
    SPECIFIC,
    /** A plain Java class or record: written by reflection. */
    REFLECT,
    /** Avro's generic data, primitives included. */
    GENERIC
  }

  /**
   * How the datums of one schema are written: the data model of their kind, Avro's datum writer with it, and the
   * compiled encoder when there is one (then preferred).
   */
  record WritePlan(Schema schema, Schema registered, DatumKind kind, GenericData model,
      DatumWriter<Object> datumWriter, CompiledEncoder encoder) {}

  /**
   * Writes a datum of one schema as another. With a {@code datumReader}, by Avro's schema resolution: written,
   * read back resolved, written again. Without one ({@code *.compatibility.strict=false} and schemas that do
   * not resolve), as Confluent does: the datum is written with the other schema's datum writer as it is.
   */
  record Projection(DatumReader<Object> datumReader, DatumWriter<Object> datumWriter) {}

  WritePlanner(AvroSerdeConfig config) {
    this.models = new AvroDataModels(config.useLogicalTypeConverters(), config.reflectionAllowNull());
    this.schemas = new DatumSchemas(config.schemaReflection() ? models.reflect() : null);
    this.fastCodec = config.fastCodec();
    this.removeJavaProperties = config.removeJavaProperties();
    this.schemaReflection = config.schemaReflection();
  }

  /**
   * The datum's schema.
   *
   * @throws IllegalArgumentException naming the class when the datum has no Avro schema
   * @throws org.apache.avro.AvroRuntimeException when reflection cannot derive one
   */
  Schema schemaOf(Object datum) {
    return schemas.schemaOf(datum);
  }

  /**
   * The plan for the datums of {@code schema}, of the kind {@code datum} is. A {@link java.util.Collection} or
   * {@link java.util.Map} (an array or map schema given with the datum, as the Connect converter gives them) is
   * generic data unless {@code schema.reflection} is on: Avro's reflection cannot find the class of its
   * elements.
   */
  WritePlan plan(Schema schema, Object datum) {
    boolean genericContainer = !schemaReflection && (datum instanceof java.util.Collection
        || datum instanceof java.util.Map);
    DatumKind kind = AvroDataModels.isSpecific(datum) ? DatumKind.SPECIFIC
        : DatumSchemas.needsReflection(datum) && !genericContainer ? DatumKind.REFLECT : DatumKind.GENERIC;
    switch (kind) {
      case REFLECT -> {
        if (datum.getClass().isRecord() && !AvroFeatures.AVRO_1_12) {
          throw new IllegalArgumentException("Java records need Avro 1.12 or later to be written by reflection; "
              + "Avro " + AvroFeatures.version() + " is on the class path");
        }
        ClassTrust.trust(datum.getClass(), schema);
      }
      case SPECIFIC -> ClassTrust.trustGenerated(datum.getClass(), schema);
      case GENERIC -> { }
    }
    return new WritePlan(schema, registered(schema), kind, model(kind, datum), writer(kind, schema, datum),
        encoder(kind, schema, datum));
  }

  /**
   * The plan for datums of {@code schema} written as Avro's generic data: for the caller that writes their body
   * itself ({@link DatumEncoder}), whose datums are no Avro data at all. Its writer serves the routes that project
   * onto another schema, on the generic data read back from what the caller wrote.
   */
  WritePlan planGeneric(Schema schema) {
    return new WritePlan(schema, registered(schema), DatumKind.GENERIC, models.generic(),
        writer(DatumKind.GENERIC, schema, null), null);
  }

  /** Avro's generic reader of {@code schema}, with this serializer's data model. */
  DatumReader<Object> genericReader(Schema schema) {
    return new GenericDatumReader<>(schema, schema, models.generic());
  }

  /**
   * The schema registered or looked up for datums of {@code schema}: itself, or without the
   * {@code avro.java.string} properties ({@code avro.remove.java.properties}), which change no byte written.
   */
  private Schema registered(Schema schema) {
    if (!removeJavaProperties || !schema.toString().contains(JAVA_STRING)) {
      return schema;
    }
    try {
      com.fasterxml.jackson.databind.JsonNode json = JSON.readTree(schema.toString());
      removeProperty(json, JAVA_STRING);
      return new Schema.Parser().parse(json.toString());
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot reparse schema " + schema.getFullName(), e);
    }
  }

  private static void removeProperty(com.fasterxml.jackson.databind.JsonNode node, String name) {
    if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
      object.remove(name);
    }
    node.forEach(child -> removeProperty(child, name));
  }

  /**
   * How to write a datum of {@code datumSchema} as the subject's {@code target} schema, or {@code null} when
   * they are the same.
   *
   * @throws IllegalArgumentException with Avro's description when the datum's schema does not fit the target
   */
  Projection projection(WritePlan plan, Object datum, Schema target, boolean strict) {
    Schema datumSchema = plan.schema();
    if (target.equals(datumSchema) || target.equals(plan.registered())) {
      return null;
    }
    SchemaCompatibility.SchemaPairCompatibility fit =
        SchemaCompatibility.checkReaderWriterCompatibility(target, datumSchema);
    if (fit.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
      return new Projection(new GenericDatumReader<>(datumSchema, target, models.generic()),
          new GenericDatumWriter<>(target, models.generic()));
    }
    if (strict) {
      throw new IllegalArgumentException(SchemaIncompatibilities.summary(target, datumSchema));
    }
    return new Projection(null, writer(plan.kind(), target, datum));
  }

  /** The data model that writes datums of this kind: a generated class's own, or this serializer's. */
  private GenericData model(DatumKind kind, Object datum) {
    return switch (kind) {
      case SPECIFIC -> AvroDataModels.specific(datum.getClass());
      case REFLECT -> models.reflect();
      case GENERIC -> models.generic();
    };
  }

  private DatumWriter<Object> writer(DatumKind kind, Schema schema, Object datum) {
    return switch (kind) {
      case SPECIFIC -> new SpecificDatumWriter<>(schema, AvroDataModels.specific(datum.getClass()));
      case REFLECT -> new ReflectDatumWriter<>(schema, models.reflect());
      case GENERIC -> new GenericDatumWriter<>(schema, models.generic());
    };
  }

  /**
   * The compiled encoder, or {@code null} to use Avro's writer (plain classes by reflection, a schema or a Java type
   * it does not cover).
   */
  private CompiledEncoder encoder(DatumKind kind, Schema schema, Object datum) {
    if (!fastCodec || kind == DatumKind.REFLECT && !datum.getClass().isRecord()) {
      return null;
    }
    CompiledEncoder encoder = kind == DatumKind.REFLECT
        ? EncoderCompiler.compile(schema, models.reflect(), datum.getClass())
        : EncoderCompiler.compile(schema, model(kind, datum));
    if (encoder == null) {
      log.debug("No compiled encoder for {}; using Avro's writer", schema.getFullName());
    }
    return encoder;
  }
}
