package io.kavro.serde;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SslConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Confluent's configuration keys that Kavro does not honour, none ignored in silence (docs/coming-from-confluent.md
 * lists every key of Confluent's serde, client, converter and rules, and what Kavro does with it). A key set to
 * Confluent's own default passes: a configuration written for Confluent runs unchanged. Set to another value, a key
 * is either refused, when ignoring it would lose, leak or misread data, with a {@link ConfigException} that names it
 * and says what to do instead; or warned of, once per configure, when Kavro's behaviour is Confluent's default and
 * nothing is lost by it.
 *
 * <p>The serde's and registry client's keys are checked as they are given; the rules' keys both as they are given
 * (Confluent's executors see the serde's settings too) and under {@code rule.executors.<name>.param.} or
 * {@code rule.actions.<name>.param.}.
 *
 * <p>Immutable and thread-safe.
 */
final class ConfluentKeys {
  private static final Logger log = LoggerFactory.getLogger(AvroSerdeConfig.class);
  private static final String UAMI = "Azure managed identity tokens (bearer.auth.credentials.source=UAMI) are not "
      + "supported: use bearer.auth.credentials.source=CUSTOM with a io.kavro.registry.config.BearerTokenProvider";
  private static final String SSL = "schema.registry."; // SslConfigs' keys start with ssl.
  private static final String SSL_JDK = "Kavro's registry client uses the JDK's default";
  /** Kafka's SSLEngine factory, the one its ssl.* keys configure: equivalent to Confluent's default (none). */
  private static final String KAFKA_SSL_ENGINE_FACTORY =
      "org.apache.kafka.common.security.ssl.DefaultSslEngineFactory";

  /** What Kavro does with a key set to another value than Confluent's default. */
  enum Response {
    /** One WARN at configure that names the key: Kavro behaves as Confluent's default does. */
    WARN,
    /** A {@link ConfigException} that names the key: ignoring it would lose, leak or misread data. */
    REFUSE
  }

  /** Which of Confluent's plugins acts on a key: its serializer, its deserializer, or both. */
  enum Side {
    WRITE,
    READ,
    BOTH;

    /** Whether a plugin of this role acts on a key of side {@code key}. */
    boolean actsOn(Side key) {
      return this == BOTH || key == BOTH || key == this;
    }
  }

  /**
   * A key of Confluent's that Kavro does not honour.
   *
   * @param key Confluent's key
   * @param type its type in Confluent's ConfigDef, to compare values as Confluent parses them
   * @param confluentDefault Confluent's default, which always passes
   * @param response what another value gets
   * @param instead what Kavro does, and what to do instead
   * @param ruleKey whether Confluent's rule executors read it, so that it is looked for under their params too
   * @param side where Confluent acts on it: a plugin of the other side lets it pass
   */
  record Unhonoured(String key, Type type, Object confluentDefault, Response response, String instead,
      boolean ruleKey, Side side) {

    /** This key, acted on by Confluent's plugins of {@code side} only. */
    Unhonoured on(Side side) {
      return new Unhonoured(key, type, confluentDefault, response, instead, ruleKey, side);
    }
  }

  /** Every key of Confluent's that Kavro does not honour, by key. */
  static final Map<String, Unhonoured> KEYS = Stream.of(
      // SchemaRegistryClientConfig
      warn("missing.version.cache.ttl.sec", Type.LONG, 0L, "Kavro never remembers that a version is missing (as "
          + "Confluent's default 0): it asks the registry again"),
      warn("missing.schema.cache.ttl.sec", Type.LONG, 0L, "Kavro never remembers that a schema is missing (as "
          + "Confluent's default 0): it asks the registry again"),
      warn("use.apache.http.client", Type.BOOLEAN, false, "Kavro's registry client is OkHttp, whatever this says"),
      warn("bearer.auth.uami.endpoint.url", Type.STRING, "http://169.254.169.254/metadata/identity/oauth2/token",
          UAMI),
      warn("bearer.auth.uami.endpoint.query", Type.STRING, null, UAMI),
      // AbstractKafkaSchemaSerDeConfig
      refuse("propagate.schema.tags", Type.BOOLEAN, false, "Kavro registers the schema as it is, without the tags "
          + "of the subject's latest version, and rules chosen by tag (an ENCRYPT rule on PII, say) would then skip "
          + "its fields. Instead, put the tags (confluent:tags) in the schema itself, or register it beforehand and "
          + "set auto.register.schemas=false with use.latest.version=true").on(Side.WRITE),
      warn("schema.format", Type.STRING, null, "only Confluent's Protobuf serializer reads it; Avro schemas are "
          + "registered as Kavro parses them"),
      // Kafka's client SSL keys, under schema.registry.
      refuse(SSL + SslConfigs.SSL_PROVIDER_CONFIG, Type.STRING, null, "Kavro's registry client cannot pick a "
          + "security provider. Instead, install it in the JDK's java.security, which Kavro's client uses, and "
          + "remove this setting"),
      refuse(SSL + SslConfigs.SSL_ENGINE_FACTORY_CLASS_CONFIG, Type.CLASS, null, "Kavro's registry client (OkHttp) "
          + "takes no SSLEngine factory, and would trust other certificates than the factory does. Instead, give "
          + "the key and trust material with schema.registry.ssl.keystore.* and schema.registry.ssl.truststore.*"),
      warn(SSL + SslConfigs.SSL_KEYMANAGER_ALGORITHM_CONFIG, Type.STRING, SslConfigs.DEFAULT_SSL_KEYMANGER_ALGORITHM,
          SSL_JDK + " key manager algorithm, " + SslConfigs.DEFAULT_SSL_KEYMANGER_ALGORITHM),
      warn(SSL + SslConfigs.SSL_TRUSTMANAGER_ALGORITHM_CONFIG, Type.STRING,
          SslConfigs.DEFAULT_SSL_TRUSTMANAGER_ALGORITHM,
          SSL_JDK + " trust manager algorithm, " + SslConfigs.DEFAULT_SSL_TRUSTMANAGER_ALGORITHM),
      warn(SSL + SslConfigs.SSL_SECURE_RANDOM_IMPLEMENTATION_CONFIG, Type.STRING, null,
          SSL_JDK + " SecureRandom"),
      // Rules: EncryptionExecutor, DekRegistryClientConfig, CelExecutor
      refuse("encrypt.nonshared.kek.passthrough", Type.BOOLEAN, false, true, "Kavro decrypts the fields of a "
          + "KEK that is not shared whenever its KMS lets it, where Confluent passes them through encrypted. "
          + "Instead, set rules.ignore=true to read encrypted fields as they were written").on(Side.READ),
      warn("missing.kek.cache.ttl.sec", Type.LONG, 0L, true, "Kavro never remembers that a KEK is missing (as "
          + "Confluent's default 0): it asks the registry again"),
      warn("missing.dek.cache.ttl.sec", Type.LONG, 0L, true, "Kavro never remembers that a DEK is missing (as "
          + "Confluent's default 0): it asks the registry again"),
      warn("cel.unsigned.field.type", Type.STRING, "int", true, "it is for Protobuf's unsigned fields, and Avro has "
          + "none"))
      .collect(Collectors.toUnmodifiableMap(Unhonoured::key, Function.identity()));

  private ConfluentKeys() {}

  private static Unhonoured warn(String key, Type type, Object confluentDefault, String instead) {
    return warn(key, type, confluentDefault, false, instead);
  }

  private static Unhonoured warn(String key, Type type, Object confluentDefault, boolean ruleKey, String instead) {
    return new Unhonoured(key, type, confluentDefault, Response.WARN, instead, ruleKey, Side.BOTH);
  }

  private static Unhonoured refuse(String key, Type type, Object confluentDefault, String instead) {
    return refuse(key, type, confluentDefault, false, instead);
  }

  private static Unhonoured refuse(String key, Type type, Object confluentDefault, boolean ruleKey,
      String instead) {
    return new Unhonoured(key, type, confluentDefault, Response.REFUSE, instead, ruleKey, Side.BOTH);
  }

  /**
   * Refuses, or logs one WARN for, each key of {@code originals} that Kavro does not honour (see the class) and that
   * Confluent's plugin of {@code role} acts on.
   */
  static void check(Map<String, ?> originals, Side role) {
    warnings(originals, role).forEach(log::warn);
  }

  /** {@link #warnings(Map, Side)} for a plugin that writes and reads. */
  static List<String> warnings(Map<String, ?> originals) {
    return warnings(originals, Side.BOTH);
  }

  /**
   * The warnings for {@code originals}, in the keys' order: {@code Confluent's setting 'use.apache.http.client=true'
   * is ignored: ...}.
   *
   * @param role whether the plugin writes, reads or both: a key that Confluent's plugins of the other side act on
   *     passes
   * @throws ConfigException for the first key that is refused
   */
  static List<String> warnings(Map<String, ?> originals, Side role) {
    List<String> warnings = new ArrayList<>();
    new TreeMap<String, Object>(originals).forEach((given, value) -> {
      Unhonoured key = unhonoured(given);
      if (key == null || value == null || !role.actsOn(key.side()) || isConfluentDefault(key, given, value)) {
        return;
      }
      if (key.response() == Response.REFUSE) {
        throw new ConfigException(given, shown(value), "Confluent's setting is not supported by Kavro: "
            + key.instead());
      }
      warnings.add("Confluent's setting '" + given + "=" + shown(value) + "' is ignored: " + key.instead());
    });
    return warnings;
  }

  /** The key {@code given} stands for: itself, or a rule key under a rule executor's or action's params. */
  private static Unhonoured unhonoured(String given) {
    Unhonoured key = KEYS.get(given);
    if (key != null) {
      return key;
    }
    for (String group : Set.of(RuleSettings.EXECUTORS + ".", RuleSettings.ACTIONS + ".")) {
      int param = given.indexOf(".param.");
      if (given.startsWith(group) && param > group.length()) {
        Unhonoured ruleKey = KEYS.get(given.substring(param + ".param.".length()));
        return ruleKey != null && ruleKey.ruleKey() ? ruleKey : null;
      }
    }
    return null;
  }

  private static boolean isConfluentDefault(Unhonoured key, String given, Object value) {
    if (value instanceof String text && text.isBlank() && key.confluentDefault() == null) {
      return true; // an empty value is no value, as in Confluent's ConfigDef
    }
    if (key.type() == Type.CLASS) {
      // Its default is null, and any class is another value; but Kafka's own SSLEngine factory is what the
      // keystore and truststore keys Kavro honours configure.
      return key.key().equals(SSL + SslConfigs.SSL_ENGINE_FACTORY_CLASS_CONFIG)
          && shown(value).trim().equals(KAFKA_SSL_ENGINE_FACTORY);
    }
    try {
      Object parsed = ConfigDef.parseType(given, value instanceof String text ? text.trim() : value, key.type());
      return Objects.equals(parsed, key.confluentDefault())
          || parsed instanceof String text && text.equalsIgnoreCase(String.valueOf(key.confluentDefault()));
    } catch (ConfigException e) {
      return false; // a value Confluent could not parse either: not its default
    }
  }

  /** The value as given, or its class's name. */
  private static String shown(Object value) {
    return value instanceof Class<?> type ? type.getName() : String.valueOf(value);
  }
}
