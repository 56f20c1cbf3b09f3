package io.kavro.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of the broker's child JVM: the testkit's own runtime dependencies as its build resolved them
 * (Kafka's broker and the kafka-clients it is built with), which the build lists in {@value #RESOURCE} relative to
 * the local Maven repository, found in the local Maven repository ({@code -Dmaven.repo.local}, else
 * {@code ~/.m2/repository}). A jar that is not there is downloaded into it from the remote repository
 * ({@link MavenRemote}: {@code -Dkavro.maven.repository}, else Maven Central): an application that pins another
 * kafka-clients never makes Maven fetch this one, and a Gradle build has no local Maven repository at all. Nothing
 * of the test's class path is in it.
 */
final class BrokerClassPath {
  /** The listing the build writes beside this class: entries separated by {@code ;}, with {@code /} in paths. */
  static final String RESOURCE = "broker.classpath";
  /** How the listing names the local Maven repository. */
  static final String REPOSITORY = "@localRepository@";

  private BrokerClassPath() {}

  /** The broker's jars, from the listing of this testkit's build. */
  static List<Path> resolve() {
    return resolve(read(), StackBuild.localRepository(), MavenRemote.fromSystemProperties());
  }

  /**
   * The jars of {@code listing}, found in {@code repository}, else downloaded into it from {@code remote}.
   *
   * @throws IllegalStateException when the listing is empty, when a jar cannot be downloaded (the message gives
   *     its coordinates and URL), or when the listing names a jar outside the local repository that is not there
   */
  static List<Path> resolve(String listing, Path repository, MavenRemote remote) {
    List<Path> jars = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String entry : listing.split("[;\\r\\n]+")) {
      String trimmed = entry.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      Path jar;
      if (trimmed.startsWith(REPOSITORY)) {
        String relative = trimmed.substring(REPOSITORY.length()).replaceFirst("^/+", "");
        jar = repository.resolve(relative);
        if (!Files.isRegularFile(jar)) {
          remote.download(relative, jar, coordinates(relative) + " (a jar of the Kafka broker's child JVM)",
              "set -D" + MavenRemote.PROPERTY + " to a Maven repository that has it, or fetch it with mvn "
                  + "dependency:get -Dartifact=" + coordinates(relative));
        }
      } else {
        jar = Path.of(trimmed);
        if (!Files.exists(jar)) {
          missing.add(trimmed);
        }
      }
      jars.add(jar);
    }
    if (jars.isEmpty()) {
      throw new IllegalStateException(RESOURCE + " lists no jar: the testkit was not built by Maven");
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("the Kafka broker's child JVM needs " + missing.size() + " jar(s) that are "
          + "not there: " + String.join(", ", missing));
    }
    return List.copyOf(jars);
  }

  /** {@code group:artifact:version} of a path in a Maven repository's layout, else the path. */
  private static String coordinates(String relative) {
    String[] parts = relative.split("/");
    if (parts.length < 4) {
      return relative;
    }
    int n = parts.length;
    return String.join(".", java.util.Arrays.asList(parts).subList(0, n - 3)) + ":" + parts[n - 3] + ":"
        + parts[n - 2];
  }

  private static String read() {
    try (InputStream in = BrokerClassPath.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing beside " + BrokerClassPath.class.getName()
            + ": the testkit was not built by Maven");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
