package io.kavro.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class path of the schema-repo server's child JVM ({@link EmbeddedSchemaRepo}): a pinned list of jars, each
 * with its SHA-1, found in the local Maven repository ({@code -Dmaven.repo.local}, else {@code ~/.m2/repository}),
 * else downloaded into it from the remote repository ({@link MavenRemote}: {@code -Dkavro.maven.repository}, else
 * Maven Central). A jar whose SHA-1 is not the pinned one is downloaded again; a download whose SHA-1 is not the
 * pinned one is refused. None of these jars is a dependency of the testkit, so none reaches a user's class path.
 *
 * <p>The list is {@code org.schemarepo:schema-repo-server:0.1.2} with its runtime dependencies, plus what it needs
 * on Java 17 (JAXB, gone from the JDK: {@code javax.xml.bind:jaxb-api:2.3.1} and
 * {@code org.glassfish.jaxb:jaxb-runtime:2.3.9}) and what Kavro's validator needs there
 * ({@code org.apache.avro:avro:1.12.2}, the build's Avro, without the compression codecs it does not use), as
 * {@code mvn dependency:list -Dscope=runtime} resolved them from Maven Central on 2026-12-05, with
 * {@code org.slf4j:slf4j-api} held at the server's 1.7.7 (logback-classic 1.1.2 binds only to 1.7).
 */
final class SchemaRepoClassPath {
  /** {@code groupId:artifactId:version sha1}, sorted. */
  static final List<String> PINNED = List.of(
      "aopalliance:aopalliance:1.0 0235ba8b489512805ac13a8f9ea77a1ca5ebe3e8",
      "asm:asm:3.1 c157def142714c544bdea2e6144645702adf7097",
      "ch.qos.logback:logback-classic:1.1.2 b316e9737eea25e9ddd6d88eaeee76878045c6b2",
      "ch.qos.logback:logback-core:1.1.2 2d23694879c2c12f125dac5076bdfd5d771cc4cb",
      "com.fasterxml.jackson.core:jackson-annotations:2.22 15c67f9498d6934cff9510fc70c5a12e52290457",
      "com.fasterxml.jackson.core:jackson-core:2.22.1 da7ffb60088d7e8f37ecdd3b617520971cc7b9bf",
      "com.fasterxml.jackson.core:jackson-databind:2.22.1 9e2fb91831cce9cb9262909cd76647508949f232",
      "com.google.code.gson:gson:2.3.1 ecb6e1f8e4b0e84c4b886c2f14a1500caf309757",
      "com.google.inject.extensions:guice-servlet:3.0 610cde0e8da5a8b7d8efb8f0b8987466ffebaaf9",
      "com.google.inject:guice:3.0 9d84f15fe35e2c716a02979fb62f50a29f38aefa",
      "com.sun.activation:jakarta.activation:1.2.2 74548703f9851017ce2f556066659438019e7eb5",
      "com.sun.istack:istack-commons-runtime:3.0.12 cbbe1a62b0cc6c85972e99d52aaee350153dc530",
      "com.sun.jersey.contribs:jersey-guice:1.15 e5d1014dcae51d02284ee6d5163ba2e081d8c82e",
      "com.sun.jersey:jersey-core:1.15 aecdf7d8fd40d5851ed31f8014973de1fe50a3ef",
      "com.sun.jersey:jersey-server:1.15 f33918fcbccb8c1aa6be5384a88143b5557a8a65",
      "com.sun.jersey:jersey-servlet:1.15 5a1a1bbc60ece12fce69edeced1859bac9597e05",
      "jakarta.xml.bind:jakarta.xml.bind-api:2.3.3 48e3b9cfc10752fba3521d6511f4165bea951801",
      "javax.activation:javax.activation-api:1.2.0 85262acf3ca9816f9537ca47d5adeabaead7cb16",
      "javax.inject:javax.inject:1 6975da39a7040257bd51d21a231b76c915872d38",
      "javax.xml.bind:jaxb-api:2.3.1 8531ad5ac454cc2deb9d4d32c40c4d7451939b5d",
      "org.apache.avro:avro:1.12.2 2f7267bc0e3606cc837854a32286bca9197e104b",
      "org.eclipse.jetty.orbit:javax.servlet:3.0.0.v201112011016 0aaaa85845fb5c59da00193f06b8e5278d8bf3f8",
      "org.eclipse.jetty:jetty-continuation:8.1.14.v20131031 e3396abd21360191c2277e848eff489b58bba45d",
      "org.eclipse.jetty:jetty-http:8.1.14.v20131031 8dd4e01b374e16cf0335b7975a7aa0a57396d5da",
      "org.eclipse.jetty:jetty-io:8.1.14.v20131031 12f6f92d7e58349501f2cfc0716b8f1c6a2962eb",
      "org.eclipse.jetty:jetty-security:8.1.14.v20131031 d6fd7add8e6015a95558b67b43edf7752a925884",
      "org.eclipse.jetty:jetty-server:8.1.14.v20131031 7f7f9b929b9d9169dd68f36327c819ab9a03a661",
      "org.eclipse.jetty:jetty-servlet:8.1.14.v20131031 2ea127b7001965201d28ce715f5754573205c4ae",
      "org.eclipse.jetty:jetty-util:8.1.14.v20131031 43063284480a41eca024dc8852452eedf6379c16",
      "org.glassfish.jaxb:jaxb-runtime:2.3.9 9d42b4f19df7e20b625b2044a7de81d95f6dff29",
      "org.glassfish.jaxb:txw2:2.3.9 13a78453a89bf7d268382a520cba4d5435c5adfc",
      "org.schemarepo:schema-repo-common:0.1.2 6d3d3f4092d303ebfaff80a94295c4c661f7a800",
      "org.schemarepo:schema-repo-server:0.1.2 dbc723d62163b0e33bf187e4f99f2414ca43418e",
      "org.slf4j:jul-to-slf4j:1.7.7 def21bc1a6e648ee40b41a84f1db443132913105",
      "org.slf4j:slf4j-api:1.7.7 2b8019b6249bb05d81d3a3094e468753e2b21311");

  private static final Logger log = LoggerFactory.getLogger(SchemaRepoClassPath.class);

  private SchemaRepoClassPath() {}

  /** The server's jars, from the local Maven repository, downloaded into it when missing. */
  static List<Path> resolve() {
    return resolve(PINNED, StackBuild.localRepository(), MavenRemote.fromSystemProperties());
  }

  /**
   * The jars of {@code pinned} ({@code groupId:artifactId:version sha1} each), found in {@code repository} with
   * their pinned SHA-1, else downloaded into it from {@code remote}.
   *
   * @throws IllegalArgumentException when an entry is not {@code groupId:artifactId:version sha1}
   * @throws IllegalStateException when a jar cannot be downloaded, or its download's SHA-1 is not the pinned one;
   *     the message gives its coordinates and URL
   */
  static List<Path> resolve(List<String> pinned, Path repository, MavenRemote remote) {
    List<Path> jars = new ArrayList<>(pinned.size());
    for (String entry : pinned) {
      String[] words = entry.strip().split("\\s+");
      String[] coordinates = words[0].split(":");
      if (words.length != 2 || coordinates.length != 3 || !words[1].matches("[0-9a-fA-F]{40}")) {
        throw new IllegalArgumentException("not groupId:artifactId:version sha1: '" + entry + "'");
      }
      String group = coordinates[0];
      String artifact = coordinates[1];
      String version = coordinates[2];
      String path = group.replace('.', '/') + "/" + artifact + "/" + version + "/" + artifact + "-" + version + ".jar";
      Path jar = repository.resolve(path);
      if (!Files.isRegularFile(jar) || !MavenRemote.sha1OrNothing(jar).equalsIgnoreCase(words[1])) {
        if (Files.isRegularFile(jar)) {
          log.warn("{} does not match its pinned SHA-1 {}: downloading it again", jar, words[1]);
        }
        remote.download(path, jar, words[1], words[0] + " (a jar of the schema-repo server's child JVM)",
            "set -D" + MavenRemote.PROPERTY + " to a Maven repository that has it, or fetch it with mvn "
                + "dependency:get -Dartifact=" + words[0]);
      }
      jars.add(jar);
    }
    return List.copyOf(jars);
  }
}
