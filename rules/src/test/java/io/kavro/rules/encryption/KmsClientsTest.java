package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.contract.Kek;
import io.kavro.serde.rules.RuleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The KMS clients an executor owns: one per KEK URL and settings, made once, each closed once when the executor
 * closes, none made afterwards.
 */
class KmsClientsTest {
  private final List<String> events = new ArrayList<>();

  /** A driver whose clients record their making and closing in {@code events}. */
  private final KmsDriver driver = new KmsDriver() {
    @Override
    public String kmsType() {
      return "test-kms";
    }

    @Override
    public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
      String name = kekUrl + " " + configs.get("region");
      events.add("make " + name);
      return echoClient(name, () -> events.add("close " + name));
    }
  };

  /** A client that gives back what it is given, named {@code name}; its close runs {@code onClose}. */
  private static KmsClient echoClient(String name, Runnable onClose) {
    return new KmsClient() {
      @Override
      public byte[] encrypt(byte[] plaintext) {
        return plaintext;
      }

      @Override
      public byte[] decrypt(byte[] ciphertext) {
        return ciphertext;
      }

      @Override
      public void close() {
        onClose.run();
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  private final KmsClients clients = new KmsClients(Map.of("region", "eu"), new KmsDrivers(List.of(driver)));

  private static Kek kek(String name, String keyId, Map<String, String> kmsProps) {
    return new Kek(name, "test-kms", keyId, kmsProps, null, false, false);
  }

  @Test
  void oneClientPerKekUrlAndSettings() {
    KmsClient first = clients.client(kek("kek1", "key1", Map.of()));

    assertThat(clients.client(kek("kek1", "key1", Map.of()))).isSameAs(first); // read and write, or re-fetched
    assertThat(clients.client(kek("kek1", "key1", Map.of("region", "us")))).isNotSameAs(first); // kmsProps changed
    assertThat(clients.client(kek("kek2", "key2", Map.of()))).isNotSameAs(first);
    assertThat(events).containsExactly("make test-kms://key1 eu", "make test-kms://key1 us",
        "make test-kms://key2 eu");
    assertThat(clients.size()).isEqualTo(3);
  }

  @Test
  void close_closesEachClientOnce_secondCloseDoesNothing_noClientAfterwards() {
    clients.client(kek("kek1", "key1", Map.of()));
    clients.client(kek("kek2", "key2", Map.of()));
    events.clear();

    clients.close();
    clients.close();

    assertThat(events).containsExactlyInAnyOrder("close test-kms://key1 eu", "close test-kms://key2 eu");
    assertThat(clients.size()).isZero();
    assertThatThrownBy(() -> clients.client(kek("kek1", "key1", Map.of())))
        .isInstanceOf(RuleException.class)
        .hasMessageContaining("closed")
        .hasMessageContaining("kek1");
  }

  /**
   * A driver whose first client is made only when {@code release} opens, after telling {@code making}: another
   * thread's call runs meanwhile. Its clients are numbered by making order; {@code closed} holds the closed ones.
   */
  private static final class GatedDriver implements KmsDriver {
    final CountDownLatch making = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger made = new AtomicInteger();
    final List<String> closed = new CopyOnWriteArrayList<>();

    @Override
    public String kmsType() {
      return "test-kms";
    }

    @Override
    public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
      int number = made.incrementAndGet();
      if (number == 1) {
        making.countDown();
        await(release);
      }
      String name = "client " + number;
      return echoClient(name, () -> closed.add(name));
    }

    private static void await(CountDownLatch latch) {
      try {
        if (!latch.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never released the latch");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private final GatedDriver gated = new GatedDriver();
  private final KmsClients gatedClients = new KmsClients(Map.of(), new KmsDrivers(List.of(gated)));
  private final ExecutorService thread = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopTheOtherThread() {
    gated.release.countDown();
    thread.shutdownNow();
  }

  /** Asks for KEK kek1's client on another thread, and returns once its driver is making it. */
  private Future<KmsClient> makingOnAnotherThread() {
    Future<KmsClient> slow = thread.submit(() -> gatedClients.client(kek("kek1", "key1", Map.of())));
    GatedDriver.await(gated.making);
    return slow;
  }

  @Test
  void twoThreadsMakeTheSameClient_theFirstKeptIsEveryonesAndTheOtherIsClosed() throws Exception {
    Future<KmsClient> slow = makingOnAnotherThread();

    KmsClient fast = gatedClients.client(kek("kek1", "key1", Map.of())); // made while the other still makes one
    gated.release.countDown();

    assertThat(fast).hasToString("client 2");
    assertThat(slow.get(30, TimeUnit.SECONDS)).isSameAs(fast);
    assertThat(gated.closed).containsExactly("client 1");
    assertThat(gatedClients.size()).isEqualTo(1);

    gatedClients.close();
    assertThat(gated.closed).containsExactly("client 1", "client 2");
  }

  @Test
  void closeWhileAClientIsMade_thatClientIsClosed_andItsCallerToldTheExecutorIsClosed() {
    Future<KmsClient> slow = makingOnAnotherThread();

    gatedClients.close();
    gated.release.countDown();

    assertThatThrownBy(() -> slow.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
        .cause().isInstanceOf(RuleException.class).hasMessageContaining("closed").hasMessageContaining("kek1");
    assertThat(gated.closed).containsExactly("client 1");
    assertThat(gatedClients.size()).isZero();
  }

  /** A key id may carry credentials (a Vault URL's token): a client that fails to close is logged without it. */
  @Test
  void aClientThatFailsToClose_isLoggedByTheClient_notByItsKekUrl() {
    KmsDriver throwing = new KmsDriver() {
      @Override
      public String kmsType() {
        return "test-kms";
      }

      @Override
      public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
        return echoClient("Test KMS key vault/transit/keys/k", () -> {
          throw new IllegalStateException("cannot close");
        });
      }
    };
    KmsClients owned = new KmsClients(Map.of(), new KmsDrivers(List.of(throwing)));
    owned.client(kek("kek1", "https://vault/transit/keys/k?token=s3cret-token", Map.of()));

    try (LogCapture logs = new LogCapture()) {
      owned.close();

      assertThat(logs.lines(Level.WARN)).singleElement().asString().contains("Test KMS key vault/transit/keys/k")
          .contains(IllegalStateException.class.getName()).doesNotContain("s3cret-token");
    }
  }
}
