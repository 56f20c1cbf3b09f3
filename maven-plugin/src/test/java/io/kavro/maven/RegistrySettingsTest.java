package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.config.RegistryConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plugin's registry parameters, as the keys the serde and the console tool give the registry client. */
class RegistrySettingsTest {
  @Test
  void config_parameters_becomeTheClientsKeys_andWinOverConfigs() {
    RegistrySettings settings = new RegistrySettings(List.of("http://a:8081", " http://b:8081 "), "alice:s3cret",
        null, Map.of("X-Team", "payments"),
        Map.of(RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG, "/etc/trust.p12"),
        Map.of("basic.auth.user.info", "bob:other", "max.retries", "1"), true);

    assertThat(settings.config())
        .containsEntry("schema.registry.url", "http://a:8081,http://b:8081")
        .containsEntry("basic.auth.credentials.source", "USER_INFO")
        .containsEntry("basic.auth.user.info", "alice:s3cret")
        .containsEntry("request.header.X-Team", "payments")
        .containsEntry("schema.registry.ssl.truststore.location", "/etc/trust.p12")
        .containsEntry("normalize.schemas", "true")
        .containsEntry("max.retries", "1")
        .doesNotContainKey("bearer.auth.token");
  }

  @Test
  void config_bearerToken_isAStaticToken() {
    RegistrySettings settings = new RegistrySettings(List.of("http://a:8081"), null, "t0ken", null, null, null,
        false);

    assertThat(settings.config()).containsEntry("bearer.auth.credentials.source", "STATIC_TOKEN")
        .containsEntry("bearer.auth.token", "t0ken").doesNotContainKey("normalize.schemas");
  }

  @Test
  void hasRegistry_aUrlInConfigs_counts() {
    assertThat(new RegistrySettings(null, null, null, null, null, null, false).hasRegistry()).isFalse();
    assertThat(new RegistrySettings(null, null, null, null, null, Map.of("schema.registry.url", "http://a"), false)
        .hasRegistry()).isTrue();
  }

  @Test
  void toString_showsNoSecret() {
    RegistrySettings settings = new RegistrySettings(List.of("http://carol:pw1@a:8081"), "alice:s3cret", "t0ken",
        null, Map.of(RegistryConfig.SSL_TRUSTSTORE_PASSWORD_CONFIG, "trustpw"), null, false);

    assertThat(settings.toString()).doesNotContain("s3cret", "t0ken", "pw1", "trustpw")
        .contains("http://a:8081");
  }
}
