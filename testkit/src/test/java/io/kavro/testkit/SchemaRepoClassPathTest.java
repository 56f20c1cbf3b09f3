package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: the schema-repo server's jars are a pinned list, each checked against its pinned SHA-1, taken from the
 * local Maven repository or downloaded into it; none is on the testkit's runtime class path.
 */
class SchemaRepoClassPathTest {
  private static final byte[] JAR = "a jar".getBytes(StandardCharsets.UTF_8);
  private static final String PATH = "org/example/lib/1.0/lib-1.0.jar";

  @TempDir
  Path repository;

  @StartStop
  private final MockWebServer remote = new MockWebServer();

  private MavenRemote remote() {
    return new MavenRemote(remote.url("/maven2").toString());
  }

  private static String sha1(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(bytes));
  }

  @Test
  void pinned_isTheServerAndValidatorJars_allWithASha1() {
    assertThat(SchemaRepoClassPath.PINNED)
        .allSatisfy(entry -> assertThat(entry).matches("[\\w.-]+:[\\w.-]+:[\\w.-]+ [0-9a-f]{40}"))
        .anyMatch(entry -> entry.startsWith("org.schemarepo:schema-repo-server:0.1.2 "))
        .anyMatch(entry -> entry.startsWith("org.glassfish.jaxb:jaxb-runtime:2.3.9 "))
        .anyMatch(entry -> entry.startsWith("org.apache.avro:avro:"
            + org.apache.avro.Schema.class.getPackage().getImplementationVersion() + " "));
  }

  @Test
  void theValidatorsName_isItsClass() throws Exception {
    assertThat(Class.forName(EmbeddedSchemaRepo.FULL_VALIDATOR_CLASS)).isAssignableTo(org.schemarepo.Validator.class);
  }

  @Test
  void resolve_aJarWithItsPinnedSha1_isTakenAsItIs() throws Exception {
    Path jar = repository.resolve(PATH);
    Files.createDirectories(jar.getParent());
    Files.write(jar, JAR);

    assertThat(SchemaRepoClassPath.resolve(List.of("org.example:lib:1.0 " + sha1(JAR)), repository, remote()))
        .containsExactly(jar);
    assertThat(remote.getRequestCount()).isZero();
  }

  @Test
  void resolve_aMissingOrAlteredJar_isDownloadedAndCheckedAgainstThePin() throws Exception {
    Path jar = repository.resolve(PATH);
    Files.createDirectories(jar.getParent());
    Files.write(jar, "tampered".getBytes(StandardCharsets.UTF_8));
    remote.enqueue(new MockResponse.Builder().code(200).body(new Buffer().write(JAR)).build());

    assertThat(SchemaRepoClassPath.resolve(List.of("org.example:lib:1.0 " + sha1(JAR)), repository, remote()))
        .containsExactly(jar);
    assertThat(jar).hasBinaryContent(JAR);
    assertThat(remote.takeRequest().getUrl().encodedPath()).isEqualTo("/maven2/" + PATH);
    assertThat(remote.getRequestCount()).isEqualTo(1); // the pin, not the repository's .sha1
  }

  @Test
  void resolve_aDownloadThatIsNotThePinnedJar_isRefused_leavesNothing() throws Exception {
    remote.enqueue(new MockResponse.Builder().code(200).body(new Buffer().write(JAR)).build());
    String pin = sha1("another jar".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> SchemaRepoClassPath.resolve(List.of("org.example:lib:1.0 " + pin), repository,
        remote()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("org.example:lib:1.0 (a jar of the schema-repo server's child JVM) from "
            + remote.url("/maven2/" + PATH) + " has SHA-1 " + sha1(JAR) + ", not the pinned " + pin)
        .hasMessageContaining("-Dartifact=org.example:lib:1.0");
    assertThat(repository.resolve(PATH).getParent()).isEmptyDirectory();
  }

  @Test
  void resolve_aMalformedEntry_isRefusedNamingIt() {
    assertThatThrownBy(() -> SchemaRepoClassPath.resolve(List.of("org.example:lib 0123"), repository, remote()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not groupId:artifactId:version sha1: 'org.example:lib 0123'");
  }
}
