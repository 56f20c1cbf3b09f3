package io.kavro.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLServerSocketFactory;

/**
 * A TCP proxy on 127.0.0.1 between clients and a real server, for fault injection. It can pass traffic
 * through (optionally with added latency), refuse connections, or black-hole them (accept, never answer).
 * Changing the mode drops the connections already open, as a network failure would. With a TLS server
 * socket factory it also terminates TLS in front of a plain server.
 */
final class FaultyProxy implements AutoCloseable {
  /** What the proxy does with traffic. */
  enum Mode {
    PASS, REFUSE, BLACK_HOLE
  }

  private final InetSocketAddress target;
  private final SSLServerSocketFactory tls;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "faulty-proxy");
    t.setDaemon(true);
    return t;
  });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong connections = new AtomicLong();
  private final int port;
  private volatile ServerSocket server;
  private final boolean needClientAuth;
  private volatile Mode mode = Mode.PASS;
  private volatile long latencyMillis;

  FaultyProxy(String host, int port) throws IOException {
    this(host, port, null);
  }

  FaultyProxy(String host, int port, SSLServerSocketFactory tls) throws IOException {
    this(host, port, tls, false);
  }

  /** TLS-terminating; with {@code needClientAuth}, only clients with a trusted certificate get through. */
  FaultyProxy(String host, int port, SSLServerSocketFactory tls, boolean needClientAuth) throws IOException {
    this.target = new InetSocketAddress(host, port);
    this.tls = tls;
    this.needClientAuth = needClientAuth;
    this.server = listen(0);
    this.port = server.getLocalPort();
    threads.submit(this::acceptLoop);
  }

  int port() {
    return port;
  }

  long connections() {
    return connections.get();
  }

  /** Switches the mode, dropping every open connection. */
  synchronized void mode(Mode next) throws IOException {
    if (next == mode) {
      return;
    }
    if (next == Mode.REFUSE) {
      server.close();
    } else if (mode == Mode.REFUSE) {
      server = listenAgain();
      threads.submit(this::acceptLoop);
    }
    mode = next;
    dropAll();
  }

  /** Delays every chunk forwarded in either direction. */
  void latency(long millis) {
    latencyMillis = millis;
  }

  /**
   * Listens on this proxy's port again, after {@link Mode#REFUSE}: while it was closed, a connection of this machine
   * may have been given the same port as its local one for a moment; tried again for up to 10 s.
   */
  private ServerSocket listenAgain() throws IOException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        return listen(port);
      } catch (java.net.BindException e) {
        if (System.nanoTime() > deadline) {
          throw new IOException("port " + port + " of the proxy stayed taken for 10 s after REFUSE", e);
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while listening on port " + port + " again");
        }
      }
    }
  }

  private ServerSocket listen(int at) throws IOException {
    ServerSocket socket = tls != null ? tls.createServerSocket() : new ServerSocket();
    if (needClientAuth) {
      ((javax.net.ssl.SSLServerSocket) socket).setNeedClientAuth(true);
    }
    try {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), at), 50);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  private void acceptLoop() {
    ServerSocket listening = server;
    while (!listening.isClosed()) {
      try {
        Socket client = listening.accept();
        connections.incrementAndGet();
        open.add(client);
        if (mode == Mode.BLACK_HOLE) {
          continue; // keep it open and never answer
        }
        Socket upstream = new Socket();
        upstream.connect(target, 5000);
        open.add(upstream);
        threads.submit(() -> pump(client, upstream));
        threads.submit(() -> pump(upstream, client));
      } catch (IOException e) {
        // listener closed, or the target is down: the client sees its connection close
      }
    }
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        long delay = latencyMillis;
        if (delay > 0) {
          Thread.sleep(delay);
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // one side closed
    } finally {
      close(from);
      close(to);
    }
  }

  private void dropAll() {
    open.forEach(FaultyProxy::close);
    open.clear();
  }

  private static void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // already closed
    }
    dropAll();
    threads.shutdownNow();
  }

  /** The host and port of a URL such as the registry's. */
  static FaultyProxy in(String url) throws IOException {
    java.net.URI uri = java.net.URI.create(url);
    return new FaultyProxy(uri.getHost(), uri.getPort());
  }

  /** {@code url} with its host and port replaced by this proxy's. */
  String via(String url) {
    java.net.URI uri = java.net.URI.create(url);
    return (tls != null ? "https" : uri.getScheme()) + "://127.0.0.1:" + port + uri.getRawPath();
  }
}
