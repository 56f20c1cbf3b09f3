package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 1: the broker that runs in a child JVM when the test's kafka-clients is not the broker's. Here
 * it is started on purpose, on the broker's own line; {@code tests/testkit-kafka3} runs it for kafka-clients 3.7.
 */
class BrokerProcessTest {
  @Test
  void aChildJvmBroker_servesClients_andStopsWithClose() throws Exception {
    long begin = System.nanoTime();
    String address;
    try (BrokerProcess broker = BrokerProcess.start(0)) {
      System.out.printf("broker in a child JVM up in %d ms%n", (System.nanoTime() - begin) / 1_000_000);
      address = broker.bootstrapServers();
      assertThat(address).startsWith("127.0.0.1:");
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", address))) {
        admin.createTopics(List.of(new NewTopic("child", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("child");
      }
    }
    int port = Integer.parseInt(address.substring(address.indexOf(':') + 1));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      throw new AssertionError("the broker still listens on " + address + " after close()");
    } catch (IOException expected) {
      // stopped
    }
  }
}
