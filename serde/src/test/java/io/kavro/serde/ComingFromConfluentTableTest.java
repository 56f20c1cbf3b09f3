package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * The "Coming from Confluent" table (docs/coming-from-confluent.md) lists every key of Confluent's Avro serde and registry client,
 * and says of each what Kavro does; the keys it calls "same" or "different" are keys Kavro defines, and the
 * ones it calls "not supported" are not.
 */
class ComingFromConfluentTableTest {

  /**
   * Confluent Platform 8's keys: {@code AbstractKafkaSchemaSerDeConfig.baseConfigDef()},
   * {@code KafkaAvroSerializerConfig}, {@code KafkaAvroDeserializerConfig} and the client-only keys of
   * {@code SchemaRegistryClientConfig}; the {@code schema.registry.ssl.*} keys are Kafka's client SSL keys.
   */
  private static final List<String> CONFLUENT_KEYS = List.of(
      "schema.registry.url", "schema.registry.url.randomize", "max.schemas.per.subject", "normalize.schemas",
      "auto.register.schemas", "propagate.schema.tags", "use.schema.id", "use.schema.guid",
      "id.compatibility.strict", "use.latest.version", "latest.compatibility.strict", "latest.cache.size",
      "latest.cache.ttl.sec", "use.latest.with.metadata", "schema.format", "execution.environment",
      "rule.executors", "rule.actions", "rule.service.loader.enable", "rule.metrics.enable",
      "validation.rules.executor.class", "validation.rules.fail.fast", "basic.auth.credentials.source",
      "bearer.auth.credentials.source", "schema.registry.basic.auth.user.info", "basic.auth.user.info",
      "bearer.auth.token", "bearer.auth.issuer.endpoint.url", "bearer.auth.client.id", "bearer.auth.client.secret",
      "bearer.auth.scope", "bearer.auth.scope.claim.name", "bearer.auth.sub.claim.name",
      "bearer.auth.identity.pool.id", "bearer.auth.logical.cluster", "bearer.auth.cache.expiry.buffer.seconds",
      "bearer.auth.custom.provider.class", "context.name.strategy", "key.subject.name.strategy",
      "key.schema.id.serializer", "key.schema.id.deserializer", "value.subject.name.strategy",
      "value.schema.id.serializer", "value.schema.id.deserializer", "schema.reflection", "proxy.host", "proxy.port",
      "http.connect.timeout.ms", "http.read.timeout.ms", "max.retries", "retries.wait.ms", "retries.max.wait.ms",
      // KafkaAvroSerializerConfig, KafkaAvroDeserializerConfig
      "avro.reflection.allow.null", "avro.use.logical.type.converters", "avro.remove.java.properties",
      "validation.rules.execution", "specific.avro.reader", "specific.avro.key.type", "specific.avro.value.type",
      "avro.fail.on.trailing.data",
      // SchemaRegistryClientConfig only
      "missing.cache.size", "missing.id.cache.ttl.sec", "missing.version.cache.ttl.sec",
      "missing.schema.cache.ttl.sec", "url.randomize", "use.apache.http.client", "bearer.auth.uami.endpoint.url",
      "bearer.auth.uami.endpoint.query", "request.header.*",
      // AssociatedNameStrategy (8.3), the default strategy, which reads them itself
      "subject.name.strategy.fallback.type", "subject.name.strategy.cache.size",
      "subject.name.strategy.cache.expiry.secs", "subject.name.strategy.kafka.cluster.id");

  /**
   * Keys Kavro honours without a ConfigDef entry: a prefix, the client's name of a serde key, and the keys that
   * the default subject name strategy reads itself, as Confluent's does.
   */
  private static final Set<String> UNDEFINED_BUT_HONOURED = Set.of("request.header.*", "url.randomize",
      "subject.name.strategy.fallback.type", "subject.name.strategy.cache.size",
      "subject.name.strategy.cache.expiry.secs", "subject.name.strategy.kafka.cluster.id");

  @Test
  void everyConfluentKey_isListedOnce_withWhatKavroDoes() throws IOException {
    Map<String, String> table = table();
    List<String> expected = new ArrayList<>(CONFLUENT_KEYS);
    new ConfigDef().withClientSslSupport().names().forEach(name -> expected.add("schema.registry." + name));

    assertThat(table.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    Set<String> defined = AvroSerdeConfig.configDef().names();
    table.forEach((key, verdict) -> {
      assertThat(verdict).as(key).isIn("same", "different", "not supported");
      if (verdict.equals("not supported")) {
        assertThat(defined).as(key + " is not supported, so Kavro must not define it").doesNotContain(key);
      } else if (!UNDEFINED_BUT_HONOURED.contains(key)) {
        assertThat(defined).as(key + " is " + verdict + ", so Kavro must define it").contains(key);
      }
    });
    assertThat(ConfigKeyCheck.SERDE.warnings(table.keySet())).as("Confluent's keys are no typos").isEmpty();
  }

  /** Key to verdict, from the rows of that table; a cell may list keys, ".x" for schema.registry.ssl.x. */
  private static Map<String, String> table() throws IOException {
    Map<String, String> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(Path.of("..", "docs", "coming-from-confluent.md"))) {
      if (line.startsWith("# ")) {
        inSection = line.equals("# Coming from Confluent");
      } else if (inSection && line.startsWith("| `") && line.split("\\|").length > 2) {
        String[] cells = line.split("\\|");
        String verdict = cells[2].trim();
        if (!Set.of("same", "different", "not supported").contains(verdict)) {
          continue; // the class name table above it
        }
        for (String item : cells[1].split(",")) {
          String key = item.trim().replace("`", "");
          if (key.startsWith(".")) {
            key = "schema.registry.ssl" + key;
          }
          assertThat(rows.put(key, verdict)).as(key + " is listed twice").isNull();
        }
      }
    }
    return rows;
  }

  @Test
  void tableParsing_seesEveryRow() throws IOException {
    assertThat(new TreeSet<>(table().keySet())).contains("schema.registry.ssl.keystore.certificate.chain",
        "bearer.auth.uami.endpoint.query", "avro.fail.on.trailing.data");
  }
}
