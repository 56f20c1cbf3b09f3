package io.kavro.kms.azure;

import static io.kavro.rules.Serdes.PERSON;
import static io.kavro.rules.Serdes.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.rules.ConfluentRegistryDouble;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.JsPeer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kavro and Confluent's JavaScript client (tests/js-peer: {@code @confluentinc/schemaregistry} 1.10.1 with its own
 * {@code AzureKmsDriver}, a {@code ClientSecretCredential} of {@code @azure/identity} and a
 * {@code CryptographyClient} of {@code @azure/keyvault-keys}) on one registry and one Key Vault, the double: each
 * wraps a DEK under an {@code azure-kms} KEK and writes, the other unwraps it and reads, and the DEK registry holds
 * Key Vault's RSA-OAEP-256 {@code encrypt} answer unchanged. The JavaScript client runs as a user's would, with its
 * credentials in its rule config: only its network is the test's ({@code NODE_EXTRA_CA_CERTS} for the double's CA,
 * tests/js-peer/hosts.js for {@code login.microsoftonline.com} and {@code kavro.vault.azure.net}, as the JVM's
 * hosts file is for Kavro). Skipped when {@code node} is not on the PATH.
 */
class AzureKmsJsInteropTest {
  private static final String SSN = "123-45-6789";
  private static final String RECORD_JSON = "{\"name\":\"ann\",\"ssn\":\"" + SSN + "\",\"age\":30}";
  private static final String SECRET = "js~Azure-Cl1ent.S3cret-value";
  private static final String KEK = "azure-interop-kek";
  private static final String TOKEN_REQUEST = "POST login.microsoftonline.com /" + KeyVaultDouble.TENANT
      + "/oauth2/v2.0/token";
  /** Variables of the test's environment that would send the JavaScript client elsewhere than the doubles. */
  private static final Set<String> PROXY_VARIABLES = Set.of("https_proxy", "http_proxy", "all_proxy", "no_proxy");

  static {
    TestTls.CA.certificate(); // the JVM's trust store, before any TLS
  }

  @StartStop
  final MockWebServer vaultServer = new MockWebServer();
  @StartStop
  final MockWebServer registryServer = new MockWebServer();

  private final KeyVaultDouble vault = new KeyVaultDouble(SECRET);
  private ConfluentRegistryDouble registry;
  private String keyId;
  private JsPeer peer;

  @BeforeEach
  void start() {
    peer = JsPeer.require();
    vault.serveOn(vaultServer);
    keyId = vault.keyUrl("kavro", "people") + "/" + vault.addVersion("people");
    registry = new ConfluentRegistryDouble("people-value", PERSON.toString(), """
        {"domainRules":[{"name":"encryptPii","kind":"TRANSFORM","mode":"WRITEREAD","type":"ENCRYPT","tags":["PII"],
         "params":{"encrypt.kek.name":"%s","encrypt.kms.type":"azure-kms","encrypt.kms.key.id":"%s"},
         "onFailure":"ERROR,ERROR","disabled":false}]}""".formatted(KEK, keyId));
    registryServer.setDispatcher(registry);
  }

  private String registryUrl() {
    return "http://127.0.0.1:" + registryServer.getPort();
  }

  /** The JavaScript client's service principal, in its rule config as Confluent's users set it. */
  private String jsRuleConfig() {
    return "tenant.id=" + KeyVaultDouble.TENANT + ",client.id=" + KeyVaultDouble.CLIENT + ",client.secret=" + SECRET;
  }

  /** The double's CA and host names for Node; none of the test's Azure or proxy variables. */
  private void jsEnvironment(Map<String, String> environment) {
    environment.keySet().removeIf(name -> name.startsWith("AZURE_")
        || PROXY_VARIABLES.contains(name.toLowerCase(java.util.Locale.ROOT)));
    String local = "127.0.0.1:" + vaultServer.getPort();
    environment.put("KAVRO_PEER_HOSTS", "login.microsoftonline.com=" + local + ",kavro.vault.azure.net=" + local);
    environment.put("NODE_OPTIONS", "--require ./hosts.js");
    environment.put("NODE_EXTRA_CA_CERTS", TestTls.CA_PEM.toString());
  }

  private Map<String, Object> kavroConfig() {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", registryUrl(),
        "auto.register.schemas", false, "use.latest.version", true));
    config.put("rule.executors._default_.param.tenant.id", KeyVaultDouble.TENANT);
    config.put("rule.executors._default_.param.client.id", KeyVaultDouble.CLIENT);
    config.put("rule.executors._default_.param.client.secret", SECRET);
    return config;
  }

  private byte[] storedDek() {
    return Base64.getDecoder().decode(registry.encryptedKeyMaterial(KEK, "AES256_GCM"));
  }

  @Test
  void jsWrites_kavroReads() throws Exception {
    String written = peer.run(this::jsEnvironment, "serialize", registryUrl(), "people", RECORD_JSON,
        "--rule-config", jsRuleConfig()).line();

    byte[] bytes = Base64.getDecoder().decode(written);
    assertThat(new String(bytes, StandardCharsets.ISO_8859_1)).contains("ann").doesNotContain(SSN);
    assertThat(registry.kek(KEK).path("kmsType").asText()).isEqualTo("azure-kms");
    assertThat(registry.kek(KEK).path("kmsKeyId").asText()).isEqualTo(keyId);
    assertThat(vault.requests()).as("the JS client's token, from Entra ID's endpoint").contains(TOKEN_REQUEST);
    byte[] stored = storedDek();
    assertThat(vault.crypto()).filteredOn(op -> op.operation().equals("encrypt")).singleElement()
        .satisfies(op -> assertThat(op.answered()).as("stored as Key Vault answered").isEqualTo(stored)
            .hasSize(256));
    int byJs = vault.crypto().size();

    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(kavroConfig(), false);
      GenericRecord read = (GenericRecord) deserializer.deserialize("people", bytes);
      assertThat(read.get("ssn").toString()).isEqualTo(SSN);
      assertThat(read.get("name").toString()).isEqualTo("ann");
      assertThat(read.get("age")).isEqualTo(30);
    }
    List<KeyVaultDouble.Crypto> byKavro = vault.crypto().subList(byJs, vault.crypto().size());
    assertThat(byKavro).singleElement().satisfies(op -> {
      assertThat(op.operation()).isEqualTo("decrypt");
      assertThat(keyId).endsWith("/" + op.version());
      assertThat(op.sent()).isEqualTo(stored);
    });
  }

  @Test
  void kavroWrites_jsReads() throws Exception {
    byte[] bytes;
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(kavroConfig(), false);
      bytes = serializer.serialize("people", person("ann"));
    }
    assertThat(new String(bytes, StandardCharsets.ISO_8859_1)).doesNotContain(SSN);
    byte[] stored = storedDek();
    assertThat(vault.crypto()).singleElement().satisfies(op -> {
      assertThat(op.operation()).isEqualTo("encrypt");
      assertThat(op.answered()).as("stored as Key Vault answered").isEqualTo(stored).hasSize(256);
    });
    long kavroTokens = vault.requests().stream().filter(TOKEN_REQUEST::equals).count();

    String read = peer.run(this::jsEnvironment, "deserialize", registryUrl(), "people",
        Base64.getEncoder().encodeToString(bytes), "--rule-config", jsRuleConfig()).line();

    assertThat(read).isEqualTo(RECORD_JSON);
    assertThat(vault.requests().stream().filter(TOKEN_REQUEST::equals).count()).as("the JS client's own token")
        .isGreaterThan(kavroTokens);
    assertThat(vault.crypto()).hasSize(2).last().satisfies(op -> {
      assertThat(op.operation()).isEqualTo("decrypt");
      assertThat(op.sent()).isEqualTo(stored);
    });
  }
}
