package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code set-compatibility} against Kavro's in-memory registry ({@code mock://}). */
class SetCompatibilityMojoTest {
  private final String scope = "levels-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);
  private final RecordingLog log = new RecordingLog();

  @AfterEach
  void tearDown() {
    MockRegistries.drop(scope);
  }

  private SetCompatibilityMojo mojo(Map<String, String> levels) {
    SetCompatibilityMojo mojo = new SetCompatibilityMojo();
    mojo.setLog(log);
    mojo.basedir = new File(".");
    mojo.schemaRegistryUrls = List.of("mock://" + scope);
    mojo.compatibilityLevels = levels;
    return mojo;
  }

  @Test
  void run_global_setsTheRegistrysLevel_andASubjectsOwn() throws Exception {
    Map<String, String> levels = new LinkedHashMap<>();
    levels.put("__GLOBAL", "full_transitive");
    levels.put("my_x2Forders", "NONE");
    SetCompatibilityMojo mojo = mojo(levels);
    mojo.decodeSubject = true;

    mojo.execute();

    assertThat(registry.compatibility()).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
    assertThat(registry.compatibilityInForce("my/orders")).isEqualTo(
        new CompatibilityInForce(CompatibilityLevel.NONE, CompatibilityInForce.Scope.SUBJECT));
    assertThat(log.lines()).contains("INFO Global compatibility set to FULL_TRANSITIVE",
        "INFO Compatibility of subject 'my/orders' set to NONE").noneMatch(line -> line.startsWith("WARN"));
  }

  @Test
  void run_nullKey_isTheGlobalLevelToo() throws Exception {
    mojo(Map.of("null", "FORWARD")).execute();

    assertThat(registry.compatibility()).isEqualTo(CompatibilityLevel.FORWARD);
  }

  @Test
  void run_oneMisspelledLevel_setsNone() {
    Map<String, String> levels = new LinkedHashMap<>();
    levels.put("__GLOBAL", "FULL");
    levels.put("orders-value", "SIDEWAYS");

    assertThatThrownBy(mojo(levels)::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<compatibilityLevels>: subject 'orders-value' has the level 'SIDEWAYS'");
    assertThat(registry.compatibility()).isEqualTo(CompatibilityLevel.BACKWARD);
  }

  @Test
  void run_keysAreSubjectsAsWritten_byDefault_asInConfluentsPlugin() throws Exception {
    // Issue 49, item 10: '_xfe' was decoded to the byte 0xFE, and the level of 'acct\uFFFDr-value' was set.
    mojo(Map.of("acct_xfer-value", "FULL")).execute();

    assertThat(registry.compatibilityInForce("acct_xfer-value")).isEqualTo(
        new CompatibilityInForce(CompatibilityLevel.FULL, CompatibilityInForce.Scope.SUBJECT));
    assertThat(log.lines()).contains("INFO Compatibility of subject 'acct_xfer-value' set to FULL")
        .noneMatch(line -> line.startsWith("WARN"));
  }

  /** Review of issue 49, item 10: with decoding off by default, a key that reads as an escape says so. */
  @Test
  void run_keyWithATextEscape_decodingOff_setsItAsWritten_warningOfTheDecodedName() throws Exception {
    mojo(Map.of("my_x2Forders", "NONE")).execute();

    assertThat(registry.compatibilityInForce("my_x2Forders")).isEqualTo(
        new CompatibilityInForce(CompatibilityLevel.NONE, CompatibilityInForce.Scope.SUBJECT));
    assertThat(log.lines()).contains("WARN <compatibilityLevels>: subject 'my_x2Forders' is taken as written; "
        + "<decodeSubject>true</decodeSubject> would mean 'my/orders'");
  }

  @Test
  void run_decodeSubject_anEscapeThatIsNoText_failsNamingTheKey_andSetsNothing() {
    Map<String, String> levels = new LinkedHashMap<>();
    levels.put("__GLOBAL", "FULL");
    levels.put("acct_xfer-value", "FULL");
    SetCompatibilityMojo mojo = mojo(levels);
    mojo.decodeSubject = true;

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<compatibilityLevels>: element <acct_xfer-value>: its escape _xfe")
        .hasMessageContaining("no UTF-8 text").hasMessageContaining("<decodeSubject>false</decodeSubject>")
        .hasMessageNotContaining("\uFFFD");
    assertThat(registry.compatibility()).isEqualTo(CompatibilityLevel.BACKWARD);
    assertThat(log.lines()).noneMatch(line -> line.contains("set to"));
  }

  @Test
  void run_aKeyHoldingTheReplacementCharacter_isRefused() {
    assertThatThrownBy(mojo(Map.of("acct\uFFFDr-value", "FULL"))::execute)
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("element <acct\uFFFDr-value> names a subject holding U+FFFD");
    assertThat(log.lines()).noneMatch(line -> line.contains("set to"));
  }
}
