package io.kavro.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The public API of every published artifact is the one checked in under {@code api/} (issue 53, item 3): a change
 * of a public type, member or signature fails the build until {@code api/<artifactId>.txt} is updated, so every API
 * change shows in review. {@code -Dkavro.api.update=true} rewrites the files from the compiled classes.
 */
class ApiBaselineTest {
  static final String UPDATE_COMMAND = "mvn -B -o -q -pl tests/release -am test -Dtest=ApiBaselineTest"
      + " -Dsurefire.failIfNoSpecifiedTests=false -Dkavro.api.update=true";

  @Test
  void publicApi_isTheCheckedInBaseline() throws IOException {
    boolean update = Boolean.getBoolean("kavro.api.update");
    List<String> changed = new ArrayList<>();
    for (Published module : Published.all()) {
      if (!module.hasClasses()) {
        continue;
      }
      String api = ApiBaseline.of(module.classes());
      Path baseline = Published.ROOT.resolve("api").resolve(module.artifactId() + ".txt");
      String checkedIn = Files.exists(baseline) ? Files.readString(baseline) : "";
      if (api.equals(checkedIn)) {
        continue;
      }
      if (update) {
        Files.createDirectories(baseline.getParent());
        Files.writeString(baseline, api);
        System.out.println("rewrote " + baseline);
      } else {
        changed.add(difference(module.artifactId(), checkedIn, api));
      }
    }
    assertThat(changed).as("""
        The public API changed without its baseline in api/. If the change is meant, rewrite the baseline \
        from the compiled classes and commit api/ with the change:
          %s
        """, UPDATE_COMMAND).isEmpty();
  }

  /** The lines only in the baseline (-) and only in the classes (+), at most 40 of them. */
  private static String difference(String artifactId, String checkedIn, String api) {
    Set<String> before = new LinkedHashSet<>(checkedIn.lines().toList());
    Set<String> after = new LinkedHashSet<>(api.lines().toList());
    StringBuilder text = new StringBuilder("api/" + artifactId + ".txt:\n");
    int shown = 0;
    for (String line : before) {
      if (!after.contains(line) && shown++ < 40) {
        text.append("- ").append(line.strip()).append('\n');
      }
    }
    for (String line : after) {
      if (!before.contains(line) && shown++ < 40) {
        text.append("+ ").append(line.strip()).append('\n');
      }
    }
    if (shown > 40) {
      text.append("... and ").append(shown - 40).append(" more\n");
    }
    return text.toString();
  }
}
