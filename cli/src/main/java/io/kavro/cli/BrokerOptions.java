package io.kavro.cli;

import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of the commands that talk to Kafka: the {@link ClientOptions} and {@code --bootstrap-server}. */
final class BrokerOptions {
  @Mixin
  ClientOptions client;

  /** How long a Kafka client may wait for the broker's metadata before the tool says it cannot reach it. */
  static final int MAX_BLOCK_MS = 10_000;

  /** The environment variable that names the broker when neither the flags nor the command config do. */
  static final String BOOTSTRAP_ENV = "KAVRO_BOOTSTRAP_SERVERS";

  @Option(names = {"--bootstrap-server", "--broker-list"}, paramLabel = "HOST:PORT",
      description = "Kafka broker(s) to connect to (--broker-list, as Confluent's older tools name it, too); or "
          + "bootstrap.servers in --command-config.")
  String bootstrapServer;

  /**
   * The client's configuration with the broker: from {@code --bootstrap-server} or the command config's
   * {@code bootstrap.servers}, and waiting at most {@link #MAX_BLOCK_MS} for it unless the command config says
   * otherwise (Kafka's own default is a minute).
   */
  Map<String, Object> kafkaConfig() {
    return kafkaConfig(System.getenv());
  }

  Map<String, Object> kafkaConfig(Map<String, String> environment) {
    Map<String, Object> config = client.config(environment);
    if (bootstrapServer != null) {
      config.put("bootstrap.servers", bootstrapServer);
    } else if (!config.containsKey("bootstrap.servers") && environment.get(BOOTSTRAP_ENV) != null) {
      config.put("bootstrap.servers", environment.get(BOOTSTRAP_ENV));
    }
    if (!config.containsKey("bootstrap.servers")) {
      throw new CliException("the Kafka broker is needed: --bootstrap-server HOST:PORT, bootstrap.servers in "
          + "--command-config or --property, or " + BOOTSTRAP_ENV, 2);
    }
    config.putIfAbsent("max.block.ms", MAX_BLOCK_MS);
    config.putIfAbsent("default.api.timeout.ms", MAX_BLOCK_MS);
    return config;
  }

  /**
   * How long the producer waits for the broker: {@code max.block.ms} of a {@link #kafkaConfig}.
   *
   * @throws CliException exit 2, when it is not a number of milliseconds
   */
  static Duration maxBlock(Map<String, Object> config) {
    Object value = config.get("max.block.ms");
    try {
      long millis = Long.parseLong(String.valueOf(value).strip());
      if (millis >= 0 && millis <= Integer.MAX_VALUE) {
        return Duration.ofMillis(millis);
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new CliException("max.block.ms must be a number of milliseconds from 0 to " + Integer.MAX_VALUE
        + ", was '" + value + "'", 2);
  }
}
