package io.kavro.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.OAuthTokenRefusedException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.serde.MalformedPayloadException;
import io.kavro.serde.RegistryUrlException;
import io.kavro.serde.RetriableSerdeException;
import io.kavro.serde.UnknownSchemaIdException;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.serializer.DeserializationException;

/**
 * What {@link KafkaErrorHandling}'s handler does with each of Kavro's failures, as a listener container hands it
 * over: a {@link DeserializationException} with Kavro's exception inside, inside Spring's listener exception.
 */
class KafkaErrorHandlingTest {
  private final List<Throwable> deadLettered = new ArrayList<>();
  private final List<Exception> stopped = new ArrayList<>();
  private final CommonErrorHandler stopping = new CommonErrorHandler() {
    @Override
    public boolean seeksAfterHandling() {
      return true;
    }

    @Override
    public void handleRemaining(Exception thrown, List<ConsumerRecord<?, ?>> records, Consumer<?, ?> consumer,
        MessageListenerContainer container) {
      stopped.add(thrown);
    }
  };
  private final CommonErrorHandler handler =
      KafkaErrorHandling.errorHandler((record, e) -> deadLettered.add(e), Duration.ofMillis(1), Duration.ofMillis(3),
          stopping); // a wrong URL: three attempts

  @Test
  void aWrongRegistryUrl_isReadAgainForItsPatience_thenStopsTheContainer_neverDeadLetters() {
    for (int attempt = 1; attempt < 3; attempt++) {
      assertThatThrownBy(() -> handle(wrongUrl()))
          .as("attempt %d: an ingress may answer 404 while the registry behind it rolls out", attempt)
          .hasMessageContaining("Record in retry");
      assertThat(stopped).isEmpty();
    }
    handle(wrongUrl());

    assertThat(stopped).as("the third attempt in a row").hasSize(1);
    assertThat(deadLettered).isEmpty();
  }

  @Test
  void aWrongRegistryUrl_countsTheAttemptsOfOneRecord() {
    assertThatThrownBy(() -> handle(wrongUrl(), 5L)).hasMessageContaining("Record in retry");
    assertThatThrownBy(() -> handle(wrongUrl(), 6L)).as("another record: its first attempt")
        .hasMessageContaining("Record in retry");
    assertThatThrownBy(() -> handle(wrongUrl(), 6L)).hasMessageContaining("Record in retry");
    handle(wrongUrl(), 6L);

    assertThat(stopped).hasSize(1);
  }

  private static RegistryUrlException wrongUrl() {
    return new RegistryUrlException("cannot deserialize value of topic 'orders': schema.registry.url does not "
        + "lead to a schema registry's API", new WrongRegistryUrlException("HTTP 404", 404, -1,
            "http://registry:8080/subjects", null));
  }

  @Test
  void refusedCredentials_stopTheContainer_neverDeadLetter() {
    // as Kavro's deserializer reports a 401: a plain SerializationException with the registry's cause
    handle(new SerializationException("cannot deserialize value of topic 'orders' (schema id 1, 9 bytes): HTTP 401",
        new RegistryAccessDeniedException("HTTP 401: Unauthorized", 401, 40101, "http://registry:8081", null)));

    assertThat(stopped).hasSize(1);
    assertThat(deadLettered).isEmpty();
  }

  @Test
  void aContractTheDeploymentCannotRun_stopsTheContainer_neverDeadLetters() {
    // as Kavro's deserializer reports a rule whose KMS driver is missing: the record reads once the jar is added
    handle(new SerializationException("Rule failed: encryptPii (rule 'encryptPii' (ENCRYPT, TRANSFORM, WRITEREAD) "
        + "of subject 'orders-value', READ)", new RuleException("rule 'encryptPii' cannot "
        + "decrypt field 'ssn'", new RuleDeploymentException("no KMS driver for KMS type 'aws-kms'"))));

    assertThat(stopped).hasSize(1);
    assertThat(deadLettered).isEmpty();
  }

  @Test
  void anOAuthIssuerThatGivesNoToken_stopsTheContainer() {
    // the issuer refused the client credentials (RFC 6749: 400 invalid_client): wrong for every record
    handle(new SerializationException("cannot deserialize value of topic 'orders' (schema id 1, 9 bytes)",
        new OAuthTokenRefusedException("the OAuth issuer http://issuer/token refused the client credentials of "
            + "client id 'orders' with HTTP 400: invalid_client", 400, -1, "http://issuer/token", null)));

    assertThat(stopped).hasSize(1);
    assertThat(deadLettered).isEmpty();
  }

  /** An issuer's 403 (a client not granted the audience) is no registry's refusal of one record: it stops too. */
  @Test
  void anOAuthIssuersForbidden_stopsTheContainer_neverDeadLetters() {
    handle(new SerializationException("cannot deserialize value of topic 'orders' (schema id 1, 9 bytes)",
        new OAuthTokenRefusedException("the OAuth issuer http://issuer/token refused the client credentials of "
            + "client id 'orders' with HTTP 403: access_denied", 403, -1, "http://issuer/token", null)));

    assertThat(stopped).hasSize(1);
    assertThat(deadLettered).isEmpty();
  }

  @Test
  void aSchemaIdRefusedWith403_isDeadLettered_theContainerRuns() {
    // Confluent RBAC: the credentials are good, READ on this record's subject is not granted
    handle(new SerializationException("cannot deserialize value of topic 'orders' (schema id 9, 9 bytes): HTTP 403",
        new RegistryAccessDeniedException("get schema by id 9 failed: HTTP 403, error_code 40301: User is denied "
            + "operation Read on Subject: secret-value", 403, 40301, "http://registry:8081/schemas/ids/9", null)));
    handle(new MalformedPayloadException("cannot deserialize value of topic 'orders' (8 bytes): magic byte 0x41", null));

    assertThat(deadLettered).as("the refused record, then the next poison one: the container still runs")
        .hasSize(2);
    assertThat(deadLettered.get(0)).hasRootCauseInstanceOf(RegistryAccessDeniedException.class);
    assertThat(stopped).isEmpty();
  }

  @Test
  void aKekRefusedWith403_isDeadLettered_notStopped() {
    // the DEK registry refuses one KEK of an encrypted field: a rule's failure, the registry's refusal inside
    handle(new SerializationException("cannot deserialize value of topic 'orders' (schema id 3, 40 bytes): rule "
        + "'encrypt' failed", new RuleException("ENCRYPT failed on field 'Order.card': "
            + RegistryAccessDeniedException.class.getName(), new RegistryAccessDeniedException(
                "get DEK failed: HTTP 403 (http://registry:8081/dek-registry/v1/keks/payments/deks/orders-value)",
                403, -1, "http://registry:8081/dek-registry/v1/keks/payments/deks/orders-value", null))));

    assertThat(deadLettered).hasSize(1);
    assertThat(stopped).isEmpty();
  }

  @Test
  void poisonRecords_areDeadLettered_theContainerRuns() {
    handle(new MalformedPayloadException("cannot deserialize value of topic 'orders' (8 bytes): magic byte 0x41", null));
    handle(new UnknownSchemaIdException("cannot deserialize value of topic 'orders' (schema id 7, 9 bytes)", null));

    assertThat(deadLettered).hasSize(2);
    assertThat(stopped).isEmpty();
  }

  @Test
  void aRegistryOutage_isRetried_neitherDeadLetteredNorStopped() {
    assertThatThrownBy(() -> handle(new RetriableSerdeException(
        "cannot deserialize value of topic 'orders': schema registry unavailable",
        new RegistryUnavailableException("connection refused", -1, -1, "http://registry:8081", null))))
        .as("Spring's signal that it sought back to the record, to read it again")
        .hasMessageContaining("Record in retry");

    assertThat(deadLettered).isEmpty();
    assertThat(stopped).isEmpty();
  }

  private void handle(RuntimeException kavros) {
    handle(kavros, 5L);
  }

  private void handle(RuntimeException kavros, long offset) {
    ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 0, offset, null, new byte[] {1});
    DeserializationException deserialization =
        new DeserializationException("failed to deserialize", new byte[] {1}, false, kavros);
    MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    consumer.assign(List.of(new TopicPartition("orders", 0)));
    handler.handleRemaining(new ListenerExecutionFailedException("Listener failed", deserialization),
        List.of(record), consumer, container());
  }

  private static MessageListenerContainer container() {
    return (MessageListenerContainer) Proxy.newProxyInstance(KafkaErrorHandlingTest.class.getClassLoader(),
        new Class<?>[] {MessageListenerContainer.class}, (proxy, method, args) -> {
          Class<?> type = method.getReturnType();
          if (type == boolean.class) {
            return false;
          }
          if (type == int.class || type == long.class) {
            return 0;
          }
          return method.getName().equals("getListenerId") || method.getName().equals("getGroupId") ? "orders" : null;
        });
  }
}
