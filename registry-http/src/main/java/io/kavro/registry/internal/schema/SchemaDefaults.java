package io.kavro.registry.internal.schema;

import io.kavro.registry.InvalidSchemaException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * Defaults as Confluent treats them: a schema fetched from the registry is parsed without checking its fields'
 * defaults (schemas registered before Avro 1.9 often have defaults that do not match their types, and their
 * records must still be read), and a schema about to be registered is checked, so that no new one has such a
 * default.
 */
public final class SchemaDefaults {
  private SchemaDefaults() {}

  /** A parser for schemas that the registry already holds: defaults are not checked. */
  public static Schema.Parser lenientParser() {
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
      new Schema.Parser().setValidateDefaults(true).parse(schema.toString());
    } catch (AvroRuntimeException e) {
      throw new InvalidSchemaException(operation + " refused: " + e.getMessage() + "; Kavro registers no schema "
          + "with a default that does not match its field's type (schemas already in the registry are read as "
          + "they are)");
    }
  }
}
