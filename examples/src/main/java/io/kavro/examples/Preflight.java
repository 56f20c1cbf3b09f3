package io.kavro.examples;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;

/** Checks that Kafka and the registry answer, within seconds, before the demo starts working. */
final class Preflight {
  private static final int KAFKA_TIMEOUT_SECONDS = 12;

  private Preflight() {}

  /** @throws IllegalStateException with a message for a person, when either one does not answer */
  static void check(Endpoints endpoints) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", endpoints.bootstrapServers(),
        "request.timeout.ms", 5000, "default.api.timeout.ms", KAFKA_TIMEOUT_SECONDS * 1000,
        "reconnect.backoff.max.ms", 1000))) {
      admin.describeCluster().nodes().get(KAFKA_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking Kafka", e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot reach Kafka at " + endpoints.bootstrapServers() + " within "
          + KAFKA_TIMEOUT_SECONDS + " s: is a broker running there? (" + rootMessage(e) + ")", e);
    }
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of(
        "schema.registry.url", endpoints.registryUrl(), "max.retries", 1, "retries.wait.ms", 500,
        "retries.max.wait.ms", 1000, "http.connect.timeout.ms", 5000, "http.read.timeout.ms", 5000))) {
      registry.subjects();
    } catch (SchemaRegistryException | KafkaException e) {
      throw new IllegalStateException("cannot reach the schema registry at " + endpoints.registryUrl() + ": "
          + e.getMessage(), e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
  }
}
