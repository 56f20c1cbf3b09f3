package io.kavro.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy on 127.0.0.1 in front of the registry that counts the requests passing through, and can rewrite
 * the registry's answers (to give them what another registry would add, such as Confluent's rule sets), or fail
 * the requests of some paths itself (an HTTP status, or a connection dropped without an answer).
 */
final class CountingRegistryProxy implements AutoCloseable {
  private final HttpServer server;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final AtomicLong requests = new AtomicLong();
  private final String target;
  private final String basePath;
  private volatile java.util.function.BiFunction<String, String, String> answers = (path, body) -> body;
  private volatile String failedPrefix;
  private volatile int failedStatus;

  /** Forwards {@code http://127.0.0.1:<port>/<path>} to the registry URL's host and the same path. */
  CountingRegistryProxy(String registryUrl) throws IOException {
    URI uri = URI.create(registryUrl);
    this.target = uri.getScheme() + "://" + uri.getAuthority();
    this.basePath = uri.getPath();
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::forward);
    server.start();
  }

  /** The registry URL to give Kavro. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + basePath;
  }

  long requests() {
    return requests.get();
  }

  /** From now on, each answer's body is {@code rewrite(request path, body)}. */
  void rewriteAnswers(java.util.function.BiFunction<String, String, String> rewrite) {
    this.answers = rewrite;
  }

  /**
   * From now on, a request whose path starts with {@code pathPrefix} is not forwarded: it gets {@code status}
   * (with a registry error body), or, when {@code status} is 0, its connection is closed without an answer.
   * {@code null} forwards everything again.
   */
  void failPaths(String pathPrefix, int status) {
    this.failedStatus = status;
    this.failedPrefix = pathPrefix;
  }

  private void forward(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    String failed = failedPrefix;
    if (failed != null && exchange.getRequestURI().getPath().startsWith(failed)) {
      fail(exchange, failedStatus);
      return;
    }
    try (exchange; InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readAllBytes();
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
          .timeout(Duration.ofSeconds(30))
          .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      if (contentType != null) {
        request.header("Content-Type", contentType);
      }
      HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      response.headers().firstValue("Content-Type").ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
      byte[] answer = answers.apply(exchange.getRequestURI().getPath(),
          new String(response.body(), java.nio.charset.StandardCharsets.UTF_8))
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(502, -1);
    }
  }

  private static void fail(HttpExchange exchange, int status) throws IOException {
    try (exchange; InputStream in = exchange.getRequestBody()) {
      in.readAllBytes();
      if (status == 0) {
        return; // no answer: closing the exchange before its headers drops the connection
      }
      byte[] answer = ("{\"error_code\":" + status + "01,\"message\":\"injected by the test\"}")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
