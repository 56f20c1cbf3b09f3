package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

/**
 * Connect before Kafka 4.0 drops a record whose {@link RetriableException} outlasts {@code errors.retry.timeout},
 * even with {@code errors.tolerance=none} (KAFKA-18073): a registry outage under the defaults would lose every record
 * it meets. There, what Kavro would throw as retriable fails the task instead (an {@code Error}, which Connect's
 * error handling does not catch), saying why; from 4.0 on, Connect hands an exhausted retry to
 * {@code errors.tolerance}, and it stays a {@code RetriableException}.
 */
class ConnectRuntimeRetriesTest {
  @Test
  void runtimesBefore4_dropExhaustedRetries_andAnUnreadableVersionIsTakenToo() {
    assertThat(ConnectFailures.dropsExhaustedRetries("3.0.2")).isTrue();
    assertThat(ConnectFailures.dropsExhaustedRetries("3.9.2")).isTrue();
    assertThat(ConnectFailures.dropsExhaustedRetries("4.0.0")).isFalse();
    assertThat(ConnectFailures.dropsExhaustedRetries("4.4.0-SNAPSHOT")).isFalse();
    assertThat(ConnectFailures.dropsExhaustedRetries("10.1.0")).isFalse();
    assertThat(ConnectFailures.dropsExhaustedRetries("3")).isTrue();
    // Confluent Platform numbers its own: 7.x ships Kafka 3.x, 8.0 Kafka 4.0.
    assertThat(ConnectFailures.dropsExhaustedRetries("7.7.1-ccs")).isTrue();
    assertThat(ConnectFailures.dropsExhaustedRetries("7.9.0-ce")).isTrue();
    assertThat(ConnectFailures.dropsExhaustedRetries("8.0.0-ccs")).isFalse();
    assertThat(ConnectFailures.dropsExhaustedRetries("unknown")).isTrue();
    assertThat(ConnectFailures.dropsExhaustedRetries("")).isTrue();
  }

  @Test
  void retriable_onARuntimeThatDrops_failsTheTaskSayingWhy_elseStaysRetriable() {
    IllegalStateException cause = new IllegalStateException("registry unreachable");

    assertThatThrownBy(() -> new ConnectFailures("AvroConverter (value side)", "schema.registry.url", true)
        .retriable("the registry cannot be reached", cause))
        .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
        .isInstanceOf(Error.class)
        .hasMessage("the registry cannot be reached (thrown as an Error, which fails the task: this Connect worker, "
            + "on Kafka " + ConnectFailures.RUNTIME + ", would drop the record once errors.retry.timeout has passed, "
            + "even with errors.tolerance=none, KAFKA-18073, fixed in Kafka 4.0; restart the task once the registry "
            + "answers)")
        .hasCause(cause);
    assertThat(new ConnectFailures("AvroConverter (value side)", "schema.registry.url", false)
        .retriable("the registry cannot be reached", cause))
        .isExactlyInstanceOf(RetriableException.class).hasMessage("the registry cannot be reached").hasCause(cause);
  }

  /** A URL that never answered as a registry, on a runtime that drops: the task fails, saying to fix the URL. */
  @Test
  void wrongUrl_onARuntimeThatDrops_failsTheTaskSayingFixTheUrl() {
    ConnectFailures failures = new ConnectFailures("AvroConverter (value side)", "schema.registry.url", true);

    assertThatThrownBy(() -> failures.of("cannot serialize", new io.kavro.serde.RegistryUrlException("no registry",
        null)))
        .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
        .hasMessageStartingWith("schema.registry.url (see below) answered a 404 that is no registry's own and has "
            + "never answered as a schema registry: fix schema.registry.url; the task fails. The failure: "
            + "cannot serialize (thrown as an Error")
        .hasMessageEndingWith("fixed in Kafka 4.0; fix schema.registry.url, then restart the task)")
        .hasMessageNotContaining("retries while");
  }

  /** The converter on this build's Kafka, 4.x, read as such: an unreachable registry is retriable, as before. */
  @Test
  void converter_registryUnreachable_onThisBuildsKafka4_retriable() {
    assertThat(ConnectFailures.RUNTIME).startsWith("4.");
    try (AvroConverter converter = new AvroConverter()) {
      converter.configure(Map.of("schema.registry.url", "http://127.0.0.1:1", "max.retries", 0), false);

      assertThatThrownBy(() -> converter.fromConnectData("orders", Schema.STRING_SCHEMA, "x"))
          .isExactlyInstanceOf(RetriableException.class);
      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1, 2}))
          .isExactlyInstanceOf(RetriableException.class);
    }
  }
}
