package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 6: a key that looks like a mistyped Kavro key is named with the key meant; the Kafka clients' keys,
 * Confluent's keys that Kavro knows, and an application's own keys are not.
 */
class ConfigKeyCheckTest {
  private final ConfigKeyCheck check = ConfigKeyCheck.SERDE;

  /** The rules alone: without the running Kafka version's keys, which the serde's check never suspects. */
  private final ConfigKeyCheck rulesOnly = new ConfigKeyCheck(AvroSerdeConfig.configDef().names(),
      ConfigKeyCheck.CONFLUENT_KEYS);

  @Test
  void warnings_nameTheKeyMeant() {
    assertThat(check.warnings(List.of("specific.avro.readr"))).containsExactly("unknown Kavro setting "
        + "'specific.avro.readr': did you mean 'specific.avro.reader'? It is ignored.");
    assertThat(meant("schema.registry.urll")).isEqualTo("schema.registry.url");
    assertThat(meant("auto.register.schema")).isEqualTo("auto.register.schemas");
    assertThat(meant("atuo.register.schemas")).isEqualTo("auto.register.schemas"); // a swap is one edit
    assertThat(meant("use.latest.versoin")).isEqualTo("use.latest.version");
    assertThat(meant("Specific.Avro.Reader")).isEqualTo("specific.avro.reader"); // keys are case-sensitive
    assertThat(meant("max.retires")).isEqualTo("max.retries");
  }

  @Test
  void warnings_ofManyKeys_areSortedByKey_oneEach() {
    assertThat(check.warnings(List.of("specific.avro.readr", "bootstrap.servers", "auto.register.schema")))
        .hasSize(2).first().asString().contains("'auto.register.schema'");
  }

  @Test
  void kafkaClientKeys_areNeverSuspect_byTheRulesAlone() {
    Set<String> kafka = kafkaClientKeys();

    assertThat(rulesOnly.warnings(kafka)).isEmpty();
    assertThat(check.warnings(kafka)).isEmpty();
    assertThat(kafka).noneMatch(key -> ConfigKeyCheck.PREFIXES.stream().anyMatch(key::startsWith));
  }

  @Test
  void confluentKeysThatKavroKnows_andRuleSettings_areNotSuspect() {
    // Written from Confluent's AbstractKafkaSchemaSerDeConfig and KafkaAvroSerializerConfig, not from the checker's
    // own lists (ComingFromConfluentTableTest checks every key of the docs' table the same way).
    List<String> confluent = List.of("auto.register.schemas", "use.latest.version", "latest.compatibility.strict",
        "normalize.schemas", "use.schema.id", "id.compatibility.strict", "key.subject.name.strategy",
        "value.subject.name.strategy", "specific.avro.reader", "avro.use.logical.type.converters",
        "avro.reflection.allow.null", "avro.remove.java.properties", "basic.auth.credentials.source",
        "basic.auth.user.info", "bearer.auth.credentials.source", "bearer.auth.token", "max.schemas.per.subject",
        "schema.registry.ssl.truststore.location", "schema.registry.ssl.truststore.password",
        "schema.registry.ssl.keystore.location", "schema.registry.ssl.endpoint.identification.algorithm",
        "use.latest.with.metadata", "latest.cache.size", "latest.cache.ttl.sec", "proxy.host", "proxy.port",
        "schema.reflection", "context.name.strategy");

    assertThat(check.warnings(confluent)).isEmpty();
    assertThat(check.warnings(List.of("request.header.X-Team", "rule.executors", "rule.executors.checker.class",
        "rule.executors._default_.param.secret", "rule.actions.dlq.param.dlq.topic", "secret", "dlq.topic",
        "encrypt.kek.name", "jsonata.timeout.ms"))).isEmpty();
  }

  /** The default strategy's keys, Confluent's (AssociatedNameStrategy), are known, and a typo of one is named. */
  @Test
  void associatedNameStrategyKeys_known_andATypoNamed() {
    assertThat(check.warnings(List.of("subject.name.strategy.fallback.type", "subject.name.strategy.cache.size",
        "subject.name.strategy.cache.expiry.secs", "subject.name.strategy.kafka.cluster.id"))).isEmpty();
    assertThat(meant("subject.name.strategy.cache.expiry.sec"))
        .isEqualTo("subject.name.strategy.cache.expiry.secs");
    assertThat(meant("subject.name.strategy.kafka.clusterid")).isEqualTo("subject.name.strategy.kafka.cluster.id");
  }

  @Test
  void anApplicationsOwnKeys_areNotSuspect() {
    assertThat(check.warnings(List.of("orders.topic", "app.name", "application.id", "default.key.serde",
        "num.stream.threads", "processing.guarantee", "state.dir", "schemas.enable", "converter.type"))).isEmpty();
  }

  @Test
  void aKeyWithAPrefixOfKavrosOrConfluents_isSuspect_howeverFar() {
    assertThat(meant("schema.registry.ssl.trustsore.path")).startsWith("schema.registry.ssl.truststore.");
    assertThat(meant("avro.use.logical.types")).isEqualTo("avro.use.logical.type.converters");
    assertThat(meant("bearer.auth.client.key")).isNotNull();
    assertThat(meant("kavro.fast")).isNotNull();
  }

  @Test
  void aKeyWithConnectsPrefix_namesTheKeyWithout() {
    assertThat(meant("value.converter.schema.registry.url")).isEqualTo("schema.registry.url");
    assertThat(meant("key.converter.specific.avro.readr")).isEqualTo("specific.avro.reader");
    assertThat(check.warnings(List.of("value.converter.schemas.enable", "value.converter"))).isEmpty();
  }

  @Test
  void withKeys_addsAPluginsOwnKeys() {
    ConfigKeyCheck converter = check.withKeys(List.of("enhanced.avro.schema.support"));

    assertThat(converter.warnings(List.of("enhanced.avro.schema.support"))).isEmpty();
    assertThat(converter.warnings(List.of("enhanced.avro.schema.suport"))).containsExactly("unknown Kavro setting "
        + "'enhanced.avro.schema.suport': did you mean 'enhanced.avro.schema.support'? It is ignored.");
  }

  @Test
  void nearest_withinTwoEdits_caseIgnored_firstInOrderOfTwoAsNear() {
    List<String> keys = List.of("print.key", "print.value", "key.separator");

    assertThat(ConfigKeyCheck.nearest("pritn.kye", keys)).contains("print.key"); // two swaps: two edits
    assertThat(ConfigKeyCheck.nearest("Print.Keys", keys)).contains("print.key");
    assertThat(ConfigKeyCheck.nearest("print.kez", List.of("print.kex", "print.key"))).contains("print.kex");
    assertThat(ConfigKeyCheck.nearest("print.offsets", keys)).isEmpty();
    assertThat(ConfigKeyCheck.nearest("print.key", List.of())).isEmpty();
  }

  @Test
  void distance_countsInsertionsDeletionsSubstitutionsAndSwaps() {
    assertThat(ConfigKeyCheck.distance("reader", "reader")).isZero();
    assertThat(ConfigKeyCheck.distance("readr", "reader")).isEqualTo(1);
    assertThat(ConfigKeyCheck.distance("raeder", "reader")).isEqualTo(1);
    assertThat(ConfigKeyCheck.distance("writer", "reader")).isEqualTo(4);
    assertThat(ConfigKeyCheck.distance("", "abc")).isEqualTo(3);
  }

  @Test
  void theConfigurationReference_listsEveryPrefix() throws java.io.IOException {
    String reference = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "configuration.md"));

    ConfigKeyCheck.PREFIXES.forEach(prefix -> assertThat(reference).contains("`" + prefix + "`"));
    ConfigKeyCheck.CONNECT_PREFIXES.forEach(prefix -> assertThat(reference).contains("`" + prefix + "`"));
  }

  /** The key named by the one warning of {@code key}, or null when there is none. */
  private String meant(String key) {
    List<String> warnings = check.warnings(List.of(key));
    assertThat(warnings).hasSizeLessThanOrEqualTo(1);
    return warnings.isEmpty() ? null : warnings.get(0).replaceAll(".*did you mean '([^']*)'.*", "$1");
  }

  private static Set<String> kafkaClientKeys() {
    Set<String> keys = new TreeSet<>(ProducerConfig.configNames());
    keys.addAll(ConsumerConfig.configNames());
    keys.addAll(AdminClientConfig.configNames());
    return keys;
  }
}
