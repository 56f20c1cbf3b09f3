package io.kavro.registry.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryConfigTest {

  @Test
  void defaults_matchDocumentedValues() {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", "http://127.0.0.1:8081"));

    assertThat(config.urls()).containsExactly("http://127.0.0.1:8081");
    assertThat(config.maxSchemasPerSubject()).isEqualTo(1000);
    assertThat(config.latestCacheTtl()).isEqualTo(RegistryConfig.NO_EXPIRY);
    assertThat(config.latestCacheSize()).isEqualTo(1000);
    assertThat(config.normalizeSchemas()).isFalse();
    assertThat(config.missingIdCacheTtl()).isZero();
    assertThat(config.missingCacheSize()).isEqualTo(10_000);
    assertThat(config.maxRetries()).isEqualTo(3);
    assertThat(config.retriesWait()).isEqualTo(Duration.ofMillis(1000));
    assertThat(config.retriesMaxWait()).isEqualTo(Duration.ofMillis(20000));
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(10000));
    assertThat(config.readTimeout()).isEqualTo(Duration.ofMillis(30000));
    assertThat(config.basicAuthFromUserInfo()).isFalse();
    assertThat(config.bearerToken()).isNull();
    assertThat(config.tls().verifyHostname()).isTrue();
    assertThat(config.mockScope()).isNull();
  }

  @Test
  void urls_commaSeparated_trimmedInOrder() {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", " http://a:1 , http://b:2"));

    assertThat(config.urls()).containsExactly("http://a:1", "http://b:2");
  }

  @Test
  void url_missing_configErrorNamesKey() {
    assertThatThrownBy(() -> SchemaRegistryClients.create(Map.of()))
        .isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("schema.registry.url");
  }

  @Test
  void mockUrl_scopeParsed_andCannotMixWithHttp() {
    assertThat(RegistryConfig.from(Map.of("schema.registry.url", "mock://tests")).mockScope()).isEqualTo("tests");
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "mock://a,http://b:1")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("cannot be combined");
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "mock://")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("scope");
  }

  @Test
  void retries_maxWaitBelowWait_configError() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "retries.wait.ms", 500, "retries.max.wait.ms", 100)))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("retries.max.wait.ms");
  }

  @Test
  void invalidValues_configErrorsNameKey() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1", "max.retries", -1)))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("max.retries");
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "basic.auth.credentials.source", "SASL_INHERIT")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("basic.auth.credentials.source");
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "bearer.auth.credentials.source", "STATIC_TOKEN")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("bearer.auth.token");
  }

  @Test
  void notHttpUrl_configErrorOnCreate() {
    assertThatThrownBy(() -> SchemaRegistryClients.create(Map.of("schema.registry.url", "localhost:8081")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("not an http:// or https:// URL");
  }

  @Test
  void unknownKeys_ignored() {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "bootstrap.servers", "x:9092", "value.subject.name.strategy", "whatever"));

    assertThat(config.urls()).hasSize(1);
  }

  @Test
  void missingIdCacheTtl_wiredIntoTheCreatedClient() {
    String scope = "missing-ids-" + System.nanoTime();
    try (SchemaRegistryClient remembering = SchemaRegistryClients.create(Map.of("schema.registry.url",
        "mock://" + scope, "missing.id.cache.ttl.sec", 60))) {
      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> remembering.schemaById(99)).isInstanceOf(SchemaNotFoundException.class);
      }
      assertThat(remembering.stats().requests()).isEqualTo(1);
    }
    try (SchemaRegistryClient asking = SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://" + scope))) {
      long before = asking.stats().requests();
      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> asking.schemaById(99)).isInstanceOf(SchemaNotFoundException.class);
      }
      assertThat(asking.stats().requests()).isEqualTo(before + 3);
    }
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "missing.id.cache.ttl.sec", -1))).isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("missing.id.cache.ttl.sec");
  }

  @Test
  void propertiesFileValues_asText_parsed() {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", "http://a:1", "max.retries", " 5 ",
        "normalize.schemas", "TRUE", "http.read.timeout.ms", "2500", "basic.auth.credentials.source", "user_info",
        "basic.auth.user.info", "u:p", "schema.registry.ssl.truststore.type", "pkcs12",
        "schema.registry.ssl.endpoint.identification.algorithm", ""));

    assertThat(config.maxRetries()).isEqualTo(5);
    assertThat(config.normalizeSchemas()).isTrue();
    assertThat(config.readTimeout()).isEqualTo(Duration.ofMillis(2500));
    assertThat(config.basicAuthFromUserInfo()).isTrue();
    assertThat(config.basicAuthUserInfo().value()).isEqualTo("u:p");
    assertThat(config.tls().truststoreType()).isEqualTo("PKCS12");
    assertThat(config.tls().verifyHostname()).isFalse();
  }

  @Test
  void wrongText_errorNamesTheKey_neverTheSecret() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "max.retries", "three"))).isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("max.retries").hasMessageContaining("three")
        .satisfies(e -> assertThat(((RegistryConfigException) e).key()).isEqualTo("max.retries"));
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "normalize.schemas", "yes"))).isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("normalize.schemas");
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://a:1",
        "basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "no-colon-secret")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("basic.auth.user.info")
        .hasMessageNotContaining("no-colon-secret");
  }

  @Test
  void builder_newBuilder_andSecretsHiddenInToString() {
    RegistryConfig config = RegistryConfig.builder().urls(List.of("https://alice:pw@reg:8081"))
        .maxRetries(1).bearerToken(Secret.of("t0ken")).build();
    RegistryConfig faster = config.newBuilder().readTimeout(Duration.ofSeconds(5)).build();

    assertThat(faster.maxRetries()).isEqualTo(1);
    assertThat(faster.readTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.readTimeout()).isEqualTo(RegistryConfig.DEFAULTS.readTimeout());
    assertThat(faster.toString()).doesNotContain("t0ken").doesNotContain("alice").doesNotContain("pw@");
    assertThatThrownBy(() -> config.newBuilder().maxRetries(-1).build())
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("max.retries");
  }

  /** Issue 22, item 11: a URL given without a scheme loses its user info too; a sentence keeps its words. */
  @Test
  void redact_urlWithoutScheme_userInfoRemoved() {
    assertThat(RegistryConfig.redact("alice:pw@registry:8081")).isEqualTo("registry:8081");
    assertThat(RegistryConfig.redact("http://alice:p@ss@registry:8081/x")).isEqualTo("http://registry:8081/x");
    assertThat(RegistryConfig.redact("write to ops@example.com")).isEqualTo("write to ops@example.com");
  }

  /** Only the words that are URLs lose their user info: an '@' elsewhere (a subject, an address) is kept. */
  @Test
  void redactUrls_redactsEachUrl_keepsOtherWords() {
    assertThat(RegistryConfig.redactUrls("GET https://alice:s3cret@registry:8081/x for team@corp-value, then "
        + "http://bob:p@ss@other:8081 failed; write to ops@example.com"))
        .isEqualTo("GET https://registry:8081/x for team@corp-value, then http://other:8081 failed; write to "
            + "ops@example.com");
    assertThat(RegistryConfig.redactUrls("no URL here")).isEqualTo("no URL here");
  }
}
