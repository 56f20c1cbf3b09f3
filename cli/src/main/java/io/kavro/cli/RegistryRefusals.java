package io.kavro.cli;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.schematools.Causes;
import io.kavro.serde.SchemaRegistrationException;

/**
 * What {@code produce} says when writing a line failed at the registry rather than in the line: the schema was
 * refused (incompatible with the subject, invalid, not registered, access denied), or the registry did not
 * answer. The line is not blamed: another line would have failed the same way.
 */
final class RegistryRefusals {
  private RegistryRefusals() {}

  /**
   * "the registry refused the schema for subject 'orders-value' as incompatible: {the registry's reason}", the
   * serializer's own message for the other refusals, {@link Kavro#message} for a registry that failed; or
   * {@code null} when {@code failure} is not the registry's.
   */
  static String describe(Throwable failure) {
    if (failure instanceof SchemaRegistrationException refused) {
      if (refused.getCause() instanceof IncompatibleSchemaException incompatible) {
        return "the registry refused the schema" + refused.subject().map(s -> " for subject '" + s + "'").orElse("")
            + " as incompatible: " + incompatible.reason();
      }
      return refused.getMessage();
    }
    return Causes.find(failure, SchemaRegistryException.class).isPresent() ? Kavro.message(failure) : null;
  }

  /** "nothing was sent", or "3 record(s) before line 4 were sent, nothing from it on". */
  static String sentBefore(long acknowledged, int line) {
    return acknowledged == 0 ? "nothing was sent"
        : acknowledged + " record(s) before line " + line + " were sent, nothing from it on";
  }
}
