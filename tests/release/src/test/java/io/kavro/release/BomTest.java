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
    Matcher dependency = Pattern.compile("<artifactId>([^<]+)</artifactId>\\s*<version>\\$\\{project.version}"
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
  void publishedPoms_inheritTheRepositorysUrlAndScm_withoutTheirArtifactIdAppended() {
    // Maven appends a child's artifactId to an inherited <url> and <scm> unless the parent says not to: every
    // published POM would name https://github.com/kavro/kavro/kavro-serde, a page that does not exist.
    String project = startTag(ROOT_POM, "<project ");
    String scm = startTag(ROOT_POM, "<scm");
    assertThat(project).contains("child.project.url.inherit.append.path=\"false\"");
    assertThat(scm).contains("child.scm.connection.inherit.append.path=\"false\"",
        "child.scm.developerConnection.inherit.append.path=\"false\"", "child.scm.url.inherit.append.path=\"false\"");
    for (Published module : Published.all()) {
      String pom = Published.read(Published.ROOT.resolve(module.folder()).resolve("pom.xml"));
      if (pom.contains("<parent>")) {
        assertThat(pom).as(module.folder() + " inherits the root's scm").doesNotContain("<scm");
      }
    }
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

  private static String startTag(String pom, String start) {
    int from = pom.indexOf(start);
    return pom.substring(from, pom.indexOf('>', from));
  }
}
