package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The stacks' registry: the contract layer in front unless {@code -Dkavro.stack.contracts=false}; a bad value, or a
 * port the layer cannot have, is an error that stops the registry it was to front. No registry is started here.
 */
class StackRegistryTest {
  private static final String URL = "http://127.0.0.1:1/apis/ccompat/v7";

  @AfterEach
  void clearProperty() {
    System.clearProperty(StackRegistry.CONTRACTS_PROPERTY);
  }

  @Test
  void byDefault_theLayerIsInFront_withTheRegistrysPath() {
    AtomicBoolean closed = new AtomicBoolean();
    try (StackRegistry registry = StackRegistry.inFront(() -> closed.set(true), URL, 0)) {
      assertThat(registry.url()).matches("http://127\\.0\\.0\\.1:\\d+/apis/ccompat/v7").isNotEqualTo(URL);
    }
    assertThat(closed).as("closing it closes the registry").isTrue();
  }

  @Test
  void contractsFalse_theRegistryAlone() {
    System.setProperty(StackRegistry.CONTRACTS_PROPERTY, "false");
    try (StackRegistry registry = StackRegistry.inFront(() -> { }, URL, 0)) {
      assertThat(registry.url()).isEqualTo(URL);
    }
  }

  @Test
  void anotherValue_isAnErrorNamingTheProperty() {
    System.setProperty(StackRegistry.CONTRACTS_PROPERTY, "yes");
    assertThatThrownBy(StackRegistry::contracts).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("-Dkavro.stack.contracts must be true or false, was 'yes'");
  }

  @Test
  void aTakenPort_namesIt_andStopsTheRegistry() throws Exception {
    AtomicBoolean closed = new AtomicBoolean();
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> StackRegistry.inFront(() -> closed.set(true), URL, port))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("port " + port);
    }
    assertThat(closed).isTrue();
  }
}
