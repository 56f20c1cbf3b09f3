package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What {@link MavenBuildsIT}'s offline nested builds need from this build's local repository beyond this module's
 * own dependencies: Maven's {@code PlexusUtilsInjector} adds plexus-utils 1.1 to kavro-maven-plugin, whose
 * dependencies name no plexus-utils. This module declares it as a test dependency so the outer build fetches it.
 */
class NestedBuildArtifactsTest {
  @Test
  void testClassPath_holdsPlexusUtils11_thatMavenInjectsIntoThePlugin() {
    assertThat(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)))
        .as("plexus-utils 1.1, a test dependency in maven-plugin/pom.xml: the nested builds of MavenBuildsIT are"
            + " offline and Maven injects it into kavro-maven-plugin")
        .anySatisfy(entry -> assertThat(entry.replace('\\', '/'))
            .endsWith("org/codehaus/plexus/plexus-utils/1.1/plexus-utils-1.1.jar"));
  }
}
