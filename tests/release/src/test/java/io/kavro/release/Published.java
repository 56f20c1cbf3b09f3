package io.kavro.release;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A published module, as {@code release/modules} lists it: its folder under the checkout's root, its artifactId and
 * packaging, read from its pom.
 */
record Published(String folder, String artifactId, String packaging) {
  /** The checkout's root, from this module's folder (tests/release). */
  static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();

  /** Every module {@code release/modules} lists, in its order. */
  static List<Published> all() {
    try {
      return Files.readAllLines(ROOT.resolve("release/modules")).stream()
          .map(String::strip)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .map(Published::of)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Published of(String folder) {
    String pom = read(ROOT.resolve(folder).resolve("pom.xml"));
    return new Published(folder, element(pom, "artifactId"), element(pom, "packaging", "jar"));
  }

  /** Whether the module has classes (a jar or a Maven plugin), not a pom or zips alone. */
  boolean hasClasses() {
    return packaging.equals("jar") || packaging.equals("maven-plugin");
  }

  Path classes() {
    return ROOT.resolve(folder).resolve("target/classes");
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The project's own element (two spaces deep, as every Kavro pom is laid out), which must be there. */
  static String element(String pom, String name) {
    String value = element(pom, name, null);
    if (value == null) {
      throw new IllegalStateException("no <" + name + "> of the project in its pom");
    }
    return value;
  }

  static String element(String pom, String name, String otherwise) {
    Matcher matcher = Pattern.compile("(?m)^  <" + name + ">([^<]+)</" + name + ">").matcher(pom);
    return matcher.find() ? matcher.group(1).strip() : otherwise;
  }
}
