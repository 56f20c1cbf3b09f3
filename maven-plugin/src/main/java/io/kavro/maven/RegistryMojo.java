package io.kavro.maven;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.config.RegistryConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * The goals that talk to a registry: its settings, by the names of Confluent's plugin ({@code schemaRegistryUrls},
 * {@code userInfoConfig}, {@code httpHeaders}, {@code configs}) and Kavro's own for a bearer token and TLS. Every
 * key the serde takes may be given in {@code configs}. Secrets are never logged.
 */
public abstract class RegistryMojo extends KavroMojo {
  /** The registry's base URLs; more than one for failover. Apicurio's is {@code http://host:8080/apis/ccompat/v7}. */
  @Parameter
  List<String> schemaRegistryUrls;

  /** Basic auth's {@code user:password}. */
  @Parameter
  String userInfoConfig;

  /** A static bearer token ({@code bearer.auth.token}). */
  @Parameter
  String bearerAuthToken;

  /** Headers sent with every request ({@code request.header.*}). */
  @Parameter
  Map<String, String> httpHeaders;

  /** {@code schema.registry.ssl.truststore.location}. */
  @Parameter
  String sslTruststoreLocation;

  /** {@code schema.registry.ssl.truststore.password}. */
  @Parameter
  String sslTruststorePassword;

  /** {@code schema.registry.ssl.keystore.location}. */
  @Parameter
  String sslKeystoreLocation;

  /** {@code schema.registry.ssl.keystore.password}. */
  @Parameter
  String sslKeystorePassword;

  /** {@code schema.registry.ssl.key.password}. */
  @Parameter
  String sslKeyPassword;

  /** Any setting of Kavro's registry client, by its key, as the serde takes it. */
  @Parameter
  Map<String, String> configs;

  /** The settings of these parameters. */
  final RegistrySettings settings(boolean normalize) {
    Map<String, String> tls = new LinkedHashMap<>();
    putIfSet(tls, RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG, sslTruststoreLocation);
    putIfSet(tls, RegistryConfig.SSL_TRUSTSTORE_PASSWORD_CONFIG, sslTruststorePassword);
    putIfSet(tls, RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG, sslKeystoreLocation);
    putIfSet(tls, RegistryConfig.SSL_KEYSTORE_PASSWORD_CONFIG, sslKeystorePassword);
    putIfSet(tls, RegistryConfig.SSL_KEY_PASSWORD_CONFIG, sslKeyPassword);
    return new RegistrySettings(schemaRegistryUrls, userInfoConfig, bearerAuthToken, httpHeaders, tls, configs,
        normalize);
  }

  private static void putIfSet(Map<String, String> map, String key, String value) {
    if (value != null && !value.isBlank()) {
      map.put(key, value);
    }
  }

  /**
   * A client of the registry these parameters name.
   *
   * @throws MojoExecutionException when none is named
   */
  final SchemaRegistryClient registry(boolean normalize) throws MojoExecutionException {
    RegistrySettings settings = settings(normalize);
    if (!settings.hasRegistry()) {
      throw new MojoExecutionException("no schema registry is configured: give <schemaRegistryUrls><param>URL"
          + "</param></schemaRegistryUrls> (or schema.registry.url in <configs>)");
    }
    getLog().debug("Registry: " + settings);
    return SchemaRegistryClients.create(settings.config());
  }
}
