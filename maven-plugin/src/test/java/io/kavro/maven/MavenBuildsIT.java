package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.testkit.EmbeddedRegistry;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.maven.shared.invoker.DefaultInvocationRequest;
import org.apache.maven.shared.invoker.DefaultInvoker;
import org.apache.maven.shared.invoker.InvocationRequest;
import org.apache.maven.shared.invoker.InvocationResult;
import org.apache.maven.shared.invoker.MavenInvocationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 38, item 2: the plugin as users run it. Each goal's sample project under {@code src/it} is built by the Maven
 * that runs this build (Maven's invoker, {@code -Dmaven.home}), once where it passes and once where it fails, against
 * one registry for all of them (the testkit's Apicurio). The builds run after {@code package}, with this build's
 * plugin and its Kavro dependencies installed into a local repository of their own ({@code target/it-repo}); every
 * other artifact comes from this build's local repository, read as a {@code file:} mirror, offline. The samples run
 * in order: what one registers, the next tests.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MavenBuildsIT {
  private static final Path MODULE = Path.of("").toAbsolutePath();
  private static final Path TARGET = MODULE.resolve("target");
  private static final Path SAMPLES = TARGET.resolve("it");
  private static final Path REPOSITORY = TARGET.resolve("it-repo");
  private static final String VERSION = System.getProperty("kavro.version", "0.1.0-SNAPSHOT");

  private static EmbeddedRegistry registry;

  @BeforeAll
  static void setUp() throws IOException {
    assertThat(System.getProperty("maven.home")).as("-Dmaven.home, the Maven that runs the samples").isNotBlank();
    delete(SAMPLES);
    copy(MODULE.resolve("src/it"), SAMPLES);
    Path reader = Path.of("com", "acme", "reader", "OrderReader.class");
    copy(TARGET.resolve("test-classes").resolve(reader), SAMPLES.resolve("verify-reader/target/classes")
        .resolve(reader));
    delete(REPOSITORY);
    install("kavro-parent", MODULE.resolve("../pom.xml"), null);
    Path registryHttp = MODULE.resolve("../registry-http");
    install("kavro-registry-http", registryHttp.resolve("pom.xml"),
        registryHttp.resolve("target/kavro-registry-http-" + VERSION + ".jar"));
    Path schemaTools = MODULE.resolve("../schema-tools");
    install("kavro-schema-tools", schemaTools.resolve("pom.xml"),
        schemaTools.resolve("target/kavro-schema-tools-" + VERSION + ".jar"));
    install("kavro-maven-plugin", MODULE.resolve("pom.xml"), TARGET.resolve("kavro-maven-plugin-" + VERSION + ".jar"));
    Path outer = writeSettings();
    // Maven injects plexus-utils 1.1 into the plugin (PlexusUtilsInjector); the nested builds are offline.
    assertThat(outer.resolve("org/codehaus/plexus/plexus-utils/1.1/plexus-utils-1.1.jar"))
        .as("plexus-utils 1.1 in the outer local repository: a test dependency of maven-plugin, which Maven adds to"
            + " every nested build's kavro-maven-plugin")
        .isRegularFile();
    registry = SharedRegistry.registry();
  }

  @Test
  @Order(1)
  void register_newSubjects_printsEachIdAndVersion_registersTheImportsFirst_andFailsOnLostContracts() {
    Build build = mvn("register", "contracts=true");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("Registered subject 'it-orders-value'").contains(": version 1, id ")
        .contains("Registered subject 'it-shipments-value'")
        .contains("references com.acme.Address=com.acme.Address:1")
        .contains("Registered subject 'it-audits-value'").contains("references com.acme.Order=it-orders-value:1")
        .as("<metadata> and <ruleSet> in Confluent's shapes, as Maven builds them")
        .contains("with metadata (properties [owner], tags [**.to], sensitive [owner]) and rules [checkId]")
        .as("Apicurio keeps no contracts: an error naming the subject and the id, as kavro schema register's")
        .contains("register failed for 1 of 3 subject(s)")
        .contains("the registry dropped the rules and metadata of subject 'it-shipments-value': read back, schema id ");
  }

  @Test
  @Order(2)
  void setCompatibility_aSubjectsLevel_isSet() {
    Build build = mvn("set-compatibility");

    build.assertPassed();
    assertThat(build.output()).contains("Compatibility of subject 'it-orders-value' set to BACKWARD");
  }

  @Test
  @Order(3)
  void register_incompatibleSchema_failsNamingTheSubjectAndTheField_andSkipsItsReferrer() {
    Build build = mvn("register", "case=bad");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("register failed for 2 of 3 subject(s)")
        .contains("subject 'it-orders-value'").contains("is incompatible").contains("Order.priority")
        .contains("subject 'it-audits-value' (").contains("audit.avsc) was not registered: its reference "
            + "com.acme.Order names subject 'it-orders-value', which failed");
  }

  @Test
  @Order(4)
  void setCompatibility_unknownLevel_failsNamingIt() {
    Build build = mvn("set-compatibility", "level=SIDEWAYS");

    build.assertFailed("MojoExecutionException");
    assertThat(build.output()).contains("subject 'it-orders-value' has the level 'SIDEWAYS'");
  }

  @Test
  @Order(5)
  void skip_skipsTheGoal_andSoDoesConfluentsProperty() {
    Build build = mvn("set-compatibility", "level=SIDEWAYS", "kavro.skip=true");
    Build confluents = mvn("set-compatibility", "level=SIDEWAYS", "kafka-schema-registry.skip=true");

    build.assertPassed();
    assertThat(build.output()).contains("Skipped (skip=true: <skip> or -Dkavro.skip)");
    confluents.assertPassed();
    assertThat(confluents.output()).contains("Skipped (kafka-schema-registry.skip=true, the property of Confluent's");
  }

  @Test
  @Order(6)
  void testCompatibility_compatibleSchema_passes_andANewSubjectHasNothingToBreak() {
    Build build = mvn("test-compatibility");

    build.assertPassed();
    assertThat(build.output()).contains("subject 'it-orders-value'").contains("is compatible at BACKWARD")
        .contains("subject 'it-brand-new-value'").contains("has no version yet");
  }

  @Test
  @Order(7)
  void testCompatibility_incompatibleSchema_failsNamingTheField() {
    Build build = mvn("test-compatibility", "case=bad");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("1 of 2 schema(s) are incompatible with their subjects")
        .contains("is not compatible at BACKWARD").contains("Order.priority");
  }

  @Test
  @Order(8)
  void register_evolvedSchema_registersVersion2() {
    Build build = mvn("register", "case=good");

    build.assertPassed();
    assertThat(build.output()).contains("Registered subject 'it-orders-value'").contains(": version 2, id ");
  }

  @Test
  @Order(9)
  void verifyReader_fileAndClass_readEveryVersion() {
    Build build = mvn("verify-reader");

    build.assertPassed();
    assertThat(build.output()).contains("reads subject 'it-orders-value' versions [1, 2] of [1, 2]")
        .contains("reader class com.acme.reader.OrderReader reads subject 'it-orders-value' versions [1, 2]");
  }

  @Test
  @Order(10)
  void verifyReader_readerThatCannotReadTheFirstVersion_failsNamingVersionIdAndField() {
    Build build = mvn("verify-reader", "reader=bad");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("1 registered version(s) cannot be read")
        .contains("cannot read subject 'it-orders-value' version 1 (id ").contains("Order.note");
  }

  @Test
  @Order(11)
  void download_patterns_writeEachSubjectSelfContained() throws IOException {
    Build build = mvn("download");

    build.assertPassed();
    Path schemas = SAMPLES.resolve("download/target/schemas");
    assertThat(Files.readString(schemas.resolve("it-orders-value.avsc"))).contains("\"note\"");
    assertThat(Files.readString(schemas.resolve("it-shipments-value.avsc"))).as("the referenced type, inlined")
        .contains("\"Address\"").contains("\"street\"");
  }

  @Test
  @Order(12)
  void download_versionTheSubjectLacks_failsNamingIt() {
    Build build = mvn("download", "download.version=99");

    build.assertFailed("MojoExecutionException");
    assertThat(build.output()).contains("has no version 99");
  }

  @Test
  @Order(13)
  void testCompatibility_transitiveLevel_readsEveryVersion_notOnlyTheLatest() {
    // Version 2 has a note, version 1 none: a note without a default reads version 2 only.
    try (SchemaRegistryClient client = SchemaRegistryClients.create(Map.of("schema.registry.url", registry.url()))) {
      client.setCompatibility("it-orders-value", CompatibilityLevel.BACKWARD_TRANSITIVE); // the goal: test 2's
    }
    Build build = mvn("test-compatibility", "case=transitive");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("1 of 2 schema(s) are incompatible with their subjects")
        .contains("is not compatible at BACKWARD_TRANSITIVE").contains("version 1").contains("Order.note")
        .contains("the registry's test passes against the latest version, but Avro finds that the new schema "
            + "cannot read version 1 (field Order.note").contains("; a transitive registry would refuse it");
    // With compatibility groups the registry checks within a group, and Kavro reads no version on its own.
    Build grouped = mvn("test-compatibility", "case=transitive", "group=major");
    grouped.assertPassed();
    assertThat(grouped.output()).contains("is compatible at BACKWARD_TRANSITIVE");
  }

  @Test
  @Order(14)
  void validate_schemaFiles_passWithoutARegistry() {
    Build build = mvn("validate");

    build.assertPassed();
    assertThat(build.output()).contains("subject 'it-shipments-value'").contains("is a valid Avro schema")
        .contains("subject 'it-visits-value'").contains("subject 'it-deliveries-value'");
    // No warning about a subject's schema; Maven's own warnings (a plugin's version, say) are none of this goal's.
    assertThat(build.output().lines()).noneMatch(line -> line.contains("[WARNING]") && line.contains("subject '"));
  }

  /** Issue 49, item 10: what register refuses, validate refuses: the forms Avro 1.12.2 refuses fail the build. */
  @Test
  @Order(15)
  void validate_formsAvro1122AndRegisterRefuse_failNamingWhatToChange() {
    Build build = mvn("validate", "legacy=legacy");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("2 of 4 schema file(s) are not valid")
        .contains("subject 'it-visits-value'").contains("Avro 1.12.2 refuses it").contains("AVRO-4176")
        .contains("subject 'it-deliveries-value'").contains("Invalid default for field floor: \"ground\" not a "
            + "\"int\"").contains("and so does register").contains("a default does not match its field's type");
  }

  @Test
  @Order(16)
  void validate_notAnAvroSchema_failsNamingTheFile() {
    Build build = mvn("validate", "case=broken");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("1 of 4 schema file(s) are not valid").contains("broken")
        .contains("order.avsc is not an Avro schema");
  }

  @Test
  @Order(17)
  void testLocalCompatibility_compatibleFiles_passWithImportedTypes() {
    Build build = mvn("test-local-compatibility");

    build.assertPassed();
    assertThat(build.output()).contains("is BACKWARD_TRANSITIVE compatible with 1 previous schema(s)")
        .contains("is BACKWARD compatible with 1 previous schema(s)");
  }

  @Test
  @Order(18)
  void testLocalCompatibility_incompatibleFiles_failNamingEachField() {
    Build build = mvn("test-local-compatibility", "case=bad");

    build.assertFailed("MojoFailureException");
    assertThat(build.output()).contains("2 of 2 schema(s) are incompatible with their previous schemas")
        .contains("Order.priority").contains("Shipment.carrier").contains("version 1 is ");
  }

  /** What a sample build printed, and its exit status. */
  record Build(int exitCode, String output) {
    void assertPassed() {
      assertThat(exitCode).as(output).isZero();
      assertThat(output).contains("BUILD SUCCESS");
    }

    /**
     * Failed with Maven's one-line message, never a stack trace alone, and as the goal meant to fail: Maven's help
     * link names the exception, and an exception that escaped the goal would be a PluginExecutionException.
     *
     * @param expected MojoFailureException for a schema problem, MojoExecutionException for the setup's
     */
    void assertFailed(String expected) {
      assertThat(exitCode).as(output).isNotZero();
      assertThat(output).contains("BUILD FAILURE").contains("Failed to execute goal io.kavro:kavro-maven-plugin")
          .contains("/MAVEN/" + expected).doesNotContain("PluginExecutionException").doesNotContain("\tat io.kavro");
    }
  }

  /** Runs {@code mvn -o validate} in a sample's folder with these {@code key=value} properties. */
  private static Build mvn(String sample, String... properties) {
    InvocationRequest request = new DefaultInvocationRequest();
    request.setBaseDirectory(SAMPLES.resolve(sample).toFile());
    request.setGoals(List.of("validate"));
    request.setBatchMode(true);
    request.setNoTransferProgress(true);
    request.setOffline(true);
    request.setLocalRepositoryDirectory(REPOSITORY.toFile());
    request.setUserSettingsFile(TARGET.resolve("it-settings.xml").toFile());
    request.setJavaHome(new File(System.getProperty("java.home")));
    // Maven's own JVM starts quicker with the client compiler alone: these builds are short.
    request.setMavenOpts("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m");
    request.setTimeoutInSeconds(180);
    Properties props = new Properties();
    props.setProperty("kavro.version", VERSION);
    props.setProperty("registry.url", registry.url());
    // Offline, but for the file: mirror of the outer build's local repository (Maven's resolver honours it).
    props.setProperty("aether.offline.protocols", "file");
    for (String property : properties) {
      int equals = property.indexOf('=');
      props.setProperty(property.substring(0, equals), property.substring(equals + 1));
    }
    request.setProperties(props);
    StringBuilder output = new StringBuilder();
    request.setOutputHandler(line -> output.append(line).append('\n'));
    request.setErrorHandler(line -> output.append(line).append('\n'));
    DefaultInvoker invoker = new DefaultInvoker();
    invoker.setMavenHome(new File(System.getProperty("maven.home")));
    InvocationResult result;
    long start = System.nanoTime();
    try {
      result = invoker.execute(request);
    } catch (MavenInvocationException e) {
      throw new IllegalStateException("cannot run Maven for sample " + sample, e);
    }
    if (result.getExecutionException() != null) {
      throw new IllegalStateException("cannot run Maven for sample " + sample + ":\n" + output,
          result.getExecutionException());
    }
    System.out.printf("sample %s %s: exit %d in %d ms%n", sample, List.of(properties), result.getExitCode(),
        (System.nanoTime() - start) / 1_000_000);
    return new Build(result.getExitCode(), output.toString());
  }

  /**
   * Writes settings whose one mirror is the outer build's local repository, as a {@code file:} repository, and
   * returns that repository.
   */
  private static Path writeSettings() {
    Path outer = Path.of(System.getProperty("maven.repo.local",
        Path.of(System.getProperty("user.home"), ".m2", "repository").toString())).toAbsolutePath();
    try {
      Files.writeString(TARGET.resolve("it-settings.xml"), """
          <settings>
            <mirrors>
              <mirror>
                <id>outer-build</id>
                <mirrorOf>*</mirrorOf>
                <url>%s</url>
              </mirror>
            </mirrors>
          </settings>
          """.formatted(outer.toUri()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return outer;
  }

  /** Installs a Kavro artifact of this checkout into the samples' local repository, as {@code mvn install} does. */
  private static void install(String artifactId, Path pom, Path jar) throws IOException {
    Path folder = REPOSITORY.resolve("io/kavro").resolve(artifactId).resolve(VERSION);
    copy(pom, folder.resolve(artifactId + "-" + VERSION + ".pom"));
    if (jar != null) {
      assertThat(jar).as("the jar of " + artifactId + ": built by this build before its integration tests")
          .isRegularFile();
      copy(jar, folder.resolve(artifactId + "-" + VERSION + ".jar"));
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    if (Files.isDirectory(from)) {
      try (Stream<Path> files = Files.walk(from)) {
        for (Path file : files.toList()) {
          Path target = to.resolve(from.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(target);
          } else {
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    } else {
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void delete(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }
}
