package io.kavro.testkit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Starts a registry in the background while a KRaft broker starts, as every local stack does, and stops the one
 * that started when the other fails.
 *
 * @param kafka the broker
 * @param registry the registry
 * @param <R> the registry's type
 */
record BrokerBeside<R extends AutoCloseable>(KafkaBroker kafka, R registry) {

  /**
   * Both started: the registry by {@code startRegistry} on another thread, the broker on {@code kafkaPort}.
   *
   * @throws RuntimeException what either start threw, once the other is stopped
   */
  static <R extends AutoCloseable> BrokerBeside<R> start(int kafkaPort, Supplier<R> startRegistry) {
    CompletableFuture<R> registry = CompletableFuture.supplyAsync(startRegistry);
    KafkaBroker kafka;
    try {
      kafka = KafkaBroker.start(kafkaPort);
    } catch (RuntimeException e) {
      registry.thenAccept(BrokerBeside::closeQuietly);
      throw e;
    }
    try {
      return new BrokerBeside<>(kafka, registry.join());
    } catch (CompletionException e) {
      kafka.close();
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // it failed to stop after the broker failed to start: the broker's failure is the one reported
    }
  }
}
