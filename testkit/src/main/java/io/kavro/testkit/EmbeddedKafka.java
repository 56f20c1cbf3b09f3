package io.kavro.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node KRaft Kafka broker (broker and controller in one) running in this JVM, bound to 127.0.0.1
 * only, with its logs in a temporary folder that {@link #close()} deletes.
 *
 * <p>It needs the kafka-clients that the testkit is built with (4.4) on this JVM's class path. {@link LocalStack}
 * runs it in a child JVM of its own when the application has another kafka-clients.
 */
public final class EmbeddedKafka implements KafkaBroker {
  private final KafkaRaftServer server;
  private final Path logDir;
  private final int port;

  private EmbeddedKafka(KafkaRaftServer server, Path logDir, int port) {
    this.server = server;
    this.logDir = logDir;
    this.port = port;
  }

  /**
   * Formats the storage and starts a broker on {@code port} (0 for any free port, with another try should
   * the chosen one be taken before the broker binds it).
   */
  public static EmbeddedKafka start(int port) {
    return Ports.startOnFreePort(port, "the Kafka broker", brokerPort -> startOn(brokerPort, Ports.free()));
  }

  private static EmbeddedKafka startOn(int brokerPort, int controllerPort) {
    Path logDir;
    try {
      logDir = Files.createTempDirectory("kavro-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("log.dirs", logDir.toString());
    props.put("num.partitions", "1");
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("auto.create.topics.enable", "true");
    props.put("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
    format(props, logDir);
    KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
    try {
      server.startup();
    } catch (RuntimeException e) {
      stopQuietly(server);
      Folders.deleteQuietly(logDir);
      throw new IllegalStateException("the embedded Kafka broker did not start on 127.0.0.1:" + brokerPort
          + ": " + e.getMessage(), e);
    }
    return new EmbeddedKafka(server, logDir, brokerPort);
  }

  private static void format(Properties props, Path logDir) {
    Path config = logDir.resolve("server.properties");
    try (OutputStream out = Files.newOutputStream(config)) {
      props.store(out, "kavro embedded broker");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    int status = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c",
        config.toString()}, new PrintStream(output, true, StandardCharsets.UTF_8));
    if (status != 0) {
      throw new IllegalStateException("formatting the Kafka log folder failed: " + output);
    }
  }

  /** {@code 127.0.0.1:<port>}. */
  @Override
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /** Stops the broker and deletes its data. */
  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
    Folders.deleteQuietly(logDir);
  }

  private static void stopQuietly(KafkaRaftServer server) {
    try {
      server.shutdown();
      server.awaitShutdown();
    } catch (RuntimeException e) {
      // Startup failed already; what is left to stop is stopped as far as it can be.
    }
  }
}
