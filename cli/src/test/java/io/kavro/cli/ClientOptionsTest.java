package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, item 11: the registry's credentials can come from the environment, out of the process list; a
 * command config's own credentials win.
 */
class ClientOptionsTest {
  @TempDir
  Path dir;

  @Test
  void userInfoFromTheEnvironment_basicAuth() {
    ClientOptions options = new ClientOptions();
    options.schemaRegistryUrl = "https://registry:8081";

    Map<String, Object> config = options.config(Map.of(ClientOptions.USER_INFO_ENV, "alice:s3cret"));

    assertThat(config).containsEntry("basic.auth.credentials.source", "USER_INFO")
        .containsEntry("basic.auth.user.info", "alice:s3cret")
        .containsEntry("schema.registry.url", "https://registry:8081");
    assertThat(options.config(Map.of())).doesNotContainKey("basic.auth.user.info");
  }

  @Test
  void commandConfigCredentials_winOverTheEnvironment() throws Exception {
    ClientOptions options = new ClientOptions();
    options.schemaRegistryUrl = "https://registry:8081";
    options.commandConfig = Files.writeString(dir.resolve("client.properties"),
        "basic.auth.credentials.source=USER_INFO\nbasic.auth.user.info=bob:other\n");

    assertThat(options.config(Map.of(ClientOptions.USER_INFO_ENV, "alice:s3cret")))
        .containsEntry("basic.auth.user.info", "bob:other");
  }

  @Test
  void help_saysWhereCredentialsGo() {
    java.io.StringWriter out = new java.io.StringWriter();
    Kavro.run(new java.io.PrintWriter(out, true), new java.io.PrintWriter(new java.io.StringWriter(), true),
        "consume", "--help");

    assertThat(out.toString().replaceAll("\\s+", " ")).contains(ClientOptions.USER_INFO_ENV + "=user:password")
        .contains("visible to every user");
  }
}
