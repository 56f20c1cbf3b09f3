package io.kavro.registry.factory;

import io.kavro.registry.internal.schema.HeldSchemaParser;
import java.util.Optional;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * Schema texts read as registries hold them, the way Kavro reads what a registry answers: on every Avro line Kavro
 * supports, defaults are not checked, and a named type referenced as an object ({@code {"type":"ns.Place"}}) is
 * read as the name (Avro 1.11.4 to 1.12.1 read it so; Avro 1.12.2 refuses it, AVRO-4176). For tools that check a
 * schema file before it reaches a registry: what plain Avro 1.12.2 refuses, Kavro and the registry may still take.
 */
public final class HeldSchemas {
  private HeldSchemas() {}

  /**
   * The schema of {@code text}, read as Kavro reads a registry's.
   *
   * @param text a schema's JSON
   * @return the schema
   * @throws AvroRuntimeException when Avro up to 1.12.1 would refuse it too
   */
  public static Schema parse(String text) {
    return new HeldSchemaParser().parse(text);
  }

  /**
   * Whether {@code text} references a named type as an object, {@code {"type":"ns.Place"}}: the form Avro 1.12.2
   * refuses and earlier lines read as the name (AVRO-4176).
   *
   * @param text a schema's JSON
   * @return true when at least one such reference stands where a schema does
   */
  public static boolean referencesNamesAsObjects(String text) {
    return HeldSchemaParser.withNamedReferences(text) != null;
  }

  /**
   * {@code text} with each named type referenced as an object, {@code {"type":"ns.Place"}}, written as the name,
   * {@code "ns.Place"}, as Kavro reads it: for a tool that reads texts with types defined elsewhere (imported
   * files, references), and so cannot use {@link #parse}.
   *
   * @param text a schema's JSON
   * @return the text rewritten, or empty when it has no such reference (or is not JSON)
   */
  public static Optional<String> withNamedReferences(String text) {
    return Optional.ofNullable(HeldSchemaParser.withNamedReferences(text));
  }
}
