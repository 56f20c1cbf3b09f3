package io.kavro.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 49, item 15: the consumer example's error handling loses no record when the registry is down. A record that
 * fails with a retriable cause is read again, not skipped as a bad record would be.
 */
@ExtendWith(KavroStackExtension.class)
class ConsumerAppOutageTest {
  private static final int RECORDS = 200;
  private static final int UNAVAILABLE_ANSWERS = 3;

  private final TestStack stack;

  ConsumerAppOutageTest(TestStack stack) {
    this.stack = stack;
  }

  @Test
  void consume_registryOutage_readsEveryRecordOnceTheRegistryIsBack() throws Exception {
    String topic = "kavro-example-outage-" + Long.toString(System.nanoTime(), 36);
    ProducerApp.produce(new Endpoints(stack.bootstrapServers(), stack.registryUrl()), topic, RECORDS);

    try (OutageProxy registry = new OutageProxy(stack.registryUrl(), UNAVAILABLE_ANSWERS)) {
      List<ConsumerRecord<String, GenericRecord>> read = ConsumerApp.consume(
          new Endpoints(stack.bootstrapServers(), registry.url()), topic, RECORDS, Duration.ofSeconds(60),
          Map.of("max.retries", "0"), Duration.ofMillis(50));

      // The outage really met the consumer: every 503 was answered to it.
      assertThat(registry.unavailableAnswered()).isEqualTo(UNAVAILABLE_ANSWERS);
      Set<String> keys = read.stream().map(ConsumerRecord::key).collect(Collectors.toSet());
      assertThat(keys).hasSize(RECORDS);
      assertThat(read).hasSize(RECORDS);
      assertThat(read.get(0).value().get("name")).hasToString("user-0");
    }
  }

  /**
   * A registry that refuses the consumer's credentials (401) fails every record alike: the consumer stops on the
   * first, skipping none (docs/errors.md: a configuration error is not poison).
   */
  @Test
  void consume_credentialsRefused_stopsOnTheFirstRecord_skipsNone() throws Exception {
    String topic = "kavro-example-refused-" + Long.toString(System.nanoTime(), 36);
    ProducerApp.produce(new Endpoints(stack.bootstrapServers(), stack.registryUrl()), topic, 3);
    AtomicInteger refused = new AtomicInteger();
    HttpServer registry = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    registry.createContext("/", exchange -> {
      refused.incrementAndGet();
      byte[] body = "{\"error_code\":40101,\"message\":\"Unauthorized\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
      exchange.sendResponseHeaders(401, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    registry.start();
    try {
      Endpoints refusing = new Endpoints(stack.bootstrapServers(),
          "http://127.0.0.1:" + registry.getAddress().getPort());
      assertThatThrownBy(() -> ConsumerApp.consume(refusing, topic, 3, Duration.ofSeconds(20),
          Map.of("max.retries", "0"), Duration.ofMillis(50)))
          .isInstanceOf(RecordDeserializationException.class)
          .satisfies(e -> assertThat(((RecordDeserializationException) e).offset()).isZero())
          .satisfies(e -> assertThat(ConsumerApp.configurationError(e)).isTrue());
      assertThat(refused).as("the registry was asked").hasPositiveValue();
    } finally {
      registry.stop(0);
    }
  }

  /**
   * An HTTP forwarder on 127.0.0.1 in front of the registry that answers its first requests with 503, as a registry
   * restarting behind a load balancer does, then passes every request through.
   */
  private static final class OutageProxy implements AutoCloseable {
    private final HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();
    private final URI target;
    private final AtomicInteger unavailableLeft;
    private final AtomicInteger unavailableAnswered = new AtomicInteger();

    OutageProxy(String targetUrl, int unavailable) throws IOException {
      this.target = URI.create(targetUrl.endsWith("/") ? targetUrl : targetUrl + "/");
      this.unavailableLeft = new AtomicInteger(unavailable);
      this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/", this::handle);
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    int unavailableAnswered() {
      return unavailableAnswered.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
      try (exchange) {
        if (unavailableLeft.getAndDecrement() > 0) {
          unavailableAnswered.incrementAndGet();
          answer(exchange, 503, "text/plain", "registry restarting".getBytes(StandardCharsets.UTF_8));
          return;
        }
        String path = exchange.getRequestURI().getRawPath().substring(1);
        String query = exchange.getRequestURI().getRawQuery();
        HttpRequest.Builder forward = HttpRequest.newBuilder(target.resolve(path + (query == null ? "" : "?" + query)))
            .method(exchange.getRequestMethod(),
                HttpRequest.BodyPublishers.ofByteArray(exchange.getRequestBody().readAllBytes()));
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null) {
          forward.header("Content-Type", contentType);
        }
        HttpResponse<byte[]> response = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
        answer(exchange, response.statusCode(),
            response.headers().firstValue("Content-Type").orElse("application/json"), response.body());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private static void answer(HttpExchange exchange, int status, String contentType, byte[] body)
        throws IOException {
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
