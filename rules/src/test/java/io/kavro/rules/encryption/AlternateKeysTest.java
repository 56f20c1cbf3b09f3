package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.serde.rules.RuleException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

/**
 * The shared {@code encrypt.alternate.kms.key.ids} wrapper, against scripted keys: the order Confluent's clients
 * try the keys in (the KEK's own, then each alternate, on any failure, on encrypt and on decrypt), and the kind of
 * the failure when all fail (temporary when any was, else final with every key's reason).
 */
class AlternateKeysTest {
  private static final byte[] DEK = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final List<String> calls = new ArrayList<>();

  /** How a scripted key answers. */
  private enum Answer { OK, REFUSES, UNAVAILABLE, MISCONFIGURED }

  /** A key that answers as scripted and records each call as "operation key" in {@code calls}. */
  private record Key(String name, Answer answer, List<String> calls) implements KmsClient {
    @Override
    public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
      return call("encrypt", plaintext);
    }

    @Override
    public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
      return call("decrypt", ciphertext);
    }

    private byte[] call(String operation, byte[] data) throws GeneralSecurityException {
      calls.add(operation + " " + name);
      switch (answer) {
        case REFUSES -> throw new GeneralSecurityException("key " + name + " refused: NotFound");
        case UNAVAILABLE -> throw new KmsUnavailableException("key " + name + " throttled: HTTP 429");
        case MISCONFIGURED -> throw new io.kavro.serde.rules.RuleDeploymentException("no profile 'typo' for " + name);
        default -> {
          return (name + ":" + new String(data, StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII);
        }
      }
    }

    @Override
    public void close() {
      calls.add("close " + name);
      if (answer == Answer.REFUSES) {
        throw new IllegalStateException("key " + name + " cannot close");
      }
    }

    @Override
    public String toString() {
      return "key " + name;
    }
  }

  private static Map<String, Object> alternates(String ids) {
    Map<String, Object> configs = new HashMap<>();
    configs.put(AlternateKeys.ALTERNATE_KEY_IDS, ids);
    return configs;
  }

  private KmsClient client(Answer own, String ids, Map<String, Answer> answers) {
    return AlternateKeys.of("Test KMS", new Key("own", own, calls), alternates(ids),
        id -> new Key(id, answers.get(id), calls));
  }

  @Test
  void ownKeyFirst_thenEachAlternateInOrder_onEncryptAndDecrypt() throws Exception {
    Map<String, Answer> answers = Map.of("a", Answer.REFUSES, "b", Answer.UNAVAILABLE, "c", Answer.OK,
        "d", Answer.OK);
    KmsClient client = client(Answer.REFUSES, " a , b,, c ,d", answers);

    assertThat(client.encrypt(DEK)).asString(StandardCharsets.US_ASCII).isEqualTo("c:0123456789abcdef");
    assertThat(calls).containsExactly("encrypt own", "encrypt a", "encrypt b", "encrypt c");
    calls.clear();
    assertThat(client.decrypt(DEK)).asString(StandardCharsets.US_ASCII).isEqualTo("c:0123456789abcdef");
    assertThat(calls).containsExactly("decrypt own", "decrypt a", "decrypt b", "decrypt c");
  }

  /**
   * A key whose credentials are refused (another region, vault or tenant) is passed over as any failing key; when
   * every key fails and none was an outage, the deployment's fault is what is thrown, naming every key.
   */
  @Test
  void aDeploymentFault_triesTheNextKey_andIsThrownWhenNoKeyAnswers() throws Exception {
    assertThat(client(Answer.MISCONFIGURED, "a", Map.of("a", Answer.OK)).encrypt(DEK))
        .asString(StandardCharsets.US_ASCII).startsWith("a:");
    assertThat(calls).containsExactly("encrypt own", "encrypt a");

    assertThatThrownBy(() -> client(Answer.MISCONFIGURED, "a", Map.of("a", Answer.REFUSES)).decrypt(DEK))
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("no profile 'typo' for own").hasMessageContaining("key a refused");
    assertThatThrownBy(() -> client(Answer.MISCONFIGURED, "a", Map.of("a", Answer.UNAVAILABLE)).decrypt(DEK))
        .as("an outage among them: a later attempt may reach that key").isInstanceOf(KmsUnavailableException.class);
  }

  @Test
  void ownKeyAnswers_alternatesNotCalled() throws Exception {
    KmsClient client = client(Answer.OK, "a", Map.of("a", Answer.OK));

    assertThat(client.decrypt(DEK)).asString(StandardCharsets.US_ASCII).startsWith("own:");
    assertThat(calls).containsExactly("decrypt own");
  }

  @Test
  void allFail_oneTemporary_isTemporary_whateverItsPlace() {
    KmsClient last = client(Answer.REFUSES, "a,b", Map.of("a", Answer.REFUSES, "b", Answer.UNAVAILABLE));
    KmsClient first = client(Answer.UNAVAILABLE, "a", Map.of("a", Answer.REFUSES));

    assertThatThrownBy(() -> last.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("none of the 3 Test KMS keys could encrypt")
        .hasMessageContaining("key own refused").hasMessageContaining("key a refused")
        .hasMessageContaining("key b throttled").hasCauseInstanceOf(KmsUnavailableException.class);
    assertThatThrownBy(() -> first.decrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("none of the 2 Test KMS keys could decrypt")
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
  }

  @Test
  void allRefuse_isFinal_namingEveryKeysReason() {
    KmsClient client = client(Answer.REFUSES, "a", Map.of("a", Answer.REFUSES));

    for (String operation : List.of("encrypt", "decrypt")) {
      assertThatThrownBy(() -> {
        if (operation.equals("encrypt")) {
          client.encrypt(DEK);
        } else {
          client.decrypt(DEK);
        }
      }).isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
          .hasMessage("none of the 2 Test KMS keys could " + operation
              + ": key own refused: NotFound; key a refused: NotFound");
    }
  }

  @Test
  void noAlternates_isTheOwnKeysClient_itsFailureUnchanged() {
    Key own = new Key("own", Answer.REFUSES, calls);

    assertThat(AlternateKeys.of("Test KMS", own, Map.of(), id -> {
      throw new AssertionError("no alternate expected, got " + id);
    })).isSameAs(own);
    assertThat(AlternateKeys.of("Test KMS", own, alternates(" , "), id -> null)).isSameAs(own);
  }

  @Test
  void alternateKeyIds_splitTrimmedInOrder_emptiesAndRepeatsDropped() {
    assertThat(AlternateKeys.alternateKeyIds(alternates(" x ,y,,x , z "))).containsExactly("x", "y", "z");
    assertThat(AlternateKeys.alternateKeyIds(Map.of())).isEmpty();
  }

  @Test
  void aBadAlternateId_failsWhenTheClientIsMade() {
    Key own = new Key("own", Answer.OK, calls);
    assertThatThrownBy(() -> AlternateKeys.of("Test KMS", own, alternates("bad"), id -> {
      throw new RuleException("invalid key '" + id + "' in " + AlternateKeys.ALTERNATE_KEY_IDS);
    })).isInstanceOf(RuleException.class).hasMessageContaining("'bad'");
  }

  @Test
  void close_closesEveryKeyOnce_inOrder_evenWhenOneFails_neverThrows_logsTheClientNotItsKeyId() {
    Map<String, Object> configs = alternates("https://admin:pw@vault/transit/keys/a,b");
    KmsClient client = AlternateKeys.of("Test KMS", new Key("own", Answer.OK, calls), configs,
        id -> new Key(id.contains("pw@") ? "a" : id, id.contains("pw@") ? Answer.REFUSES : Answer.OK, calls));

    try (LogCapture logs = new LogCapture()) {
      client.close(); // KmsClient.close never throws

      assertThat(logs.lines(Level.WARN)).singleElement().asString().contains("key a")
          .contains(IllegalStateException.class.getName()).doesNotContain("pw@");
    }
    assertThat(calls).containsExactly("close own", "close a", "close b");
  }
}
