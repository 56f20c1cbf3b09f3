package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.testkit.EmbeddedRegistry;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 49, item 12: {@code test-compatibility} at a {@code _TRANSITIVE} level against a real registry, the
 * testkit's Apicurio. A real registry's compatibility test is against the latest version only, even at a transitive
 * level, where registering tests every version; Kavro's in-memory registry tests every version, so a goal that
 * skipped its own reading of every version still failed on {@code mock://}, and its unit tests could not tell. Here
 * only the goal's own reading can find that the new schema cannot read version 1.
 */
class TestCompatibilityOnApicurioIT {
  /** Version 1: no note. */
  private static final String V1 = """
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [{"name": "id", "type": "string"}]}""";
  /** Version 2: a note, with a default. */
  private static final String V2 = """
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [{"name": "id", "type": "string"},
       {"name": "note", "type": "string", "default": ""}]}""";
  /** The next schema: the note without a default, which reads version 2 but not version 1. */
  private static final String NEXT = """
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [{"name": "id", "type": "string"},
       {"name": "note", "type": "string"}]}""";

  private static EmbeddedRegistry apicurio;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    apicurio = SharedRegistry.registry();
  }

  /** A subject with versions 1 and 2 at {@code level}. */
  private static String subjectAt(CompatibilityLevel level) {
    String subject = "transitive-" + UUID.randomUUID() + "-value";
    try (SchemaRegistryClient client = SchemaRegistryClients.create(Map.of("schema.registry.url", apicurio.url()))) {
      client.register(subject, new Schema.Parser().parse(V1));
      client.register(subject, new Schema.Parser().parse(V2));
      client.setCompatibility(subject, level);
      // The premise: the registry's own test passes, for it reads the latest version only.
      assertThat(client.checkCompatibility(subject, new Schema.Parser().parse(NEXT)).compatible())
          .as("Apicurio tests against the latest version only; if it tests every version now, this test no longer "
              + "tells whether the goal reads every version itself")
          .isTrue();
    }
    return subject;
  }

  private TestCompatibilityMojo mojo(String subject, RecordingLog log) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), NEXT);
    TestCompatibilityMojo mojo = new TestCompatibilityMojo();
    mojo.setLog(log);
    mojo.basedir = dir.toFile();
    mojo.schemaRegistryUrls = List.of(apicurio.url());
    mojo.subjects = Map.of(subject, new File("order.avsc"));
    mojo.decodeSubject = true;
    mojo.verbose = true;
    return mojo;
  }

  @Test
  void transitiveLevel_aSchemaThatCannotReadVersion1_failsThoughTheRegistrysTestPasses() throws Exception {
    String subject = subjectAt(CompatibilityLevel.BACKWARD_TRANSITIVE);

    assertThatThrownBy(mojo(subject, new RecordingLog())::execute).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("1 of 1 schema(s) are incompatible with their subjects")
        .hasMessageContaining("subject '" + subject + "' (order.avsc) is not compatible at BACKWARD_TRANSITIVE")
        .hasMessageContaining("the registry's test passes against the latest version, but Avro finds that the new "
            + "schema cannot read version 1 (field Order.note")
        .hasMessageContaining("a transitive registry would refuse it");
  }

  @Test
  void nonTransitiveLevel_theSameSchema_passes() throws Exception {
    String subject = subjectAt(CompatibilityLevel.BACKWARD);
    RecordingLog log = new RecordingLog();

    assertThatCode(mojo(subject, log)::execute).doesNotThrowAnyException();
    assertThat(log.lines()).anySatisfy(line -> assertThat(line).contains("subject '" + subject + "'")
        .contains("is compatible at BACKWARD"));
  }
}
