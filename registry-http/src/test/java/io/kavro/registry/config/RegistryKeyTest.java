package io.kavro.registry.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, item 3: the table of keys is the one description of the registry client's keys. It names every key
 * the client reads, once, and its defaults are the client's: setting a key to its documented default changes
 * nothing.
 */
class RegistryKeyTest {
  /** Keys the client reads that are not its own: the Kafka client's JAAS configuration. */
  private static final Set<String> NOT_IN_TABLE = Set.of(RegistryConfig.SASL_JAAS_CONFIG);

  @Test
  void everyKeyTheClientNames_isInTheTable_once() throws IllegalAccessException {
    List<String> names = RegistryKey.ALL.stream().map(RegistryKey::name).toList();
    Set<String> constants = new java.util.TreeSet<>();
    for (Field field : RegistryConfig.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getName().endsWith("_CONFIG")) {
        constants.add((String) field.get(null));
      }
    }
    constants.removeAll(NOT_IN_TABLE);

    assertThat(names).doesNotHaveDuplicates();
    assertThat(Set.copyOf(names)).isEqualTo(constants);
  }

  @Test
  void eachDocumentedDefault_isTheClientsDefault() {
    Map<String, Object> base = Map.of(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, "http://registry:8081");
    RegistryConfig defaults = RegistryConfig.from(base);
    for (RegistryKey key : RegistryKey.ALL) {
      if (key.defaultValue() == null || key.name().equals(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG)) {
        continue;
      }
      Map<String, Object> set = new HashMap<>(base);
      set.put(key.name(), key.defaultValue());
      assertThat(RegistryConfig.from(set)).as(key.name() + "=" + key.defaultValue()).isEqualTo(defaults);
      set.put(key.name(), key.defaultValue().toString());
      assertThat(RegistryConfig.from(set)).as(key.name() + "=\"" + key.defaultValue() + "\"").isEqualTo(defaults);
    }
  }

  @Test
  void aChoice_takesItsAllowedValues_inAnyCase() {
    for (RegistryKey key : RegistryKey.ALL) {
      for (String allowed : key.allowed()) {
        String lower = allowed.toLowerCase(java.util.Locale.ROOT);
        key.check(lower);
        Map<String, Object> set = new HashMap<>(Map.of(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, "https://r:1"));
        set.put(key.name(), lower);
        // Some sources need their companion keys (a token, a class): refused for those, never for the choice.
        assertThatCode(() -> RegistryConfig.from(set)).as(key.name() + "=" + lower)
            .satisfiesAnyOf(error -> assertThat(error).isNull(),
                error -> assertThat(error).isInstanceOf(RegistryConfigException.class)
                    .hasMessageNotContaining("must be one of").hasMessageNotContaining("for configuration "
                        + key.name()));
      }
    }
    assertThat(RegistryKey.ALL.stream().filter(k -> !k.allowed().isEmpty()).map(RegistryKey::name)
        .collect(Collectors.toSet())).containsExactlyInAnyOrder(
            "basic.auth.credentials.source", "bearer.auth.credentials.source", "schema.registry.ssl.truststore.type",
            "schema.registry.ssl.keystore.type", "schema.registry.ssl.endpoint.identification.algorithm",
            "schema.registry.api");
  }

  /** Issue 34, item 4: the auth sources' values are declared in the table, and refused naming all of them. */
  @Test
  void authSources_areChoicesOfTheTable_refusedNamingEveryAllowedValue() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("basic.auth.credentials.source", "TOKEN")))
        .isInstanceOf(RegistryConfigException.class).hasMessage("Invalid value TOKEN for configuration "
            + "basic.auth.credentials.source: must be one of [URL, USER_INFO, SASL_INHERIT]");
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("bearer.auth.credentials.source", "basic")))
        .isInstanceOf(RegistryConfigException.class).hasMessage("Invalid value basic for configuration "
            + "bearer.auth.credentials.source: must be one of [, STATIC_TOKEN, OAUTHBEARER, CUSTOM]");
    assertThatThrownBy(() -> RegistryKey.ALL.stream()
        .filter(key -> key.name().equals("bearer.auth.credentials.source")).findFirst().orElseThrow().check("uami"))
        .isInstanceOf(RegistryConfigException.class).hasMessage("Invalid value UAMI for configuration "
            + "bearer.auth.credentials.source: Confluent's UAMI is not supported by Kavro; use one of "
            + "[, STATIC_TOKEN, OAUTHBEARER, CUSTOM]");
  }

  /** The bounds are the table's: a value under one is refused, from a map and from the builder alike. */
  @Test
  void bounds_areTheTables_forTheMapAndTheBuilder() {
    Map<String, Long> bounds = new java.util.TreeMap<>();
    RegistryKey.ALL.stream().filter(key -> key.atLeast() != null).forEach(key -> bounds.put(key.name(),
        key.atLeast()));
    assertThat(bounds).isEqualTo(Map.ofEntries(Map.entry("max.schemas.per.subject", 1L),
        Map.entry("latest.cache.size", 1L), Map.entry("missing.id.cache.ttl.sec", 0L),
        Map.entry("missing.cache.size", 1L), Map.entry("schema.registry.subjects.cache.size", 1L),
        Map.entry("schema.registry.contexts.cache.size", 1L), Map.entry("max.retries", 0L),
        Map.entry("retries.wait.ms", 0L), Map.entry("retries.max.wait.ms", 0L),
        Map.entry("http.connect.timeout.ms", 1L), Map.entry("http.read.timeout.ms", 1L)));

    assertThatThrownBy(() -> RegistryConfig.from(Map.of("max.retries", "-1")))
        .isInstanceOf(RegistryConfigException.class)
        .hasMessage("Invalid value -1 for configuration max.retries: Value must be at least 0");
    assertThatThrownBy(() -> RegistryConfig.builder().maxRetries(-1).build())
        .isInstanceOf(RegistryConfigException.class)
        .hasMessage("Invalid value -1 for configuration max.retries: Value must be at least 0");
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("http.read.timeout.ms", 0)))
        .isInstanceOf(RegistryConfigException.class)
        .hasMessage("Invalid value 0 for configuration http.read.timeout.ms: Value must be at least 1");
    assertThat(RegistryConfig.from(Map.of("max.retries", "0")).maxRetries()).isZero();
  }

  /** The defaults, as Confluent's client has them: literal values, so that a default changed in the table shows. */
  @Test
  void defaults_areConfluents() {
    RegistryConfig defaults = RegistryConfig.DEFAULTS;

    assertThat(defaults.urls()).isEmpty();
    assertThat(defaults.maxSchemasPerSubject()).isEqualTo(1000);
    assertThat(defaults.latestCacheTtl()).isEqualTo(RegistryConfig.NO_EXPIRY);
    assertThat(defaults.latestCacheSize()).isEqualTo(1000);
    assertThat(defaults.missingIdCacheTtl()).isEqualTo(java.time.Duration.ZERO);
    assertThat(defaults.missingCacheSize()).isEqualTo(10_000);
    assertThat(defaults.maxRetries()).isEqualTo(3);
    assertThat(defaults.retriesWait()).isEqualTo(java.time.Duration.ofMillis(1000));
    assertThat(defaults.retriesMaxWait()).isEqualTo(java.time.Duration.ofMillis(20_000));
    assertThat(defaults.connectTimeout()).isEqualTo(java.time.Duration.ofMillis(10_000));
    assertThat(defaults.readTimeout()).isEqualTo(java.time.Duration.ofMillis(30_000));
    assertThat(defaults.basicAuthFromUserInfo()).isFalse();
    assertThat(defaults.usesBearerAuth()).isFalse();
    assertThat(defaults.proxy()).isNull();
    assertThat(defaults.tls()).isEqualTo(RegistryConfig.Tls.DEFAULT);
    assertThat(defaults.tls()).isEqualTo(new RegistryConfig.Tls(null, null, "JKS", null, null, null, "JKS", null,
        null, null, true, "TLSv1.3", List.of("TLSv1.2", "TLSv1.3"), List.of()));
    assertThat(RegistryConfig.builder().build()).isEqualTo(defaults);
    assertThat(OAuthSettings.DEFAULT_EXPIRY_BUFFER).isEqualTo(java.time.Duration.ofSeconds(300));
  }
}
