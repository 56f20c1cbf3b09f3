package io.kavro.kms.hcvault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.rules.encryption.DekRewrap;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rewrap tool's walk ({@link DekRewrap}) after a key rotation in Vault's transit engine (the double's
 * {@code rotate}): the DEK, wrapped by key version 1, is wrapped by version 2 afterwards, and records written before
 * still read; a throttling Vault stops the walk retriably, without the token in its message.
 */
class HcVaultRewrapTest {
  private static final String TOKEN = "hvs.rewrap-T0KEN-secret";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final VaultTransitDouble vault = new VaultTransitDouble(TOKEN).key("transit", "people");
  private final String scope = "hcvault-rewrap-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @BeforeEach
  void register() {
    server.setDispatcher(vault);
    Rule rule = new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
        Map.of("encrypt.kek.name", "vault-kek", "encrypt.kms.type", "hcvault", "encrypt.kms.key.id",
            server.url("/").toString() + "transit/keys/people"), null, null, "ERROR,ERROR", false);
    registry.register("people-value", io.kavro.rules.Serdes.PERSON, List.of(), new DataContract(
        Metadata.EMPTY, new RuleSet(List.of(), List.of(rule), List.of(), null)));
  }

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private Map<String, Object> config() {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "auto.register.schemas", false, "use.latest.version", true));
    config.put("rule.executors._default_.param.token.id", TOKEN);
    return config;
  }

  private String wrapping() {
    DekRegistry deks = registry.dekRegistry();
    return new String(Base64.getDecoder().decode(deks.dek("vault-kek", "people-value", "AES256_GCM", 1, false)
        .orElseThrow().encryptedKeyMaterial()), StandardCharsets.UTF_8);
  }

  @Test
  void afterARotation_theDekIsWrappedByTheNewVersion_andOldRecordsStillRead() {
    List<byte[]> written = new ArrayList<>();
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config(), false);
      for (int i = 0; i < 3; i++) {
        written.add(serializer.serialize("people", io.kavro.rules.Serdes.person("p" + i)));
      }
    }
    assertThat(wrapping()).startsWith("vault:v1:");
    vault.rotate("transit", "people");
    DekRewrap rewrap = new DekRewrap(registry.dekRegistry(), Map.of("token.id", TOKEN));

    vault.throttle(1, 429);
    assertThatThrownBy(() -> rewrap.run("vault-kek", null, true, false, result -> { }))
        .isInstanceOfSatisfying(DekRewrap.StoppedException.class, e -> {
          assertThat(e.counts()).isEqualTo(new DekRewrap.Counts(0, 0, 0, 0, 0));
          assertThat(e.getMessage()).contains("run again").doesNotContain(TOKEN);
        });
    assertThat(wrapping()).startsWith("vault:v1:");

    List<DekRewrap.Result> results = new ArrayList<>();
    assertThat(rewrap.run("vault-kek", null, true, false, results::add))
        .isEqualTo(new DekRewrap.Counts(1, 1, 0, 0, 0));

    assertThat(results).containsExactly(new DekRewrap.Result("people-value", "AES256_GCM", 1, false,
        DekRewrap.Outcome.REWRAPPED, null));
    assertThat(wrapping()).startsWith("vault:v2:");
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(config(), false);
      for (int i = 0; i < written.size(); i++) {
        GenericRecord read = (GenericRecord) deserializer.deserialize("people", written.get(i));
        assertThat(read.get("name").toString()).isEqualTo("p" + i);
        assertThat(read.get("ssn").toString()).isEqualTo("123-45-6789");
      }
    }
  }
}
