package io.kavro.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/**
 * The options every command shares, as Kafka's own tools name them: the registry, and {@code --command-config},
 * a properties file for the Kafka client and the registry client (auth, TLS, ...), with the keys they document.
 * The commands that talk to Kafka take them within {@link BrokerOptions}.
 */
final class ClientOptions {
  /** The environment variable that carries the registry's basic-auth {@code user:password}. */
  static final String USER_INFO_ENV = "KAVRO_SCHEMA_REGISTRY_USER_INFO";

  @Option(names = "--schema-registry-url", paramLabel = "URL",
      description = "Schema registry URL(s), comma-separated. Credentials: set " + USER_INFO_ENV
          + "=user:password, or basic.auth.user.info in --command-config; user:password@ in the URL is visible "
          + "to every user of this machine in the process list. Or schema.registry.url in --command-config.")
  String schemaRegistryUrl;

  /** The environment variable that names the registry when neither the flags nor the command config do. */
  static final String REGISTRY_URL_ENV = "KAVRO_SCHEMA_REGISTRY_URL";

  @Option(names = {"--command-config", "--producer.config", "--consumer.config"}, paramLabel = "FILE",
      description = "Properties for the Kafka and registry clients: security, TLS, basic.auth.*, ... "
          + "(--producer.config and --consumer.config, as Confluent's console tools name it, too).")
  Path commandConfig;

  @Option(names = "--property", paramLabel = "KEY=VALUE", description = "A setting, as Confluent's console tools "
      + "take them: schema.registry.url, basic.auth.*, and each command's own (value.schema, print.key, ...). "
      + "Repeat for each.")
  Map<String, String> properties = new LinkedHashMap<>();

  /**
   * The command config's properties, the registry URL and the basic-auth credentials of {@link #USER_INFO_ENV}
   * (unless the command config names its own).
   */
  Map<String, Object> config() {
    return config(System.getenv());
  }

  Map<String, Object> config(Map<String, String> environment) {
    Map<String, Object> config = new HashMap<>();
    if (commandConfig != null) {
      Properties properties = new Properties();
      try (InputStream in = Files.newInputStream(commandConfig)) {
        properties.load(in);
      } catch (IOException e) {
        throw new CliException("cannot read --command-config " + commandConfig + ": " + e.getMessage());
      }
      properties.forEach((k, v) -> config.put(k.toString(), v));
    }
    config.putAll(this.properties);
    if (schemaRegistryUrl != null) {
      config.put("schema.registry.url", schemaRegistryUrl);
    } else if (!config.containsKey("schema.registry.url") && environment.get(REGISTRY_URL_ENV) != null) {
      config.put("schema.registry.url", environment.get(REGISTRY_URL_ENV));
    } else if (!config.containsKey("schema.registry.url")) {
      throw new CliException("the schema registry is needed: --schema-registry-url URL, schema.registry.url in "
          + "--command-config or --property, or " + REGISTRY_URL_ENV, 2);
    }
    String userInfo = environment.get(USER_INFO_ENV);
    if (userInfo != null && !userInfo.isBlank() && !config.containsKey("basic.auth.user.info")) {
      config.put("basic.auth.credentials.source", "USER_INFO");
      config.put("basic.auth.user.info", userInfo);
    }
    return config;
  }
}
