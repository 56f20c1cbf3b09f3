package io.kavro.examples;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;

/** Checks that Kafka and the registry answer, within seconds, before the demo starts working. */
final class Preflight {
  private static final int KAFKA_TIMEOUT_SECONDS = 12;
  private static final int CONNECT_TIMEOUT_MS = 2000;

  private Preflight() {}

  /** @throws IllegalStateException with a message for a person, when either one does not answer */
  static void check(Endpoints endpoints) {
    if (everyAddressRefuses(endpoints.bootstrapServers())) {
      throw new IllegalStateException("cannot reach Kafka at " + endpoints.bootstrapServers()
          + ": every address refused the connection (nothing listens there, or a firewall rejects it): is a broker "
          + "running there?");
    }
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

  /**
   * Whether every address of every bootstrap server refuses a TCP connection (made directly, as Kafka's client
   * makes it): nothing listens there, so the Admin client's wait would only wait out its timeout. A server that does
   * not parse or resolve, or an address that answers otherwise (accepts, times out, is unreachable), leaves it to
   * the Admin client.
   */
  private static boolean everyAddressRefuses(String bootstrapServers) {
    for (String server : bootstrapServers.split(",")) {
      String trimmed = server.strip();
      int colon = trimmed.lastIndexOf(':');
      if (colon <= 0) {
        return false;
      }
      String host = trimmed.substring(0, colon).replace("[", "").replace("]", "");
      int port;
      InetAddress[] addresses;
      try {
        port = Integer.parseInt(trimmed.substring(colon + 1));
        addresses = InetAddress.getAllByName(host); // Kafka's client tries each (client.dns.lookup)
      } catch (NumberFormatException | UnknownHostException | SecurityException e) {
        return false;
      }
      for (InetAddress address : addresses) {
        if (port < 1 || port > 65535 || !refuses(new InetSocketAddress(address, port))) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean refuses(InetSocketAddress address) {
    try (Socket socket = new Socket(Proxy.NO_PROXY)) {
      socket.connect(address, CONNECT_TIMEOUT_MS);
      return false;
    } catch (ConnectException e) {
      return true;
    } catch (IOException e) {
      return false;
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
