package io.kavro.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Finds a Java installation of at least a given version, for a child process that needs a newer Java than
 * the tests run on (Apicurio Registry 3 needs 21). Looked for in order: this JVM; the folder named by
 * {@code -Dkavro.java21.home}; {@code JAVA21_HOME} and {@code JAVA25_HOME}; every JDK under
 * {@code /usr/lib/jvm}.
 */
final class Jdks {
  /** System property that names a JDK of version 21 or later. */
  static final String JAVA21_HOME_PROPERTY = "kavro.java21.home";

  private Jdks() {}

  /** The {@code java} executable of a JDK of at least {@code feature}, if there is one. */
  static Optional<Path> javaOfAtLeast(int feature) {
    if (Runtime.version().feature() >= feature) {
      return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
    }
    List<Path> homes = new ArrayList<>();
    for (String candidate : new String[] {System.getProperty(JAVA21_HOME_PROPERTY), System.getenv("JAVA21_HOME"),
        System.getenv("JAVA25_HOME")}) {
      if (candidate != null && !candidate.isBlank()) {
        homes.add(Path.of(candidate));
      }
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (Stream<Path> installed = Files.list(jvms)) {
        installed.sorted().forEach(homes::add);
      } catch (IOException e) {
        // none there
      }
    }
    return homes.stream().filter(home -> feature(home) >= feature).map(home -> home.resolve("bin").resolve("java"))
        .filter(Files::isExecutable).findFirst();
  }

  /** The feature version in a JDK's {@code release} file, or 0. */
  static int feature(Path home) {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return 0;
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(release)) {
      properties.load(in);
    } catch (IOException e) {
      return 0;
    }
    String version = properties.getProperty("JAVA_VERSION", "").replace("\"", "");
    try {
      return Runtime.Version.parse(version).feature();
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }
}
