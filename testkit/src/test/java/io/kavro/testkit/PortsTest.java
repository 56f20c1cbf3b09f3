package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortsTest {

  @Test
  void free_neverHandsOutTheSamePortTwice() {
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      ports.add(Ports.free());
    }

    assertThat(new HashSet<>(ports)).hasSize(ports.size());
  }

  @Test
  void startOnFreePort_takenPort_triesAnotherOne() {
    List<Integer> tried = new ArrayList<>();

    String started = Ports.startOnFreePort(0, "a test server", port -> {
      tried.add(port);
      if (tried.size() == 1) {
        throw new IllegalStateException("did not start", new UncheckedIOException(new BindException("taken")));
      }
      return "on " + port;
    });

    assertThat(tried).hasSize(2).doesNotHaveDuplicates();
    assertThat(started).isEqualTo("on " + tried.get(1));
  }

  @Test
  void startOnFreePort_givesUpAfterThreeTakenPorts() {
    List<Integer> tried = new ArrayList<>();

    assertThatThrownBy(() -> Ports.startOnFreePort(0, "a test server", port -> {
      tried.add(port);
      throw new IllegalStateException("did not start", new BindException("taken"));
    })).hasRootCauseInstanceOf(BindException.class);
    assertThat(tried).hasSize(Ports.ATTEMPTS);
  }

  @Test
  void startOnFreePort_otherFailure_notRetried() {
    List<Integer> tried = new ArrayList<>();

    assertThatThrownBy(() -> Ports.startOnFreePort(0, "a test server", port -> {
      tried.add(port);
      throw new IllegalStateException("broken configuration");
    })).hasMessage("broken configuration");
    assertThat(tried).hasSize(1);
  }

  @Test
  void startOnFreePort_chosenPort_triedOnceOnlyAndNamedWhenTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();

      assertThatThrownBy(() -> Ports.startOnFreePort(port, "a test server", p -> "started"))
          .hasMessageContaining("port " + port + " on 127.0.0.1, wanted for a test server, is already in use");
    }
    int chosen = Ports.free();
    String started = Ports.startOnFreePort(chosen, "a test server", p -> "on " + p);
    assertThat(started).isEqualTo("on " + chosen);
  }
}
