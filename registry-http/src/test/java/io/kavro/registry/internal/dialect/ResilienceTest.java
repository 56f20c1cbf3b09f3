package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.config.RegistryConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Retries, backoff, failover, timeouts and interrupts of the transport. */
class ResilienceTest {
  private static final String SCHEMA = "{\"schema\":\"\\\"string\\\"\"}";

  @StartStop
  final MockWebServer first = new MockWebServer();

  @StartStop
  final MockWebServer second = new MockWebServer();

  private static HttpSchemaRegistryClient client(String urls, Map<String, Object> extra) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", urls);
    config.put("retries.wait.ms", 1);
    config.put("retries.max.wait.ms", 5);
    config.putAll(extra);
    return new HttpSchemaRegistryClient(RegistryConfig.from(config));
  }

  private HttpSchemaRegistryClient client(Map<String, Object> extra) {
    return client(first.url("/").toString(), extra);
  }

  private static MockResponse status(int code) {
    return new MockResponse.Builder().code(code).body("{\"error_code\":" + code + ",\"message\":\"busy\"}").build();
  }

  private static MockResponse ok() {
    return new MockResponse.Builder().body(SCHEMA).build();
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 429, 500, 502, 503, 504})
  void retriableStatus_retriedThenSucceeds(int code) {
    first.enqueue(status(code));
    first.enqueue(status(code));
    first.enqueue(ok());
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 3));

    assertThat(client.schemaById(1).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(first.getRequestCount()).isEqualTo(3);
    assertThat(client.stats().requests()).isEqualTo(3);
    assertThat(client.stats().retries()).isEqualTo(2);
  }

  @Test
  void retriableStatus_exhausted_unavailableWithLastStatus() {
    for (int i = 0; i < 3; i++) {
      first.enqueue(status(503));
    }
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 2));

    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("gave up after 3 attempt(s)")
        .satisfies(e -> assertThat(((RegistryUnavailableException) e).status()).isEqualTo(503));
    assertThat(first.getRequestCount()).isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 409, 422})
  void otherClientErrors_notRetried(int code) {
    first.enqueue(status(code));
    first.enqueue(ok());
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 3));

    assertThatThrownBy(() -> client.schemaById(1)).isNotInstanceOf(RegistryUnavailableException.class);
    assertThat(first.getRequestCount()).isEqualTo(1);
    assertThat(client.stats().retries()).isZero();
  }

  @Test
  void ioError_retried() {
    first.enqueue(new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());
    first.enqueue(ok());
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 1));

    assertThat(client.schemaById(1)).isNotNull();
    assertThat(client.stats().retries()).isEqualTo(1);
  }

  @Test
  void connectionRefused_allUrls_unavailableNamingCause() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    HttpSchemaRegistryClient client = client("http://127.0.0.1:" + closedPort, Map.of("max.retries", 2));

    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("ConnectException")
        .hasMessageContaining("gave up after 3 attempt(s)");
  }

  @Test
  void failover_onServerError_movesToNextUrlAndStaysThere() {
    first.enqueue(status(500));
    second.enqueue(ok());
    second.enqueue(ok());
    HttpSchemaRegistryClient client = client(first.url("/") + "," + second.url("/"), Map.of("max.retries", 1));

    client.schemaById(1);
    client.schemaById(2);

    assertThat(first.getRequestCount()).isEqualTo(1);
    assertThat(second.getRequestCount()).isEqualTo(2);
    assertThat(client.stats().failovers()).isEqualTo(1);
  }

  @Test
  void failover_onIoError_triesUrlsInOrder() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    first.enqueue(ok());
    HttpSchemaRegistryClient client = client("http://127.0.0.1:" + closedPort + "," + first.url("/"),
        Map.of("max.retries", 1, "retries.wait.ms", 10_000, "retries.max.wait.ms", 10_000));

    long start = System.nanoTime();
    client.schemaById(1);

    // No backoff before trying an untried URL.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(client.stats().failovers()).isEqualTo(1);
  }

  @Test
  void failover_notOn429_retriesSameUrl() {
    first.enqueue(status(429));
    first.enqueue(ok());
    HttpSchemaRegistryClient client = client(first.url("/") + "," + second.url("/"), Map.of("max.retries", 1));

    client.schemaById(1);

    assertThat(first.getRequestCount()).isEqualTo(2);
    assertThat(second.getRequestCount()).isZero();
    assertThat(client.stats().failovers()).isZero();
  }

  @Test
  void readTimeout_boundsABlackHole() {
    first.enqueue(new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 0, "http.read.timeout.ms", 300));

    long start = System.nanoTime();
    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("SocketTimeoutException");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void backoff_waitsBetweenRounds() {
    first.enqueue(status(503));
    first.enqueue(status(503));
    first.enqueue(ok());
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 2, "retries.wait.ms", 100,
        "retries.max.wait.ms", 100));

    long start = System.nanoTime();
    client.schemaById(1);

    // Full jitter: each wait is random in [0, 100] ms, so only an upper bound holds for sure.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(first.getRequestCount()).isEqualTo(3);
  }

  @Test
  void interrupt_duringBackoff_stopsAndKeepsFlag() throws Exception {
    for (int i = 0; i < 5; i++) {
      first.enqueue(status(503));
    }
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 4, "retries.wait.ms", 60_000,
        "retries.max.wait.ms", 60_000));
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> flag = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        client.schemaById(1);
      } catch (Throwable t) {
        thrown.set(t);
      }
      flag.set(Thread.currentThread().isInterrupted());
    });
    caller.start();
    first.takeRequest(10, TimeUnit.SECONDS);
    // The first attempt failed; the caller now waits up to a minute before the next.
    caller.interrupt();
    caller.join(10_000);

    assertThat(caller.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(RegistryInterruptedException.class);
    assertThat(flag.get()).isTrue();
    assertThat(first.getRequestCount()).isLessThanOrEqualTo(2);
  }

  @Test
  void interrupt_beforeCall_noRequest() throws Exception {
    HttpSchemaRegistryClient client = client(Map.of());
    CompletableFuture<Throwable> result = CompletableFuture.supplyAsync(() -> {
      Thread.currentThread().interrupt();
      try {
        client.schemaById(1);
        return null;
      } catch (Throwable t) {
        return t;
      } finally {
        Thread.interrupted();
      }
    });

    assertThat(result.get(10, TimeUnit.SECONDS)).isInstanceOf(RegistryInterruptedException.class);
    assertThat(first.getRequestCount()).isZero();
  }

  @Test
  void notFound_afterFailover_isStillTyped() {
    first.enqueue(status(503));
    second.enqueue(new MockResponse.Builder().code(404).body("{\"error_code\":40403,\"message\":\"nope\"}").build());
    HttpSchemaRegistryClient client = client(first.url("/") + "," + second.url("/"), Map.of("max.retries", 3));

    assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaNotFoundException.class);
  }
}
