package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import org.apache.avro.AvroRuntimeException;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;

/** How a goal fails: always a Mojo exception with a message, whatever escaped the goal's work. */
class KavroMojoTest {
  private static KavroMojo failingWith(RuntimeException e) {
    KavroMojo mojo = new KavroMojo() {
      @Override
      void run() {
        throw e;
      }
    };
    mojo.basedir = new File(".");
    return mojo;
  }

  @Test
  void execute_unexpectedRuntimeException_isAMojoExecutionExceptionNamingItsClassAndMessage() {
    AvroRuntimeException escaped = new AvroRuntimeException("Can't redefine: com.acme.Address");

    assertThatThrownBy(failingWith(escaped)::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessage("AvroRuntimeException: Can't redefine: com.acme.Address").hasCause(escaped);
  }

  @Test
  void execute_runtimeExceptionWithoutMessage_isNamedByItsClass() {
    assertThatThrownBy(failingWith(new NullPointerException())::execute)
        .isInstanceOf(MojoExecutionException.class).hasMessage("NullPointerException");
  }

  @Test
  void execute_confluentsSkipProperty_skipsTheGoal_sayingWhichPropertyDid() throws Exception {
    RecordingLog log = new RecordingLog();
    KavroMojo mojo = failingWith(new IllegalStateException("ran"));
    mojo.setLog(log);
    mojo.confluentSkip = "true";

    mojo.execute();

    assertThat(log.lines()).containsExactly(
        "INFO Skipped (kafka-schema-registry.skip=true, the property of Confluent's plugin)");
  }

  @Test
  void execute_confluentsSkipPropertyFalse_runsTheGoal() {
    KavroMojo mojo = failingWith(new IllegalStateException("ran"));
    mojo.confluentSkip = "false";

    assertThatThrownBy(mojo::execute).hasMessage("IllegalStateException: ran");
  }

  @Test
  void execute_skip_skipsTheGoal() throws Exception {
    RecordingLog log = new RecordingLog();
    KavroMojo mojo = failingWith(new IllegalStateException("ran"));
    mojo.setLog(log);
    mojo.skip = true;

    mojo.execute();

    assertThat(log.lines()).containsExactly("INFO Skipped (skip=true: <skip> or -Dkavro.skip)");
  }
}
