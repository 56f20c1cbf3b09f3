package io.kavro.maven;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaRegistryException;
import java.util.Arrays;
import org.apache.maven.plugin.MojoExecutionException;

/** A level of {@code <compatibilityLevels>}, read as set-compatibility and test-local-compatibility take it. */
final class Levels {
  private Levels() {}

  /**
   * The level {@code value} names, in any case.
   *
   * @param where what the level is for, for the message: "subject 'orders-value'"
   * @throws MojoExecutionException naming {@code where}, the value and the levels there are
   */
  static CompatibilityLevel parse(String where, String value) throws MojoExecutionException {
    try {
      return CompatibilityLevel.parse(value);
    } catch (SchemaRegistryException e) {
      throw new MojoExecutionException("<compatibilityLevels>: " + where + " has the level '" + value
          + "', which is none of " + Arrays.toString(CompatibilityLevel.values()), e);
    }
  }
}
