package io.kavro.serde;

import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.subject.RegistryAwareStrategy;
import io.kavro.serde.subject.SubjectNameStrategies;
import io.kavro.serde.subject.SubjectNameStrategy;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * What a serializer or a deserializer is once configured: its engine, and the registry client the engine uses:
 * one its owner created from the configuration (and closes), or one it was given (the caller's, or its
 * {@link AvroSerde}'s). Its metrics count that client either way. Thread-safe: the engine is replaced whole on each
 * configure, and the one it replaces is closed.
 *
 * @param <E> the engine
 */
final class ConfiguredPlugin<E extends AutoCloseable> {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ConfiguredPlugin.class);
  private final String plugin;
  private final SchemaRegistryClient provided;
  private final BiFunction<SchemaRegistryClient, AvroSerdeConfig, E> engines;
  private RegistryClientOwner clients;
  /** Whether it writes or reads. */
  private final ConfluentKeys.Side role;
  private volatile E engine;
  /** The engine {@link #close()} closed, so that a second close closes nothing. */
  private E closed;
  private volatile SchemaRegistryClient client;
  /** The engine's subject name strategy, told the Kafka cluster id; and that id, once Kafka told it. */
  private volatile SubjectNameStrategy subjects;
  private volatile String clusterId;

  /**
   * @param plugin the plugin's class name, for the error before configure
   * @param role whether it writes or reads: Confluent's keys of the other side pass ({@link ConfluentKeys.Side})
   * @param provided the caller's client, or {@code null} to create one from the configuration
   */
  ConfiguredPlugin(String plugin, ConfluentKeys.Side role, SchemaRegistryClient provided,
      BiFunction<SchemaRegistryClient, AvroSerdeConfig, E> engines) {
    this.plugin = plugin;
    this.role = role;
    this.provided = provided;
    this.engines = engines;
  }

  /**
   * Parses the configuration (warning of mistyped keys, logging the settings in effect) and builds the engine on
   * the plugin's client: the caller's, or one its owner creates (closing the one of an earlier configure). The
   * owner is made here, so a half of a serde, which its serde configures, has none.
   */
  void configure(Map<String, ?> configs, boolean isKey) {
    AvroSerdeConfig config = SettingsLog.configure(plugin, configs, isKey, role);
    RegistryClientOwner owner;
    synchronized (this) {
      if (clients == null) {
        clients = new RegistryClientOwner(provided);
      }
      owner = clients;
    }
    configure(owner.client(config), config);
  }

  /** Builds the engine on a client someone else chose: an {@link AvroSerde}'s, or the caller's. */
  void configure(SchemaRegistryClient client, AvroSerdeConfig config) {
    TopicIds.check(client, config);
    SubjectNameStrategies.useRegistry(config.subjectNameStrategy(), client);
    subjects = config.subjectNameStrategy();
    if (clusterId != null) {
      clusterId(clusterId);
    }
    E previous = engine;
    engine = engines.apply(client, config);
    this.client = client;
    if (previous != null) {
      closeEngine(previous); // its framing resolver, its listener on the client
    }
  }

  /** The Kafka cluster id, from Kafka's {@code ClusterResourceListener}: passed on to the subject name strategy. */
  void clusterId(String id) {
    if (id == null) {
      return;
    }
    clusterId = id;
    if (subjects instanceof RegistryAwareStrategy aware) {
      aware.useKafkaClusterId(id);
    }
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

  /** Closes the engine, and the registry client if this plugin's owner created it. Idempotent. */
  synchronized void close() {
    E current = engine;
    if (current != null && current != closed) {
      closeEngine(current);
      closed = current;
    }
    if (clients != null) {
      clients.close();
    }
  }

  private void closeEngine(E closing) {
    try {
      closing.close();
    } catch (Exception e) {
      log.warn("Closing the {} engine failed: {}", plugin, e.toString());
    }
  }
}
