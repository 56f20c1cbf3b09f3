package io.kavro.testkit;

import java.io.IOException;
import java.util.Locale;

/**
 * The schema registry of a stack that the testkit starts: Apicurio Registry with a {@link DataContractLayer} in
 * front, on the stack's registry port, so that the registry keeps what Apicurio alone drops (the {@code ruleSet}
 * and {@code metadata} of a version) and serves a DEK registry, as Confluent's does. The URL it gives keeps
 * Apicurio's path ({@code http://127.0.0.1:<port>/apis/ccompat/v7}), and Apicurio's own API passes through. With
 * {@code -Dkavro.stack.contracts=false} it is Apicurio alone, which ignores data contracts.
 */
final class StackRegistry implements AutoCloseable {
  /** The system property that turns the contract layer off ({@code false}); on by default. */
  static final String CONTRACTS_PROPERTY = "kavro.stack.contracts";

  private final AutoCloseable registry;
  private final DataContractLayer layer;
  private final String url;

  private StackRegistry(AutoCloseable registry, DataContractLayer layer, String url) {
    this.registry = registry;
    this.layer = layer;
    this.url = url;
  }

  /**
   * Starts Apicurio (on any free port when the layer is in front of it) and the layer on {@code port} (0 for any
   * free port).
   *
   * @throws IllegalStateException when the layer cannot have the port
   * @throws IllegalArgumentException when {@code kavro.stack.contracts} is neither true nor false
   */
  static StackRegistry start(int port) {
    if (!contracts()) {
      EmbeddedRegistry apicurio = EmbeddedRegistry.start(port);
      return new StackRegistry(apicurio, null, apicurio.url());
    }
    EmbeddedRegistry apicurio = EmbeddedRegistry.start(0);
    return inFront(apicurio, apicurio.url(), port);
  }

  /**
   * The layer on {@code port} in front of {@code registry}, reached at {@code registryUrl}; closing the result
   * closes both. Without contracts ({@code kavro.stack.contracts=false}), the registry alone.
   *
   * @throws IllegalStateException when the layer cannot have the port; the registry is closed then
   */
  static StackRegistry inFront(AutoCloseable registry, String registryUrl, int port) {
    if (!contracts()) {
      return new StackRegistry(registry, null, registryUrl);
    }
    try {
      DataContractLayer layer = DataContractLayer.start(registryUrl, port);
      return new StackRegistry(registry, layer, layer.registryUrl());
    } catch (IOException | RuntimeException e) {
      closeQuietly(registry);
      throw new IllegalStateException("the schema registry's contract layer cannot listen on port " + port
          + " of 127.0.0.1: " + e.getMessage(), e);
    }
  }

  /** Whether {@code -Dkavro.stack.contracts} leaves the layer on (the default). */
  static boolean contracts() {
    String value = System.getProperty(CONTRACTS_PROPERTY, "true").trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "true", "" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("-D" + CONTRACTS_PROPERTY + " must be true or false, was '"
          + value + "'");
    };
  }

  /** The registry's Confluent-compatible API: the layer's, with Apicurio's path; else Apicurio's own. */
  String url() {
    return url;
  }

  /** Stops the layer, then the registry. */
  @Override
  public void close() {
    try {
      if (layer != null) {
        layer.close();
      }
    } finally {
      closeQuietly(registry);
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // EmbeddedRegistry and containers do not throw on close; nothing to report on a path that already fails
    }
  }
}
