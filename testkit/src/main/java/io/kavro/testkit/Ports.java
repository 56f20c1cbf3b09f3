package io.kavro.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/** Free ports on the loopback address. */
public final class Ports {
  /** How many times {@link #startOnFreePort} tries a new port after finding the last one taken. */
  static final int ATTEMPTS = 3;
  private static final int PROBES = 100;
  private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

  private Ports() {}

  /**
   * A port that was free on 127.0.0.1 a moment ago and that this method has not returned before in this JVM.
   * The kernel may hand the same ephemeral port to two probes in a row once the first socket is closed; two
   * servers started side by side (a broker's two listeners, the registry) must not both be given it.
   */
  public static int free() {
    for (int probe = 0; probe < PROBES; probe++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        if (handedOut.add(port)) {
          return port;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("no free port on 127.0.0.1", e);
      }
    }
    throw new IllegalStateException("no port on 127.0.0.1 that was not already handed out, after "
        + PROBES + " probes");
  }

  /**
   * Checks that a port can be bound on 127.0.0.1.
   *
   * @throws IllegalStateException naming the port and what wanted it, if it is taken
   */
  public static void requireFree(int port, String what) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("port " + port + " on 127.0.0.1, wanted for " + what
          + ", is already in use: stop what holds it or choose another port", e);
    }
  }

  /**
   * Starts a server on {@code port}, or, when {@code port} is 0, on a {@link #free()} port, trying another one
   * (up to {@value #ATTEMPTS} in all) if something else took the port between the probe and the server's bind.
   * A port the caller chose is tried once: a taken one fails with a message naming it.
   *
   * @param start starts the server on the given port; a failure caused by a {@link BindException} means the
   *     port was taken
   */
  public static <T> T startOnFreePort(int port, String what, IntFunction<T> start) {
    if (port != 0) {
      requireFree(port, what);
      return start.apply(port);
    }
    for (int attempt = 1; ; attempt++) {
      try {
        return start.apply(free());
      } catch (RuntimeException e) {
        if (attempt == ATTEMPTS || !portTaken(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean portTaken(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException) {
        return true;
      }
    }
    return false;
  }
}
