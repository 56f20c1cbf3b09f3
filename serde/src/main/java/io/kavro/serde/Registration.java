package io.kavro.serde;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.SchemaIncompatibilities;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import org.apache.avro.Schema;

/**
 * A schema's registration by a serde, whose refusal as incompatible says why in Kavro's words too, as the Maven
 * plugin's {@code register} does: Avro's first reason against the versions the subject's level in force names
 * (every one for a transitive level), naming the field and both types ("BACKWARD: new schema cannot read version
 * 1 (Order.id is long in the writer's schema and string in the reader's)"). A registry's own words come cut to a
 * few hundred characters (Confluent's quote the old schema whole), so alone they may stop before the field.
 *
 * <p>The reading asks the registry, uncached, for the subject's level and the versions it judges against: the
 * latest (the level, the version list and that version), or every version for a transitive level. It
 * runs only for a record whose schema the registry refused, on that record's path, each time.
 */
final class Registration {
  private Registration() {}

  /**
   * Registers {@code schema} under {@code subject}.
   *
   * @return the schema's id
   * @throws IncompatibleSchemaException when the registry refuses it as incompatible: with Kavro's reading first
   *     in its message and its reason, the registry's words after, and the registry's exception as its cause;
   *     the registry's exception itself when Avro finds nothing, when the registry's words hold the reading
   *     already (the in-memory registry's do), or when the registry fails to give the level or the versions
   * @throws SchemaRegistryException when the registry fails otherwise
   */
  static int register(SchemaRegistryClient registry, String subject, Schema schema) {
    try {
      return registry.register(subject, schema);
    } catch (IncompatibleSchemaException e) {
      throw explained(registry, subject, schema, e);
    }
  }

  private static IncompatibleSchemaException explained(SchemaRegistryClient registry, String subject,
      Schema candidate, IncompatibleSchemaException refused) {
    String reading;
    try {
      reading = SchemaIncompatibilities.firstProblem(registry, subject, candidate).orElse(null);
    } catch (SchemaRegistryException | org.apache.avro.AvroRuntimeException e) {
      return refused; // the reading is a help: without it, the registry's words stand
    }
    if (reading == null || refused.getMessage().contains(reading)) {
      return refused;
    }
    return new IncompatibleSchemaException(reading + "; the registry said: " + refused.getMessage(),
        reading + "; the registry said: " + refused.reason(), refused.status(), refused.errorCode(), refused.url(),
        refused);
  }
}
