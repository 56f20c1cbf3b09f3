package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.framing.FramingResolver;
import io.kavro.serde.rules.RuleException;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A class that fails to link on the way (a framing resolver's library missing from the worker's plugin path) is the
 * deployment's fault, which every record meets alike: a {@link LinkageError}, which Connect's error handling does
 * not catch (it catches exceptions), so that the task fails whatever {@code errors.tolerance} says instead of
 * skipping records past a missing jar (a {@code RetriableException} is dropped past {@code errors.retry.timeout}
 * even with {@code errors.tolerance=none} on Connect 3.x, KAFKA-18073). Its message says plainly to fix the
 * deployment; logged at ERROR once. What the resolver throws for one record alone stays that record's
 * {@link DataException}.
 */
class ConnectDeploymentFaultTest {
  private static final String MISSING = "com/acme/registry/RegistryClient";
  private final String url = "mock://deployment-fault-" + UUID.randomUUID();

  /** A resolver whose registry client's library is missing at run time: every payload of its framing meets it. */
  public static final class MissingLibraryResolver implements FramingResolver {
    @Override
    public Framed locate(String topic, Headers headers, byte[] payload, int offset, int length) {
      return switch (payload[offset]) {
        case 5 -> throw new NoClassDefFoundError(MISSING);
        case 8 -> throw new IllegalStateException("no prefix of byte 8");
        case 9 -> throw new org.apache.kafka.common.errors.TimeoutException("the resolver's registry timed out");
        default -> null;
      };
    }

    @Override
    public Schema writerSchema(Object key) {
      throw new UnsupportedOperationException("never asked: locate frames nothing");
    }
  }

  @AfterEach
  void drop() {
    MockRegistries.drop(url.substring("mock://".length()));
  }

  @Test
  void converter_classThatFailsToLink_anErrorSayingFixTheDeployment_loggedOnce_recordsFaultStaysData() {
    try (LogCapture logs = new LogCapture(); AvroConverter converter = new AvroConverter()) {
      converter.configure(Map.of("schema.registry.url", url, "value.framing.resolver",
          MissingLibraryResolver.class.getName()), false);

      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {5, 1, 2}))
            .isExactlyInstanceOf(LinkageError.class)
            .hasMessageStartingWith("a class failed to link or initialize (java.lang.NoClassDefFoundError: "
                + MISSING + "): the deployment's fault, not the record's (a library missing from the worker's "
                + "plugin path or of another version, or a class whose initializer failed): fix the deployment "
                + "and restart the worker. Thrown as an Error, which fails the task whatever errors.tolerance says, "
                + "so that no record is skipped past it. The failure: ")
            .hasMessageContaining("value of topic 'orders'")
            .hasMessageContaining(MissingLibraryResolver.class.getName())
            .hasRootCauseInstanceOf(NoClassDefFoundError.class);
      }
      assertThat(logs.lines(Level.ERROR)).as("once, not once a record").singleElement().asString()
          .contains("AvroConverter (value side)", "a deployment fault", MISSING);

      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {8, 1, 2}))
          .isInstanceOf(DataException.class)
          .isNotInstanceOf(RetriableException.class)
          .hasMessageContaining("no prefix of byte 8");
      // A plug-in's own Kafka RetriableException is Connect's on this build's Kafka (4.x): retried, never tolerated.
      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {9, 1, 2}))
          .isExactlyInstanceOf(RetriableException.class)
          .hasMessageContaining("the resolver's registry timed out");
      SchemaAndValue tombstone = converter.toConnectData("orders", null);
      assertThat(tombstone).isEqualTo(SchemaAndValue.NULL);
    }
  }

  /**
   * On a route with rules, the serde hides the messages of a failure's causes behind stand-ins; a
   * {@code LinkageError}'s stand-in is one too, so the deployment fault is found there as well.
   */
  @Test
  void failures_aLinkageErrorsStandInOnARuledRoute_isADeploymentFaultToo() {
    ConnectFailures failures = new ConnectFailures("AvroConverter (value side)", "schema.registry.url");
    SerializationException hidden = new SerializationException("cannot deserialize value of topic 'orders'",
        RuleException.withoutMessages(new NoClassDefFoundError(MISSING)));
    SerializationException recordsOwn = new SerializationException("cannot deserialize value of topic 'orders'",
        RuleException.withoutMessages(new IllegalStateException("not a prefix")));

    assertThatThrownBy(() -> failures.of("the failure", hidden)).isExactlyInstanceOf(LinkageError.class)
        .hasMessageStartingWith("a class failed to link or initialize (java.lang.LinkageError: "
            + "java.lang.NoClassDefFoundError (its message is left out: it may quote field values)): ")
        .hasMessageEndingWith("The failure: the failure");
    assertThat(failures.of("the failure", recordsOwn)).isExactlyInstanceOf(DataException.class);
  }
}
