package io.kavro.registry;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy for tests, on 127.0.0.1, that does what a corporate proxy does for HTTPS: it answers
 * {@code CONNECT host:port} with {@code 200} and then tunnels bytes both ways, so the TLS handshake is the client's
 * with the server behind it. Every tunnel goes to one address ({@link #routingTo}), whatever host the client names:
 * a test names a host no resolver knows (an SDK's real endpoint, {@code *.invalid}), so only a client that goes
 * through the proxy reaches the server. {@link #tunnels()} lists the {@code host:port} each client asked for.
 * Anything but {@code CONNECT} (a plain-HTTP proxy request) is answered {@code 501} and listed as its request line.
 * Shared with the KMS drivers' tests through the test-jar. Thread-safe.
 */
public final class TunnelProxy implements AutoCloseable {
  private static final int MAX_HEAD = 16 * 1024;

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final List<String> tunnels = new CopyOnWriteArrayList<>();
  private final Set<Closeable> open = ConcurrentHashMap.newKeySet();

  private TunnelProxy(InetSocketAddress target) throws IOException {
    this.target = target;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::acceptLoop, "tunnel-proxy-" + server.getLocalPort());
    accept.setDaemon(true);
    accept.start();
  }

  /** A proxy that tunnels every {@code CONNECT} to {@code target}. */
  public static TunnelProxy routingTo(InetSocketAddress target) throws IOException {
    return new TunnelProxy(target);
  }

  /** The proxy's host, for {@code https.proxyHost}. */
  public String host() {
    return server.getInetAddress().getHostAddress();
  }

  /** The proxy's port, for {@code https.proxyPort}. */
  public int port() {
    return server.getLocalPort();
  }

  /** The {@code host:port} of every {@code CONNECT} so far (or the request line of anything else), oldest first. */
  public List<String> tunnels() {
    return List.copyOf(tunnels);
  }

  @Override
  public void close() {
    closeQuietly(server);
    open.forEach(TunnelProxy::closeQuietly);
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        open.add(client);
        daemon("tunnel-proxy-client", () -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    try {
      InputStream in = client.getInputStream();
      String head = readHead(in);
      String requestLine = head.substring(0, Math.max(0, head.indexOf("\r\n")));
      String[] parts = requestLine.split(" ");
      if (parts.length != 3 || !parts[0].equals("CONNECT")) {
        tunnels.add(requestLine);
        client.getOutputStream().write("HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1));
        return;
      }
      tunnels.add(parts[1]);
      Socket upstream = new Socket(target.getAddress(), target.getPort());
      open.add(upstream);
      client.getOutputStream().write("HTTP/1.1 200 Connection established\r\n\r\n"
          .getBytes(StandardCharsets.ISO_8859_1));
      client.getOutputStream().flush();
      daemon("tunnel-proxy-up", () -> pump(in, upstream));
      pump(upstream.getInputStream(), client);
      closeQuietly(upstream); // the server is done: so is the tunnel
    } catch (IOException e) {
      // the client or the server went away: the tunnel ends
    } finally {
      closeQuietly(client);
      open.remove(client);
    }
  }

  /** Copies until end of stream, then half-closes {@code to}, so each side sees the other's end. */
  private static void pump(InputStream from, Socket to) {
    byte[] buffer = new byte[8192];
    try {
      OutputStream out = to.getOutputStream();
      for (int n; (n = from.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      closeQuietly(to);
    }
  }

  /** The request's head, up to the blank line, read byte by byte so no tunnelled byte is consumed. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0 || head.size() > MAX_HEAD) {
        throw new IOException("no complete request head");
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  private static void daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
