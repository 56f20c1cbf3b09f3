package io.kavro.serde;

import io.kavro.registry.RegistryConfigException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryClients;

/**
 * The registry client of one serializer or deserializer: the one the caller provided, or one created from the
 * configuration, which this owner then closes. Thread-safe.
 */
final class RegistryClientOwner {
  private final SchemaRegistryClient provided;
  private volatile SchemaRegistryClient created;

  /** @param provided the caller's client, or {@code null} to create one on {@link #client} */
  RegistryClientOwner(SchemaRegistryClient provided) {
    this.provided = provided;
  }

  /** The provided client, or a new one from the config (closing any earlier one this owner created). */
  SchemaRegistryClient client(AvroSerdeConfig config) {
    if (provided != null) {
      return provided;
    }
    SchemaRegistryClient client = create(config);
    close();
    created = client;
    return client;
  }

  /**
   * A new client for the configuration.
   *
   * @throws org.apache.kafka.common.config.ConfigException when no URL is configured or one is not http(s)
   */
  static SchemaRegistryClient create(AvroSerdeConfig config) {
    try {
      return SchemaRegistryClients.create(config.registryConfig());
    } catch (RegistryConfigException e) {
      throw RegistryKeys.asConfigException(e);
    }
  }

  /** Closes the client if this owner created it. Idempotent. */
  void close() {
    SchemaRegistryClient client = created;
    created = null;
    if (client != null) {
      client.close();
    }
  }
}
