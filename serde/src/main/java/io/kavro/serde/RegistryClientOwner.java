package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.config.RegistryConfigException;

/**
 * The one owner of a registry client, for a serializer, a deserializer, both halves of an {@link AvroSerde}, or
 * a Connect converter: the client the caller provided, or one created from the configuration, which this
 * owner then closes. Thread-safe.
 */
public final class RegistryClientOwner {
  private final SchemaRegistryClient provided;
  private volatile SchemaRegistryClient created;

  /** @param provided the caller's client, or {@code null} to create one on {@link #client} */
  public RegistryClientOwner(SchemaRegistryClient provided) {
    this.provided = provided;
  }

  /**
   * The provided client, or a new one from the config (closing any earlier one this owner created).
   *
   * @throws org.apache.kafka.common.config.ConfigException when no URL is configured or one is not http(s)
   */
  public SchemaRegistryClient client(AvroSerdeConfig config) {
    if (provided != null) {
      return provided;
    }
    SchemaRegistryClient client = create(config);
    close();
    created = client;
    return client;
  }

  private static SchemaRegistryClient create(AvroSerdeConfig config) {
    try {
      return SchemaRegistryClients.create(config.registryConfig());
    } catch (RegistryConfigException e) {
      throw RegistryKeys.asConfigException(e);
    }
  }

  /** The counters of the client in use: the provided one, else the created one; zeros before configure. */
  public io.kavro.registry.RegistryStats stats() {
    SchemaRegistryClient client = provided != null ? provided : created;
    return client == null ? io.kavro.registry.RegistryStats.EMPTY : client.stats();
  }

  /** Closes the client if this owner created it. Idempotent. */
  public void close() {
    SchemaRegistryClient client = created;
    created = null;
    if (client != null) {
      client.close();
    }
  }
}
