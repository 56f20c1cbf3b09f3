package io.kavro.maven;

import io.kavro.registry.RegistryConfig;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;

/** The words of a failure: one line per problem, with no secret (URLs lose their user info). */
final class Failures {
  private Failures() {}

  /** What a registry call's failure says, with the registry's URL when it could not be reached. */
  static String describe(SchemaRegistryException e) {
    if (e instanceof RegistryUnavailableException unavailable) {
      return "cannot reach the schema registry" + (unavailable.url() == null ? "" : " at "
          + RegistryConfig.redact(unavailable.url())) + ": " + RegistryConfig.redact(String.valueOf(e.getMessage()));
    }
    return RegistryConfig.redact(e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
  }

  /** What a failure says: a registry call's as {@link #describe(SchemaRegistryException)}, any other's message. */
  static String describe(RuntimeException e) {
    if (e instanceof SchemaRegistryException registry) {
      return describe(registry);
    }
    return RegistryConfig.redact(e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
  }

  /**
   * Fails the goal when {@code problems} is not empty: "{@code what}:" and each problem on a line of its own.
   *
   * @throws MojoFailureException listing the problems
   */
  static void failIfAny(String what, List<String> problems) throws MojoFailureException {
    if (!problems.isEmpty()) {
      throw new MojoFailureException(what + ":\n  " + String.join("\n  ", problems));
    }
  }
}
