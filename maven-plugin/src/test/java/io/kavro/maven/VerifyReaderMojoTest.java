package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.reader.OrderReader;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code verify-reader} with a reader class against Kavro's in-memory registry ({@code mock://}). */
class VerifyReaderMojoTest {
  /** An order whose id is a string: the reader class reads ids as longs, so it cannot read this one. */
  private static final Schema STRING_ID = new Schema.Parser().parse("""
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [
        {"name": "id", "type": "string"}, {"name": "amount", "type": "double"}]}""");
  private static final Schema LONG_ID = new Schema.Parser().parse("""
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [
        {"name": "id", "type": "long"}, {"name": "amount", "type": "double"}]}""");
  private static final Schema WITH_NOTE = new Schema.Parser().parse("""
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [
        {"name": "id", "type": "long"}, {"name": "amount", "type": "double"},
        {"name": "note", "type": ["null", "string"], "default": null}]}""");

  private final String scope = "readers-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);
  private final RecordingLog log = new RecordingLog();

  @BeforeEach
  void setUp() {
    registry.setCompatibility("orders-value", CompatibilityLevel.NONE);
  }

  @AfterEach
  void tearDown() {
    MockRegistries.drop(scope);
  }

  private VerifyReaderMojo mojo() throws Exception {
    VerifyReaderMojo mojo = new VerifyReaderMojo();
    mojo.setLog(log);
    mojo.basedir = new File(".");
    mojo.schemaRegistryUrls = List.of("mock://" + scope);
    mojo.readerClasses = Map.of("orders-value", OrderReader.class.getName());
    mojo.classpathElements = List.of(Path.of(OrderReader.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI()).toString());
    return mojo;
  }

  @Test
  void run_readerClassThatCannotReadAVersion_failsNamingTheVersionItsIdAndTheField() throws Exception {
    int first = registry.register("orders-value", STRING_ID);
    registry.register("orders-value", WITH_NOTE);

    assertThatThrownBy(mojo()::execute).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("1 registered version(s) cannot be read")
        .hasMessageContaining("reader class com.acme.reader.OrderReader cannot read subject 'orders-value' version 1 "
            + "(id " + first + "): ")
        .hasMessageContaining("Order.id");
  }

  @Test
  void run_compatibilityGroup_readsOnlyTheLatestVersionsGroup() throws Exception {
    registry.register("orders-value", STRING_ID, Map.of("major", "1"));
    registry.register("orders-value", LONG_ID, Map.of("major", "2"));
    registry.register("orders-value", WITH_NOTE, Map.of("major", "2"));
    VerifyReaderMojo mojo = mojo();
    mojo.compatibilityGroup = "major";

    mojo.execute();

    assertThat(log.lines()).contains("INFO reader class com.acme.reader.OrderReader reads subject 'orders-value' "
        + "versions [2, 3] of [2, 3]");
  }

  @Test
  void run_compatibilityGroupTheLatestVersionLacks_failsNamingTheProperty() throws Exception {
    registry.register("orders-value", LONG_ID);
    VerifyReaderMojo mojo = mojo();
    mojo.compatibilityGroup = "major";

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("subject 'orders-value' version 1 (the latest) has no metadata property 'major'");
  }

  @Test
  void run_decodeSubjectFalse_takesTheKeyAsTheSubject() throws Exception {
    registry.register("my_x2Forders", LONG_ID);
    VerifyReaderMojo mojo = mojo();
    mojo.readerClasses = Map.of("my_x2Forders", OrderReader.class.getName());
    mojo.decodeSubject = false;

    mojo.execute();

    assertThat(log.lines()).contains("INFO reader class com.acme.reader.OrderReader reads subject 'my_x2Forders' "
        + "versions [1] of [1]");
  }
}
