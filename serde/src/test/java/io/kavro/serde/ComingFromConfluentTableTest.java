package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

/**
 * The "Coming from Confluent" table (docs/coming-from-confluent.md) is the list of every key of Confluent's serde,
 * registry client, Connect converter and rules, pinned here as read from Confluent's source, and says of each what
 * Kavro does (issue 51, item 7: no key ignored in silence). A key Kavro honours ("same", "different") is one it
 * defines or reads; a key it does not honour is refused ("refused": a {@code ConfigException} naming it) or warned of
 * ("warned": one WARN naming it) when set to another value than Confluent's default, and passes at that default.
 * No other verdict is allowed.
 */
class ComingFromConfluentTableTest {
  /** Where the pinned lists were read. */
  static final String CONFLUENT_SOURCE = "confluentinc/schema-registry 8.5.0-SNAPSHOT (master, commit 794611bd, "
      + "after the merge of 8.4.x)";

  /**
   * {@code AbstractKafkaSchemaSerDeConfig.baseConfigDef()}, {@link #CONFLUENT_SOURCE}; its
   * {@code schema.registry.ssl.*} keys are Kafka's client SSL keys, added by the test.
   */
  private static final List<String> SERDE_KEYS = List.of(
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
      "request.header.*",
      // AssociatedNameStrategy (8.3), the default strategy, which reads them itself
      "subject.name.strategy.fallback.type", "subject.name.strategy.cache.size",
      "subject.name.strategy.cache.expiry.secs", "subject.name.strategy.kafka.cluster.id");

  /** {@code KafkaAvroSerializerConfig} and {@code KafkaAvroDeserializerConfig}, {@link #CONFLUENT_SOURCE}. */
  private static final List<String> AVRO_SERDE_KEYS = List.of("avro.reflection.allow.null",
      "avro.use.logical.type.converters", "avro.remove.java.properties", "validation.rules.execution",
      "specific.avro.reader", "specific.avro.key.type", "specific.avro.value.type", "avro.fail.on.trailing.data");

  /** The keys of {@code SchemaRegistryClientConfig} that the serde's ConfigDef lacks, {@link #CONFLUENT_SOURCE}. */
  private static final List<String> CLIENT_KEYS = List.of("missing.cache.size", "missing.id.cache.ttl.sec",
      "missing.version.cache.ttl.sec", "missing.schema.cache.ttl.sec", "url.randomize", "use.apache.http.client",
      "bearer.auth.uami.endpoint.url", "bearer.auth.uami.endpoint.query");

  /**
   * {@code AvroConverterConfig} is the serde's ConfigDef; {@code AvroDataConfig} and {@code AbstractDataConfig}
   * add these, {@link #CONFLUENT_SOURCE} (the connect module's ConverterConfigTest checks their defaults).
   */
  static final List<String> CONVERTER_KEYS = List.of("enhanced.avro.schema.support", "scrub.invalid.names",
      "connect.meta.data", "allow.optional.map.keys", "flatten.singleton.unions", "discard.type.doc.default",
      "generalized.sum.type.support", "ignore.default.for.nullables", "schemas.cache.config");

  /**
   * The keys Confluent's rule executors and actions read from their configuration or a rule's params,
   * {@link #CONFLUENT_SOURCE}: {@code EncryptionExecutor} (besides its test hook {@code clock}),
   * {@code DekRegistryClientConfig}, {@code LocalKmsDriver}, {@code DlqAction} (besides its test hook
   * {@code producer}), {@code CelExecutor}, {@code JsonataExecutor} and {@code FieldRuleExecutor}.
   */
  private static final List<String> RULE_KEYS = List.of("encrypt.kek.name", "encrypt.kms.type",
      "encrypt.kms.key.id", "encrypt.dek.algorithm", "encrypt.dek.expiry.days", "encrypt.alternate.kms.key.ids",
      "encrypt.nonshared.kek.passthrough", "cache.expiry.secs", "cache.size", "missing.kek.cache.ttl.sec",
      "missing.dek.cache.ttl.sec", "secret", "dlq.topic", "dlq.auto.flush", "dlq.redact.rule.types",
      "cel.ignore.guard.separator", "cel.regex.engine", "cel.unsigned.field.type", "jsonata.timeout.ms",
      "jsonata.max.depth", "timeout.ms", "max.depth", "preserve.source.fields");

  /**
   * Keys Kavro honours without a ConfigDef entry: a prefix, the client's name of a serde key, and the keys that
   * the default subject name strategy reads itself, as Confluent's does.
   */
  private static final Set<String> UNDEFINED_BUT_HONOURED = Set.of("request.header.*", "url.randomize",
      "subject.name.strategy.fallback.type", "subject.name.strategy.cache.size",
      "subject.name.strategy.cache.expiry.secs", "subject.name.strategy.kafka.cluster.id");

  /**
   * Rule keys Kavro honours by what it does rather than by reading them: its transforms never change the
   * application's record, which is what {@code preserve.source.fields=true} asks for.
   */
  private static final Set<String> HONOURED_BY_BEHAVIOUR = Set.of("preserve.source.fields");

  /**
   * For each key Kavro does not honour: Confluent's default, read from its source, which must pass, and another
   * value, which must be refused or warned of.
   */
  private static final Map<String, List<Object>> DEFAULT_AND_OTHER = Map.ofEntries(
      Map.entry("missing.version.cache.ttl.sec", List.of("0", "60")),
      Map.entry("missing.schema.cache.ttl.sec", List.of(0, 60)),
      Map.entry("use.apache.http.client", List.of("false", "true")),
      Map.entry("bearer.auth.uami.endpoint.url", List.of("http://169.254.169.254/metadata/identity/oauth2/token",
          "http://169.254.169.254/other")),
      Map.entry("bearer.auth.uami.endpoint.query", List.of("", "resource=api://sr")),
      Map.entry("propagate.schema.tags", List.of(false, "true")),
      Map.entry("schema.format", List.of("", "serialized")),
      Map.entry("schema.registry.ssl.provider", List.of("", "BCFIPS")),
      Map.entry("schema.registry.ssl.engine.factory.class", List.of("", "com.example.PinningSslEngineFactory")),
      Map.entry("schema.registry.ssl.keymanager.algorithm", List.of(
          javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm(), "NewSunX509")),
      Map.entry("schema.registry.ssl.trustmanager.algorithm", List.of(
          javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm(), "SunX509")),
      Map.entry("schema.registry.ssl.secure.random.implementation", List.of("", "SHA1PRNG")),
      Map.entry("encrypt.nonshared.kek.passthrough", List.of("false", "true")),
      Map.entry("missing.kek.cache.ttl.sec", List.of("0", "30")),
      Map.entry("missing.dek.cache.ttl.sec", List.of("0", "30")),
      Map.entry("cel.unsigned.field.type", List.of("int", "uint")));

  private static final Set<String> VERDICTS = Set.of("same", "different", "refused", "warned");

  @Test
  void everyConfluentKey_isListedOnce_withWhatKavroDoes() throws IOException {
    Map<String, String> table = table();
    List<String> expected = new ArrayList<>(pinnedKeys());

    assertThat(table.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    Set<String> defined = AvroSerdeConfig.configDef().names();
    table.forEach((key, verdict) -> {
      assertThat(verdict).as(key).isIn(VERDICTS);
      boolean serdeKey = !CONVERTER_KEYS.contains(key) && !RULE_KEYS.contains(key);
      switch (verdict) {
        case "same", "different" -> {
          if (serdeKey && !UNDEFINED_BUT_HONOURED.contains(key)) {
            assertThat(defined).as(key + " is " + verdict + ", so Kavro must define it").contains(key);
          } else if (RULE_KEYS.contains(key) && !HONOURED_BY_BEHAVIOUR.contains(key)) {
            assertThat(readBy("rules", "kms", "serde")).as(key + " is " + verdict + ", so Kavro's rules must read it")
                .contains("\"" + key + "\"");
          } else if (CONVERTER_KEYS.contains(key)) {
            assertThat(readBy("connect")).as(key + " is " + verdict + ", so the converter must read it")
                .contains("\"" + key + "\"");
          }
          assertThat(ConfluentKeys.KEYS).as(key + " is honoured").doesNotContainKey(key);
        }
        case "refused", "warned" -> {
          assertThat(defined).as(key + " is " + verdict + ", so Kavro must not define it").doesNotContain(key);
          assertThat(DEFAULT_AND_OTHER).as(key + " is " + verdict + ": its default and another value").containsKey(key);
        }
        default -> throw new AssertionError(key + " is neither honoured, nor refused, nor warned: " + verdict);
      }
    });
    assertThat(ConfigKeyCheck.SERDE.warnings(table.keySet())).as("Confluent's keys are no typos").isEmpty();
  }

  /** Every pinned key, the schema.registry.ssl.* ones as Kafka's client SSL keys. */
  private static List<String> pinnedKeys() {
    List<String> keys = new ArrayList<>();
    Stream.of(SERDE_KEYS, AVRO_SERDE_KEYS, CLIENT_KEYS, CONVERTER_KEYS, RULE_KEYS).forEach(keys::addAll);
    new ConfigDef().withClientSslSupport().names().forEach(name -> keys.add("schema.registry." + name));
    return keys;
  }

  /** Refused keys: the configure path throws, naming the key, for another value, and takes Confluent's default. */
  @Test
  void refusedKeys_failConfigure_namingTheKey_unlessAtConfluentsDefault() throws IOException {
    List<String> refused = keysWith("refused");
    assertThat(refused).isNotEmpty();
    for (String key : refused) {
      for (String given : given(key)) {
        Object other = DEFAULT_AND_OTHER.get(key).get(1);
        assertThatThrownBy(() -> configure(Map.of(given, other))).as(given)
            .isInstanceOf(ConfigException.class).hasMessageContaining(given).hasMessageContaining("Instead, ");
        assertThat(configure(Map.of(given, DEFAULT_AND_OTHER.get(key).get(0)))).as(given + " at its default")
            .isEmpty();
      }
    }
  }

  /** Warned keys: the configure path logs one WARN naming the key for another value, none at Confluent's default. */
  @Test
  void warnedKeys_logOneWarning_namingTheKey_unlessAtConfluentsDefault() throws IOException {
    List<String> warned = keysWith("warned");
    assertThat(warned).isNotEmpty();
    for (String key : warned) {
      for (String given : given(key)) {
        assertThat(configure(Map.of(given, DEFAULT_AND_OTHER.get(key).get(1)))).as(given).singleElement()
            .asString().contains("'" + given + "=").contains("ignored");
        assertThat(configure(Map.of(given, DEFAULT_AND_OTHER.get(key).get(0)))).as(given + " at its default")
            .isEmpty();
      }
    }
  }

  /** The keys of the table with {@code verdict}. */
  private static List<String> keysWith(String verdict) throws IOException {
    return table().entrySet().stream().filter(row -> row.getValue().equals(verdict)).map(Map.Entry::getKey)
        .toList();
  }

  /** How {@code key} may be given: as it is, and, for a rule key, as a rule executor's and action's param. */
  private static List<String> given(String key) {
    return RULE_KEYS.contains(key)
        ? List.of(key, "rule.executors._default_.param." + key, "rule.actions.dlq.param." + key) : List.of(key);
  }

  /**
   * Configures a Streams serde (which writes and reads, so that every key counts) with {@code extra}, as an
   * application does: the WARN lines about Confluent's keys.
   */
  private static List<String> configure(Map<String, Object> extra) {
    return configure(new AvroSerde<Object>(), extra);
  }

  /** Configures {@code plugin} with {@code extra}: the WARN lines about Confluent's keys. */
  private static List<String> configure(AutoCloseable plugin, Map<String, Object> extra) {
    Map<String, Object> configs = new HashMap<>(extra);
    configs.put("schema.registry.url", "mock://confluent-keys-test");
    try (LogCapture logs = new LogCapture(); plugin) {
      if (plugin instanceof org.apache.kafka.common.serialization.Serde<?> serde) {
        serde.configure(configs, false);
      } else if (plugin instanceof org.apache.kafka.common.serialization.Serializer<?> serializer) {
        serializer.configure(configs, false);
      } else {
        ((org.apache.kafka.common.serialization.Deserializer<?>) plugin).configure(configs, false);
      }
      return logs.lines(Level.WARN).stream().filter(line -> line.startsWith("Confluent's setting")).toList();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Kafka's own SSLEngine factory is what the keystore and truststore keys Kavro honours configure: it passes, by
   * name or as a class; another factory is refused.
   */
  @Test
  void kafkasDefaultSslEngineFactory_passes_byNameOrClass() {
    String key = "schema.registry.ssl.engine.factory.class";
    assertThat(configure(Map.of(key, "org.apache.kafka.common.security.ssl.DefaultSslEngineFactory "))).isEmpty();
    assertThat(configure(Map.of(key, org.apache.kafka.common.security.ssl.DefaultSslEngineFactory.class)))
        .isEmpty();
    assertThatThrownBy(() -> configure(Map.of(key, "com.example.PinningSslEngineFactory")))
        .isInstanceOf(ConfigException.class).hasMessageContaining(key);
  }

  /**
   * Keys that only Confluent's serializer acts on pass a deserializer in silence, and the reverse: a consumer-only
   * application with a properties file shared with its producers starts on Kavro as on Confluent.
   */
  @Test
  void sidedKeys_passThePluginOfTheOtherSide_andAreRefusedOnTheirOwn() {
    Map<String, Object> writeOnly = Map.of("propagate.schema.tags", "true",
        "validation.rules.execution", "BEFORE_DOMAIN_RULES");
    assertThat(configure(new KafkaAvroDeserializer(), writeOnly)).as("a deserializer").isEmpty();
    assertThatThrownBy(() -> configure(new KafkaAvroSerializer(), Map.of("propagate.schema.tags", "true")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("propagate.schema.tags");
    assertThatThrownBy(() -> configure(new KafkaAvroSerializer(),
        Map.of("validation.rules.execution", "BEFORE_DOMAIN_RULES")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("validation.rules.execution");

    Map<String, Object> readOnly = Map.of("encrypt.nonshared.kek.passthrough", "true");
    assertThat(configure(new KafkaAvroSerializer(), readOnly)).as("a serializer").isEmpty();
    assertThatThrownBy(() -> configure(new KafkaAvroDeserializer(), readOnly))
        .isInstanceOf(ConfigException.class).hasMessageContaining("encrypt.nonshared.kek.passthrough");
  }

  /** The main source of Kavro's {@code modules} (under {@code kms}, every driver's), as one text. */
  private static String readBy(String... modules) {
    StringBuilder text = new StringBuilder();
    for (String module : modules) {
      try (Stream<Path> files = Files.walk(Path.of("..", module))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")
            && f.toString().contains("src" + java.io.File.separator + "main")).toList()) {
          text.append(Files.readString(file));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return text.toString();
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
        if (!VERDICTS.contains(verdict)) {
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
