package io.kavro.registry.internal.schema;

import io.kavro.registry.InvalidSchemaException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.util.internal.Accessor;

/**
 * Defaults as Confluent treats them: a schema fetched from the registry is parsed without checking its fields'
 * defaults (schemas registered before Avro 1.9 often have defaults that do not match their types, and their
 * records must still be read), and a schema about to be registered is checked, so that no new one has such a
 * default.
 */
public final class SchemaDefaults {
  private SchemaDefaults() {}

  /** A parser for schemas that the registry already holds: defaults are not checked. */
  static Schema.Parser lenientParser() {
    return new Schema.Parser().setValidateDefaults(false);
  }

  /**
   * Checks every field's default against its type.
   *
   * @param operation what is about to happen, for the message
   * @throws InvalidSchemaException naming the field and its default, when one does not match
   */
  public static void check(Schema schema, String operation) {
    try {
      checkFields(schema, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
    } catch (AvroRuntimeException e) {
      throw new InvalidSchemaException(operation + " refused: " + e.getMessage() + "; Kavro registers no schema "
          + "with a default that does not match its field's type (schemas already in the registry are read as "
          + "they are)");
    }
  }

  /**
   * Builds each field with a default again through the constructor that Avro's parser uses, with its check on: the
   * same judgement and message as parsing the schema's text with {@code setValidateDefaults(true)}, without
   * writing and parsing the whole text (half of a new schema's first record, measured).
   */
  private static void checkFields(Schema schema, java.util.Set<Schema> seen) {
    if (!seen.add(schema)) {
      return;
    }
    switch (schema.getType()) {
      case RECORD -> {
        for (Schema.Field field : schema.getFields()) {
          if (field.hasDefaultValue()) {
            Accessor.createField(field.name(), field.schema(), null, Accessor.defaultValue(field), true, field.order());
          }
          checkFields(field.schema(), seen);
        }
      }
      case ARRAY -> checkFields(schema.getElementType(), seen);
      case MAP -> checkFields(schema.getValueType(), seen);
      case UNION -> schema.getTypes().forEach(branch -> checkFields(branch, seen));
      default -> { }
    }
  }
}
