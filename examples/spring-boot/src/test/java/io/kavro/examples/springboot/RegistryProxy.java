package io.kavro.examples.springboot;

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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A proxy in front of the test's registry, on 127.0.0.1, that can be switched off: while it is, it answers every
 * request 503, as a load balancer does whose registry is down. It counts what it refused.
 */
final class RegistryProxy implements AutoCloseable {
  private final HttpServer server;
  private final HttpClient client = HttpClient.newHttpClient();
  private final String target;
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicBoolean denying = new AtomicBoolean();
  private final AtomicInteger refused = new AtomicInteger();

  private RegistryProxy(String target) throws IOException {
    this.target = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  static RegistryProxy to(String registryUrl) {
    try {
      return new RegistryProxy(registryUrl);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the registry proxy", e);
    }
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  void down() {
    down.set(true);
  }

  void up() {
    down.set(false);
  }

  /** From now on it answers every request 401, as a registry does to an expired credential. */
  void deny() {
    denying.set(true);
  }

  /** How many requests it answered 503. */
  int refused() {
    return refused.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (down.get()) {
        refused.incrementAndGet();
        reply(exchange, 503, "text/plain", "Service Unavailable".getBytes());
        return;
      }
      if (denying.get()) {
        reply(exchange, 401, "application/json", "{\"error_code\":401,\"message\":\"Unauthorized\"}".getBytes());
        return;
      }
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
          .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      if (contentType != null) {
        request.header("Content-Type", contentType);
      }
      HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      reply(exchange, response.statusCode(),
          response.headers().firstValue("Content-Type").orElse("application/json"), response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void reply(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
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
