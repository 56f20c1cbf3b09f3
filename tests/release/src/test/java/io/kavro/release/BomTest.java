package io.kavro.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * kavro-bom pins every published artifact at this build's version, and every module of the build is either published
 * ({@code release/modules}) or skips deploy: a new module is a decision, not an accident of the release.
 */
class BomTest {
  private static final String BOM = Published.read(Published.ROOT.resolve("bom/pom.xml"));
  private static final String ROOT_POM = Published.read(Published.ROOT.resolve("pom.xml"));

  @Test
  void bom_isThisBuildsVersion_andInheritsNothing() {
    assertThat(Published.element(BOM, "version")).isEqualTo(Published.element(ROOT_POM, "version"));
    assertThat(BOM).as("a parent's dependencyManagement would pin Kafka and Avro in users' builds")
        .doesNotContain("<parent>");
  }

  @Test
  void bom_pinsEveryPublishedArtifact() {
    List<String> pinned = new ArrayList<>();
    Matcher dependency = Pattern.compile("<artifactId>([^<]+)</artifactId>\\s*<version>\\$\\{kavro.version}"
        + "</version>").matcher(BOM);
    while (dependency.find()) {
      pinned.add(dependency.group(1));
    }
    List<String> published = Published.all().stream().map(Published::artifactId)
        .filter(artifact -> !artifact.equals("kavro-bom")).toList();

    assertThat(pinned).containsAll(published);
    assertThat(published).containsAll(pinned);
  }

  @Test
  void everyModule_isPublished_orSkipsDeploy() {
    List<String> folders = Published.all().stream().map(Published::folder).toList();
    Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(ROOT_POM);
    List<String> neither = new ArrayList<>();
    while (module.find()) {
      String folder = module.group(1);
      String pom = Published.read(Published.ROOT.resolve(folder).resolve("pom.xml"));
      if (!folders.contains(folder) && !pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
        neither.add(folder);
      }
    }
    assertThat(neither).as("modules neither in release/modules nor skipping deploy").isEmpty();
  }
}
