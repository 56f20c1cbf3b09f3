package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.Kek;
import io.kavro.serde.rules.RuleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
          events.add("close " + name);
        }
      };
    }
  };

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
}
