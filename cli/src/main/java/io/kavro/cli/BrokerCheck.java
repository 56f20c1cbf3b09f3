package io.kavro.cli;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Asks the broker once, before a command reads or writes, so that an unreachable broker or a missing topic is an
 * error within seconds, with Kafka's reason, and never looks like an empty topic.
 */
final class BrokerCheck {
  /**
   * The client id of the admin client that {@link #reachable} runs. Its failure is the tool's one line, so the
   * tool's log configuration ({@code log4j2.xml}) drops what that client logs below ERROR: its warnings would
   * only repeat the line, from a client the user did not ask for.
   */
  static final String CLIENT_ID = "kavro-broker-check";

  /** How much longer than the check's own timeout the tool waits for the admin client to give its answer. */
  private static final Duration GRACE = Duration.ofSeconds(5);

  private BrokerCheck() {}

  /**
   * Fails unless a broker of {@code config}'s {@code bootstrap.servers} answers within {@code timeout}, through an
   * admin client of the same configuration (security, TLS), which creates nothing.
   *
   * @param setting the setting {@code timeout} comes from, which the error names so that it can be changed
   * @throws CliException exit 1, naming the bootstrap servers, the timeout and the reason
   */
  static void reachable(Map<String, Object> config, Duration timeout, String setting) {
    Object bootstrap = config.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
    String within = " within " + timeout.toMillis() + " ms (" + setting + ")";
    try (Admin admin = Admin.create(adminConfig(config, timeout))) {
      admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis())).nodes()
          .get(timeout.plus(GRACE).toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw unreachable(bootstrap, within, e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw unreachable(bootstrap, within, new TimeoutException("no answer"));
    } catch (KafkaException e) {
      throw new CliException("cannot connect to the Kafka broker at " + bootstrap + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while waiting for the Kafka broker at " + bootstrap);
    }
  }

  private static CliException unreachable(Object bootstrap, String within, Throwable cause) {
    String reason = cause instanceof TimeoutException
        ? "no broker answered: is one running there, and is --bootstrap-server right?"
        : cause.getMessage();
    return new CliException("cannot reach the Kafka broker at " + bootstrap + within + ": " + reason);
  }

  /** The command's configuration for an admin client that gives up after {@code timeout}, with its own id. */
  private static Map<String, Object> adminConfig(Map<String, Object> config, Duration timeout) {
    Map<String, Object> admin = new HashMap<>(config);
    int millis = (int) timeout.toMillis();
    admin.put(AdminClientConfig.CLIENT_ID_CONFIG, CLIENT_ID);
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
    admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
    return admin;
  }

  /**
   * Fails unless {@code consumer} finds the broker within {@code timeout}; for {@code mustExist}, unless the topic
   * exists too.
   *
   * @throws CliException exit 1, naming the broker or the topic
   */
  static void check(Consumer<?, ?> consumer, Object bootstrap, String topic, boolean mustExist, Duration timeout) {
    List<PartitionInfo> partitions;
    try {
      partitions = consumer.partitionsFor(topic, timeout);
    } catch (TimeoutException e) {
      throw new CliException("cannot reach the Kafka broker at " + bootstrap + " within " + timeout.toMillis()
          + " ms: " + e.getMessage());
    }
    if (mustExist && (partitions == null || partitions.isEmpty())) {
      throw new CliException("topic '" + topic + "' does not exist on " + bootstrap);
    }
  }
}
