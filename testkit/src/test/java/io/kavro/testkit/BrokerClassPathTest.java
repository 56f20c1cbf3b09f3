package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37, item 1: the broker's child JVM runs on the jars this build resolved for the broker, found in the local
 * Maven repository, and on nothing of the test's class path.
 */
class BrokerClassPathTest {
  @TempDir
  Path repository;

  @Test
  void thisBuildsListing_isTheBrokersJars_fromTheLocalRepository() {
    List<Path> jars = BrokerClassPath.resolve();

    assertThat(jars).allSatisfy(jar -> assertThat(jar).startsWith(StackBuild.localRepository()).isRegularFile());
    assertThat(jars).extracting(jar -> jar.getFileName().toString())
        .contains("kafka-clients-" + StackBuild.property("kafka.version") + ".jar",
            "kafka_2.13-" + StackBuild.property("kafka.version") + ".jar")
        // test scope, Docker and JUnit stay out
        .noneMatch(name -> name.startsWith("assertj") || name.startsWith("junit") || name.startsWith("log4j-core")
            || name.startsWith("testcontainers") || name.startsWith("kavro"));
  }

  /** As kavro-stack.properties (issue 25, item 4): the published jar names no folder of the machine that built it. */
  @Test
  void thisBuildsListing_namesNoFolderOfTheBuildMachine() throws IOException {
    String listing;
    try (InputStream in = BrokerClassPath.class.getResourceAsStream(BrokerClassPath.RESOURCE)) {
      listing = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    assertThat(listing.strip().split(";")).isNotEmpty()
        .allSatisfy(entry -> assertThat(entry).startsWith("@localRepository@/"));
  }

  @Test
  void resolve_findsEntriesInTheGivenRepository() throws IOException {
    Path jar = repository.resolve("org/example/lib/1.0/lib-1.0.jar");
    Files.createDirectories(jar.getParent());
    Files.write(jar, new byte[0]);

    assertThat(BrokerClassPath.resolve("@localRepository@/org/example/lib/1.0/lib-1.0.jar;\n", repository))
        .containsExactly(jar);
  }

  @Test
  void resolve_missingJars_areNamedByCoordinates() {
    assertThatThrownBy(() -> BrokerClassPath.resolve("@localRepository@/org/apache/kafka/kafka-clients/4.4.0/"
        + "kafka-clients-4.4.0.jar;@localRepository@/org/scala-lang/scala-library/2.13.18/scala-library-2.13.18.jar",
        repository)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("needs 2 jar(s) that are not in the local Maven repository " + repository
            + ": org.apache.kafka:kafka-clients:4.4.0, org.scala-lang:scala-library:2.13.18. ")
        .hasMessageContaining("-Dmaven.repo.local");
  }

  @Test
  void resolve_anEmptyListing_isRefused() {
    assertThatThrownBy(() -> BrokerClassPath.resolve(" \n", repository))
        .hasMessage("broker.classpath lists no jar: the testkit was not built by Maven");
  }
}
