package io.kavro.kms.hcvault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import io.kavro.rules.ConfluentRegistryDouble;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Interop with Confluent's JavaScript client ({@code @confluentinc/schemaregistry} 1.10.1 of tests/js-peer, with its
 * {@code HcVaultDriver} over node-vault) through the double of Vault's transit API (mount {@code transit}, the only
 * one node-vault calls) and a registry double over HTTP: it writes, Kavro reads; Kavro writes, it reads. Skipped
 * when {@code node} is not on the PATH; the peer's packages are installed ({@code npm ci}) when missing.
 */
class HcVaultJsInteropTest {
  private static final String TOKEN = "hvs.interop-T0KEN";
  private static final String SSN = "123-45-6789";
  private static final String ANN = "{\"name\":\"ann\",\"ssn\":\"" + SSN + "\",\"age\":30}";

  @StartStop
  final MockWebServer vaultServer = new MockWebServer();
  @StartStop
  final MockWebServer registryServer = new MockWebServer();

  private final VaultTransitDouble vault = new VaultTransitDouble(TOKEN).key("transit", "people");
  private ConfluentRegistryDouble registry;
  private String registryUrl;
  private String keyId;

  @BeforeEach
  void serve() throws IOException {
    keyId = "http://127.0.0.1:" + vaultServer.getPort() + "/transit/keys/people";
    String ruleSet = "{\"domainRules\":[{\"name\":\"encryptPii\",\"kind\":\"TRANSFORM\",\"mode\":\"WRITEREAD\","
        + "\"type\":\"ENCRYPT\",\"tags\":[\"PII\"],\"params\":{\"encrypt.kek.name\":\"vault-kek\","
        + "\"encrypt.kms.type\":\"hcvault\",\"encrypt.kms.key.id\":\"" + keyId + "\"},\"onFailure\":\"ERROR,ERROR\"}]}";
    registry = new ConfluentRegistryDouble("people-value", io.kavro.rules.Serdes.PERSON.toString(), ruleSet);
    vaultServer.setDispatcher(vault);
    registryServer.setDispatcher(registry);
    registryUrl = "http://127.0.0.1:" + registryServer.getPort();
  }

  private Map<String, Object> config() {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", registryUrl,
        "auto.register.schemas", false, "use.latest.version", true));
    config.put("rule.executors._default_.param.token.id", TOKEN);
    return config;
  }

  private String wrappedDek() {
    return new String(Base64.getDecoder().decode(registry.encryptedKeyMaterial("vault-kek", "AES256_GCM")),
        StandardCharsets.UTF_8);
  }

  @Test
  void jsWrites_kavroReads() throws Exception {
    Peer peer = Peer.require();

    byte[] written = Base64.getDecoder().decode(peer.run("serialize", registryUrl, "people", ANN));

    assertThat(new String(written, StandardCharsets.ISO_8859_1)).contains("ann").doesNotContain(SSN);
    assertThat(registry.kek("vault-kek").path("kmsType").asText()).isEqualTo("hcvault");
    assertThat(registry.kek("vault-kek").path("kmsKeyId").asText()).isEqualTo(keyId);
    assertThat(wrappedDek()).startsWith("vault:v1:");
    assertThat(vault.requests.get(0).path()).isEqualTo("/v1/transit/encrypt/people");
    assertThat(vault.requests).as("node-vault sends no context").allSatisfy(seen ->
        assertThat(seen.body().has("context")).isFalse());
    int byJs = vault.requests.size();
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(config(), false);
      GenericRecord read = (GenericRecord) deserializer.deserialize("people", written);
      assertThat(read.get("ssn").toString()).isEqualTo(SSN);
    }
    assertThat(vault.paths().subList(byJs, vault.paths().size())).containsExactly("POST /v1/transit/decrypt/people");
  }

  @Test
  void kavroWrites_jsReads() throws Exception {
    Peer peer = Peer.require();
    byte[] written;
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config(), false);
      written = serializer.serialize("people", io.kavro.rules.Serdes.person("ann"));
    }
    assertThat(wrappedDek()).startsWith("vault:v1:");

    String read = peer.run("deserialize", registryUrl, "people", Base64.getEncoder().encodeToString(written));

    assertThat(read).isEqualTo(ANN);
    assertThat(vault.paths()).containsExactly("POST /v1/transit/encrypt/people", "POST /v1/transit/decrypt/people");
  }

  /** kms/hcvault/src/test/js/hcvault-peer.js, run by node with the pinned packages of tests/js-peer. */
  private record Peer(Path node, Path script, Path modules) {
    static synchronized Peer require() throws IOException, InterruptedException {
      Path node = onPath("node");
      assumeTrue(node != null, "node is not on the PATH: the interop tests with Confluent's JavaScript client are "
          + "skipped");
      Path folder = Path.of(System.getProperty("kavro.jsPeer", "../../tests/js-peer")).toAbsolutePath().normalize();
      if (!Files.exists(folder.resolve("node_modules/@confluentinc/schemaregistry"))) {
        Path npm = onPath("npm");
        assertThat(npm).as("npm, to install the JS peer in " + folder).isNotNull();
        Process install = new ProcessBuilder(npm.toString(), "ci", "--no-audit", "--no-fund", "--prefer-offline")
            .directory(folder.toFile()).redirectErrorStream(true).start();
        CompletableFuture<String> output = read(install.getInputStream());
        assertThat(install.waitFor(10, TimeUnit.MINUTES) && install.exitValue() == 0)
            .as("npm ci in " + folder + ": " + output.join()).isTrue();
      }
      return new Peer(node, Path.of("src/test/js/hcvault-peer.js").toAbsolutePath(), folder.resolve("node_modules"));
    }

    /** The command's single line of output, after checking that it succeeded. */
    String run(String... args) throws IOException, InterruptedException {
      List<String> command = new ArrayList<>(List.of(node.toString(), script.toString()));
      command.addAll(List.of(args));
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().put("NODE_PATH", modules.toString());
      builder.environment().put("VAULT_TOKEN", TOKEN);
      Process process = builder.start();
      process.getOutputStream().close();
      CompletableFuture<String> out = read(process.getInputStream());
      CompletableFuture<String> err = read(process.getErrorStream());
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("hcvault-peer.js ended within 60 s").isTrue();
      assertThat(process.exitValue()).as("hcvault-peer.js " + args[0] + ": " + err.join()).isZero();
      return out.join().strip();
    }

    private static CompletableFuture<String> read(java.io.InputStream in) {
      return CompletableFuture.supplyAsync(() -> {
        try (in) {
          return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
          return "(unreadable: " + e + ")";
        }
      });
    }

    private static Path onPath(String program) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path candidate = Path.of(dir, program);
        if (Files.isExecutable(candidate)) {
          return candidate;
        }
      }
      return null;
    }
  }
}
