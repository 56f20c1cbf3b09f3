package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The testkit's quick start (docs/testkit.md, linked from the README) is what the build runs: its test is
 * {@code com.example.OrderFlowTest}, file for file, imports included, and its pom is
 * {@code src/test/resources/quickstart/pom.xml}, whose versions are the ones this build uses (issue 25, item 4:
 * the example did not compile as written, and a plain pom ran 0 tests).
 */
class ReadmeExampleInSyncTest {
  private static final Path PAGE = Path.of("..", "docs", "testkit.md");

  @Test
  void readmeTest_isTheTestThatRuns() throws IOException {
    String test = Files.readString(Path.of("src/test/java/com/example/OrderFlowTest.java"));

    assertThat(Files.readString(PAGE)).contains("```java\n" + test + "```");
  }

  @Test
  void readmePom_isTheQuickStartPom_withThisBuildsVersions() throws IOException {
    String pom = Files.readString(Path.of("src/test/resources/quickstart/pom.xml"));
    String build = Files.readString(Path.of("..", "pom.xml"));

    assertThat(Files.readString(PAGE)).contains("```xml\n" + pom + "```");
    assertThat(version(pom, "kafka-clients")).isEqualTo(property(build, "kafka.version"));
    assertThat(version(pom, "junit-jupiter")).isEqualTo(property(build, "junit.version"));
    assertThat(version(pom, "slf4j-simple")).as("a binding shows the testkit's logs")
        .isEqualTo(property(build, "slf4j.version"));
    assertThat(version(pom, "assertj-core")).isEqualTo(property(build, "assertj.version"));
    assertThat(version(pom, "maven-compiler-plugin")).isEqualTo(version(build, "maven-compiler-plugin"));
    assertThat(version(pom, "maven-surefire-plugin")).isEqualTo(version(build, "maven-surefire-plugin"));
    assertThat(version(pom, "kavro-serde")).isEqualTo(version(build, "kavro-parent", "<artifactId>kavro-parent"
        + "</artifactId>\\s*<version>([^<]+)</version>"));
    assertThat(version(pom, "kavro-testkit")).isEqualTo(version(pom, "kavro-serde"));
  }

  private static String version(String pom, String artifact) {
    return version(pom, artifact, "<artifactId>" + Pattern.quote(artifact) + "</artifactId>\\s*<version>([^<]+)"
        + "</version>");
  }

  private static String version(String pom, String what, String regex) {
    Matcher matcher = Pattern.compile(regex).matcher(pom);
    assertThat(matcher.find()).as("a version of " + what).isTrue();
    return matcher.group(1);
  }

  private static String property(String pom, String name) {
    return version(pom, name, "<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">");
  }
}
