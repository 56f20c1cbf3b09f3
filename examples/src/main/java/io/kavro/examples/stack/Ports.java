package io.kavro.examples.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on the loopback address. */
public final class Ports {
  private Ports() {}

  /** A port that was free on 127.0.0.1 a moment ago. */
  public static int free() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
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
}
