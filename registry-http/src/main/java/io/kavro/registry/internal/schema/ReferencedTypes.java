package io.kavro.registry.internal.schema;

import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The text of a schema that uses types defined by references, as a registry stores it: each referenced type, and
 * every type defined inside it, appears by name only, since the referenced subject versions define them.
 */
public final class ReferencedTypes {
  private ReferencedTypes() {}

  /**
   * The schema's text with the referenced types written by name.
   *
   * @param operation what is being done, for the message
   * @throws InvalidSchemaException when a reference names a type that the schema does not use, or the schema
   *     itself: a reference that defines nothing is a mistake the registry would store as it is
   */
  public static String text(Schema schema, List<SchemaReference> references, String operation) {
    if (references.isEmpty()) {
      return schema.toString();
    }
    Map<String, Schema> used = namedTypes(schema);
    List<Schema> defined = new ArrayList<>();
    for (SchemaReference reference : references) {
      Schema type = used.get(reference.name());
      if (type == null) {
        throw new InvalidSchemaException(operation + " refused: the reference " + reference.name() + "="
            + reference.subject() + ":" + reference.version() + " names a type that the schema does not use; it "
            + "uses " + (used.isEmpty() ? "no named type" : String.join(", ", used.keySet())));
      }
      if (type == schema) {
        throw new InvalidSchemaException(operation + " refused: the reference " + reference.name() + " names the "
            + "schema itself");
      }
      defined.addAll(namedTypes(type).values());
    }
    return schema.toString(defined, false);
  }

  /** Every named type (record, enum, fixed) that the schema defines or uses, by full name, the schema first. */
  public static Map<String, Schema> namedTypes(Schema schema) {
    Map<String, Schema> found = new LinkedHashMap<>();
    collect(schema, found);
    return found;
  }

  private static void collect(Schema schema, Map<String, Schema> found) {
    switch (schema.getType()) {
      case RECORD -> {
        if (found.putIfAbsent(schema.getFullName(), schema) == null) {
          schema.getFields().forEach(field -> collect(field.schema(), found));
        }
      }
      case ENUM, FIXED -> found.putIfAbsent(schema.getFullName(), schema);
      case ARRAY -> collect(schema.getElementType(), found);
      case MAP -> collect(schema.getValueType(), found);
      case UNION -> schema.getTypes().forEach(branch -> collect(branch, found));
      default -> { }
    }
  }
}
