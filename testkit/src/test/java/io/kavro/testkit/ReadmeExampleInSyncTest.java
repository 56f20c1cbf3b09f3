package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README prints {@link ReadmeExampleTest} as it is: the example users copy is one that runs. */
class ReadmeExampleInSyncTest {
  @Test
  void readmeExample_isTheTestThatRuns() throws IOException {
    String test = Files.readString(Path.of("src/test/java/io/kavro/testkit/ReadmeExampleTest.java"));
    String example = test.substring(test.indexOf("// README-EXAMPLE-START\n") + "// README-EXAMPLE-START\n".length(),
        test.indexOf("// README-EXAMPLE-END"));

    assertThat(Files.readString(Path.of("..", "README.md"))).contains("```java\n" + example + "```");
  }
}
