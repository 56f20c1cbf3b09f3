package io.kavro.serde;

import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaRegistryClient;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * What a serializer or a deserializer is once configured: its engine, and the registry client the engine uses:
 * one its owner created from the configuration (and closes), or one it was given (the caller's, or its
 * {@link AvroSerde}'s). Its metrics count that client either way. Thread-safe: the engine is replaced whole on each
 * configure.
 *
 * @param <E> the engine
 */
final class PluginEngine<E> {
  private final String plugin;
  private final RegistryClientOwner clients;
  private final BiFunction<SchemaRegistryClient, AvroSerdeConfig, E> engines;
  private volatile E engine;
  private volatile SchemaRegistryClient client;

  /**
   * @param plugin the plugin's class name, for the error before configure
   * @param clients the plugin's owner: what it creates on {@link #configure(Map, boolean)} it closes
   */
  PluginEngine(String plugin, RegistryClientOwner clients, BiFunction<SchemaRegistryClient, AvroSerdeConfig, E> engines) {
    this.plugin = plugin;
    this.clients = clients;
    this.engines = engines;
  }

  /** Parses the configuration and builds the engine on the owner's client. */
  void configure(Map<String, ?> configs, boolean isKey) {
    AvroSerdeConfig config = new AvroSerdeConfig(configs, isKey);
    configure(clients.client(config), config);
  }

  /** Builds the engine on a client someone else chose: an {@link AvroSerde}'s, or the caller's. */
  void configure(SchemaRegistryClient client, AvroSerdeConfig config) {
    engine = engines.apply(client, config);
    this.client = client;
  }

  /** The configured engine. */
  E engine() {
    E current = engine;
    if (current == null) {
      throw new IllegalStateException(plugin + " is not configured: call configure(configs, isKey) first (Kafka "
          + "does this for the plugins named in a client's properties)");
    }
    return current;
  }

  /** The counters of the registry client in use; zeros before configure. */
  RegistryStats stats() {
    SchemaRegistryClient current = client;
    return current == null ? RegistryStats.EMPTY : current.stats();
  }

  /** Closes the registry client if this plugin's owner created it. Idempotent. */
  void close() {
    clients.close();
  }
}
