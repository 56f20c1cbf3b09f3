package io.kavro.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What the testkit's build wrote into {@code kavro-stack.properties} (the versions the local stack runs), and the
 * local Maven repository that the stack takes its artifacts from.
 */
final class StackBuild {
  private StackBuild() {}

  /** The value of {@code name} in {@code kavro-stack.properties}. */
  static String property(String name) {
    String value = load().getProperty(name);
    if (value == null || value.isBlank() || value.startsWith("@")) {
      throw new IllegalStateException("kavro-stack.properties has no value for " + name + ": the testkit jar was "
          + "not built by Maven");
    }
    return value;
  }

  /** {@code -Dmaven.repo.local}, else {@code ~/.m2/repository}. */
  static Path localRepository() {
    return Path.of(System.getProperty("maven.repo.local",
        Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
  }

  private static Properties load() {
    Properties props = new Properties();
    try (InputStream in = StackBuild.class.getResourceAsStream("/kavro-stack.properties")) {
      if (in == null) {
        throw new IllegalStateException("kavro-stack.properties is missing from the class path");
      }
      props.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return props;
  }
}
