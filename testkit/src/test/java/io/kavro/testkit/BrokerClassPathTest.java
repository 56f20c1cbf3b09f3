package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37, item 1: the broker's child JVM runs on the jars this build resolved for the broker, found in the local
 * Maven repository, and on nothing of the test's class path.
 */
class BrokerClassPathTest {
  @TempDir
  Path repository;

  /** The remote Maven repository: Maven Central, as far as the tests go. */
  @StartStop
  private final MockWebServer remote = new MockWebServer();

  private MavenRemote remote() {
    return new MavenRemote(remote.url("/maven2").toString());
  }

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

    assertThat(BrokerClassPath.resolve("@localRepository@/org/example/lib/1.0/lib-1.0.jar;\n", repository,
        remote())).containsExactly(jar);
    assertThat(remote.getRequestCount()).isZero();
  }

  /**
   * Review of issue 37: an application that pins kafka-clients 3.x never makes Maven fetch the testkit's 4.x, and a
   * Gradle build has no local Maven repository: a jar that is missing is downloaded into it, at its Maven path.
   */
  @Test
  void resolve_aMissingJar_isDownloadedIntoTheLocalRepository() throws Exception {
    String relative = thisBuildsEntry("kafka-clients-");
    byte[] jar = Files.readAllBytes(StackBuild.localRepository().resolve(relative));
    serve(relative, jar);

    List<Path> jars = BrokerClassPath.resolve(BrokerClassPath.REPOSITORY + "/" + relative, repository, remote());

    Path landed = repository.resolve(relative);
    assertThat(jars).containsExactly(landed);
    assertThat(landed).isRegularFile().hasBinaryContent(jar);
    assertThat(landed.resolveSibling(landed.getFileName() + ".sha1")).hasContent(sha1(jar));
    assertThat(remote.takeRequest().getUrl().encodedPath()).isEqualTo("/maven2/" + relative);
    try (var files = Files.list(landed.getParent())) { // no partial download left beside it
      assertThat(files).allMatch(f -> f.equals(landed) || f.getFileName().toString().endsWith(".jar.sha1"));
    }
  }

  @Test
  void resolve_aJarTheRepositoryDoesNotHave_namesItsCoordinatesAndURL_leavesNothing() {
    serve("nothing", new byte[0]);
    String relative = "org/apache/kafka/kafka-clients/4.4.0/kafka-clients-4.4.0.jar";

    assertThatThrownBy(() -> BrokerClassPath.resolve("@localRepository@/" + relative, repository, remote()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("cannot download org.apache.kafka:kafka-clients:4.4.0 (a jar of the Kafka broker's "
            + "child JVM): HTTP 404 from " + remote.url("/maven2/" + relative))
        .hasMessageContaining("-Dkavro.maven.repository")
        .hasMessageContaining("-Dartifact=org.apache.kafka:kafka-clients:4.4.0");
    assertThat(repository.resolve(relative).getParent()).isEmptyDirectory();
  }

  @Test
  void resolve_anEmptyDownload_isRefused() {
    String relative = "org/example/lib/1.0/lib-1.0.jar";
    serve(relative, new byte[0]);

    assertThatThrownBy(() -> BrokerClassPath.resolve("@localRepository@/" + relative, repository, remote()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("cannot download org.example:lib:1.0 (a jar of the Kafka broker's child JVM): "
            + remote.url("/maven2/" + relative) + " gave an empty file");
    assertThat(repository.resolve(relative).getParent()).isEmptyDirectory();
  }

  /** The entry of this build's listing whose file name starts with {@code prefix}, relative to the repository. */
  private static String thisBuildsEntry(String prefix) throws IOException {
    try (InputStream in = BrokerClassPath.class.getResourceAsStream(BrokerClassPath.RESOURCE)) {
      for (String entry : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip().split(";")) {
        String relative = entry.substring(BrokerClassPath.REPOSITORY.length() + 1);
        if (Path.of(relative).getFileName().toString().startsWith(prefix)) {
          return relative;
        }
      }
    }
    throw new AssertionError("no " + prefix + "* in " + BrokerClassPath.RESOURCE);
  }

  /** Serves {@code bytes} at {@code relative} and its SHA-1 beside it, as Maven Central does; 404 for the rest. */
  private void serve(String relative, byte[] bytes) {
    remote.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        if (path.equals("/maven2/" + relative)) {
          return new MockResponse.Builder().code(200).body(new Buffer().write(bytes)).build();
        }
        if (path.equals("/maven2/" + relative + ".sha1")) {
          return new MockResponse.Builder().code(200).body(sha1(bytes) + "  " + relative).build();
        }
        return new MockResponse.Builder().code(404).build();
      }
    });
  }

  private static String sha1(byte[] bytes) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void resolve_anEmptyListing_isRefused() {
    assertThatThrownBy(() -> BrokerClassPath.resolve(" \n", repository, remote()))
        .hasMessage("broker.classpath lists no jar: the testkit was not built by Maven");
  }
}
