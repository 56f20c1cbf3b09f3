package io.kavro.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/spring-boot.md shows the application's own {@code application.yml}, so that the page cannot drift from it. */
class SpringBootPageTest {
  private static final Path PAGE = Path.of("..", "..", "docs", "spring-boot.md");
  private static final Path APPLICATION_YML = Path.of("src", "main", "resources", "application.yml");

  @Test
  void thePagesApplicationYml_isTheApplications_lessItsComments() throws IOException {
    String page = Files.readString(PAGE);
    int start = page.indexOf("```yaml\n") + "```yaml\n".length();
    List<String> shown = settings(page.substring(start, page.indexOf("```", start)));

    assertThat(shown).hasSizeGreaterThan(10);
    assertThat(settings(Files.readString(APPLICATION_YML))).containsSubsequence(shown);
  }

  private static List<String> settings(String yaml) {
    return yaml.lines().filter(line -> !line.isBlank() && !line.strip().startsWith("#")).toList();
  }
}
