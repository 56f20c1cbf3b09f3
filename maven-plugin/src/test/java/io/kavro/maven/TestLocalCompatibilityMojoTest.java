package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code test-local-compatibility} with a directory of several previous files, oldest first. */
class TestLocalCompatibilityMojoTest {
  @TempDir
  Path dir;

  private final RecordingLog log = new RecordingLog();

  private static String order(String fields) {
    return "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"com.acme\", \"fields\": ["
        + "{\"name\": \"id\", \"type\": \"long\"}" + fields + "]}";
  }

  @BeforeEach
  void setUp() throws Exception {
    Files.createDirectory(dir.resolve("previous"));
    // v1 has no note; v2 and v10 have one. Natural order: v1, v2, v10, so v10 is the last.
    Files.writeString(dir.resolve("previous/v1.avsc"), order(""));
    Files.writeString(dir.resolve("previous/v2.avsc"), order(", {\"name\": \"note\", \"type\": \"string\", "
        + "\"default\": \"\"}"));
    Files.writeString(dir.resolve("previous/v10.avsc"), order(", {\"name\": \"note\", \"type\": \"string\", "
        + "\"default\": \"\"}, {\"name\": \"tag\", \"type\": \"string\", \"default\": \"\"}"));
    // Reads v2 and v10 (both have a note), not v1: the note has no default.
    Files.writeString(dir.resolve("order.avsc"), order(", {\"name\": \"note\", \"type\": \"string\"}"));
  }

  private TestLocalCompatibilityMojo mojo(String level) {
    TestLocalCompatibilityMojo mojo = new TestLocalCompatibilityMojo();
    mojo.setLog(log);
    mojo.basedir = dir.toFile();
    mojo.schemas = Map.of("order", new File("order.avsc"));
    mojo.previousSchemaPaths = Map.of("order", new File("previous"));
    mojo.compatibilityLevels = Map.of("order", level);
    return mojo;
  }

  @Test
  void run_nonTransitiveLevel_testsAgainstTheLastFileInNaturalOrder() throws Exception {
    mojo("BACKWARD").execute();

    assertThat(log.lines()).contains("INFO order (order.avsc) is BACKWARD compatible with 3 previous schema(s)");
  }

  @Test
  void run_transitiveLevel_testsEveryFile_andNamesTheFileOfTheVersionThatFails() {
    assertThatThrownBy(mojo("BACKWARD_TRANSITIVE")::execute).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("order (order.avsc) is not BACKWARD_TRANSITIVE compatible")
        .hasMessageContaining("Order.note")
        .hasMessageContaining("version 1 is previous/v1.avsc, version 2 is previous/v2.avsc, version 3 is "
            + "previous/v10.avsc");
  }

  @Test
  void run_unknownLevel_failsNamingTheSchemaAndTheLevels() {
    assertThatThrownBy(mojo("SIDEWAYS")::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<compatibilityLevels>: 'order' has the level 'SIDEWAYS', which is none of [NONE, ");
  }
}
