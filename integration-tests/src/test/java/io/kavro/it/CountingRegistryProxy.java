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

/** An HTTP proxy on 127.0.0.1 in front of the registry that counts the requests passing through. */
final class CountingRegistryProxy implements AutoCloseable {
  private final HttpServer server;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final AtomicLong requests = new AtomicLong();
  private final String target;
  private final String basePath;

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

  private void forward(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
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
      exchange.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(502, -1);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
