package io.kavro.maven;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.config.RegistryConfig;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;

/** The words of a failure: one line per problem, with no secret (URLs lose their user info). */
final class Failures {
  private Failures() {}

  /**
   * What a registry call's failure says, with the registry's URL when it could not be reached. The registry
   * client's messages carry no user info already, and are not rewritten: a subject may hold an '@'.
   */
  static String describe(SchemaRegistryException e) {
    String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    if (e instanceof RegistryUnavailableException unavailable) {
      return "cannot reach the schema registry" + (unavailable.url() == null ? "" : " at "
          + RegistryConfig.redact(unavailable.url())) + ": " + message;
    }
    return message;
  }

  /**
   * What a failure says: a registry call's as {@link #describe(SchemaRegistryException)}; any other's message, its
   * URLs without their user info.
   */
  static String describe(RuntimeException e) {
    if (e instanceof SchemaRegistryException registry) {
      return describe(registry);
    }
    return e.getMessage() != null ? RegistryConfig.redactUrls(e.getMessage()) : e.getClass().getSimpleName();
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
