package io.kavro.tests.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;

/**
 * What makes {@code com.example.OrderFlowTest} worth running here (issue 37, item 1): the test's own clients are
 * the application's kafka-clients 3.7.2, on which the testkit's in-JVM broker fails, and the serde is
 * {@code kavro-serde-kafka3}, with no KIP-877 interface, which 3.7 lacks.
 */
class KafkaClientsLineTest {
  @Test
  void theTestsClients_areTheApplicationsLine() {
    assertThat(AppInfoParser.getVersion()).isEqualTo(System.getProperty("kavro.tests.kafkaClients"))
        .startsWith("3.");
  }

  @Test
  void theSerde_isTheOneForKafka3() {
    assertThat(io.kavro.serde.KafkaAvroSerializer.class.getInterfaces()).extracting(Class::getName)
        .doesNotContain("org.apache.kafka.common.metrics.Monitorable");
  }
}
