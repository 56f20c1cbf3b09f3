package io.kavro.testkit.schemarepo;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.schemarepo.SchemaEntry;
import org.schemarepo.SchemaValidationException;
import org.schemarepo.Validator;

/**
 * Kavro's full-compatibility validator for the schema-repo server (0.1.2 ships none but {@code repo.reject}), as
 * the seed's full-compatibility validator (AVRO-1124's {@code AllValidator} with a mutual-read strategy) does it:
 * for every version of the subject, newest to oldest, the new schema must read data written with that version,
 * and that version must read data written with the new schema. The first failure refuses the schema (the server
 * answers 403) with a message naming the version's id, the direction, and where and why Avro's
 * {@link SchemaCompatibility} finds them incompatible.
 *
 * <p>It runs inside the server's JVM ({@code EmbeddedSchemaRepo} registers it as validator {@code full}), which
 * instantiates it by its public no-argument constructor; nothing in the testkit's own JVM loads it. Stateless and
 * thread-safe.
 */
public final class FullCompatibilityValidator implements Validator {
  /** The validator, for the server's injector. */
  public FullCompatibilityValidator() {}

  /**
   * Checks {@code schemaToValidate} against every entry of {@code schemasInOrder} (newest first), both ways.
   *
   * @throws SchemaValidationException when the new schema or an existing one is not valid Avro, or at the first
   *     version that cannot read the new schema's data or whose data the new schema cannot read
   */
  @Override
  public void validate(String schemaToValidate, Iterable<SchemaEntry> schemasInOrder)
      throws SchemaValidationException {
    Schema candidate = parse(schemaToValidate, "the new schema");
    for (SchemaEntry entry : schemasInOrder) {
      String version = "version " + entry.getId();
      Schema existing = parse(entry.getSchema(), version);
      requireReads(candidate, existing, version, "the new schema cannot read data written with " + version);
      requireReads(existing, candidate, version, version + " cannot read data written with the new schema");
    }
  }

  private static Schema parse(String text, String what) throws SchemaValidationException {
    try {
      return new Schema.Parser().parse(text);
    } catch (AvroRuntimeException e) { // SchemaParseException, or AvroTypeException for a default
      throw new SchemaValidationException(what + " is not a valid Avro schema: " + e.getMessage());
    }
  }

  private static void requireReads(Schema reader, Schema writer, String version, String failure)
      throws SchemaValidationException {
    SchemaCompatibility.SchemaCompatibilityResult result =
        SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getResult();
    if (result.getCompatibility() == SchemaCompatibilityType.INCOMPATIBLE) {
      throw new SchemaValidationException("not fully compatible with " + version + ": " + failure + ": "
          + describe(result.getIncompatibilities()));
    }
  }

  private static String describe(List<Incompatibility> incompatibilities) {
    return incompatibilities.stream()
        .map(i -> i.getType() + " at " + i.getLocation() + " (" + i.getMessage() + ")")
        .collect(Collectors.joining("; "));
  }
}
