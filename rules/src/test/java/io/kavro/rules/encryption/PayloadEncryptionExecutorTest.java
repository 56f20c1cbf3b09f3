package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.Dek;
import io.kavro.registry.contract.Kek;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PayloadEncryptionExecutorTest {
  private static final String SECRET = "payload-test-secret";
  private static final Schema SCHEMA = Schema.create(Schema.Type.STRING);
  private static final RuleInput INPUT = new RuleInput("users", false, null);
  private static final byte[] BODY = "an encoded avro body".getBytes(StandardCharsets.UTF_8);
  private static final long DAY = 86_400_000L;

  private final InMemoryDekRegistry registry = new InMemoryDekRegistry();

  @Test
  void writeThenRead_roundTrips() {
    byte[] cipher = (byte[]) prepare(Rule.Mode.WRITE, params(0)).apply(INPUT, BODY.clone());
    assertThat(cipher).isNotEqualTo(BODY);
    assertThat((byte[]) prepare(Rule.Mode.READ, params(0)).apply(INPUT, cipher)).isEqualTo(BODY);
  }

  @Test
  void withoutExpiry_thePayloadIsTheBareGcmOfDekVersion1_underTheLocalKek() throws Exception {
    byte[] cipher = (byte[]) prepare(Rule.Mode.WRITE, params(0)).apply(INPUT, BODY);
    assertThat(cipher).hasSize(12 + BODY.length + 16);

    assertThat(registry.keks.get("kek1")).extracting(Kek::kmsType, Kek::kmsKeyId, Kek::shared)
        .containsExactly("local-kms", "key-1", false);
    assertThat(registry.versions("kek1", Targets.SUBJECT, "AES256_GCM")).containsExactly(1);
    Dek dek = registry.deks.get("kek1/" + Targets.SUBJECT + "/AES256_GCM/1");
    // Independently of the code under test: the local KEK is HKDF(secret), the DEK's material a Tink key proto.
    byte[] kek = LocalKmsDriverTest.hkdfSha256(SECRET.getBytes(StandardCharsets.UTF_8), new byte[32], new byte[0], 16);
    byte[] material = gcmDecrypt(kek, Base64.getDecoder().decode(dek.encryptedKeyMaterial()));
    assertThat(material).hasSize(34).startsWith(0x1A, 0x20);
    assertThat(gcmDecrypt(Arrays.copyOfRange(material, 2, 34), cipher)).isEqualTo(BODY);
  }

  @Test
  void withExpiry_thePayloadStartsWithTheDekVersion() throws Exception {
    byte[] cipher = (byte[]) prepare(Rule.Mode.WRITE, params(30)).apply(INPUT, BODY);
    assertThat(HexFormat.of().formatHex(cipher, 0, 5)).isEqualTo("0000000001");
    assertThat(cipher).hasSize(5 + 12 + BODY.length + 16);
    assertThat((byte[]) prepare(Rule.Mode.READ, params(30)).apply(INPUT, cipher)).isEqualTo(BODY);
  }

  @Test
  void withExpiry_anExpiredDekIsRotated() {
    registry.now.set(System.currentTimeMillis() - 31 * DAY);
    byte[] old = (byte[]) prepare(Rule.Mode.WRITE, params(0)).apply(INPUT, BODY); // makes version 1, 31 days old
    registry.now.set(System.currentTimeMillis());

    PreparedRule writer = prepare(Rule.Mode.WRITE, params(30));
    byte[] cipher = (byte[]) writer.apply(INPUT, BODY);
    assertThat(HexFormat.of().formatHex(cipher, 0, 5)).isEqualTo("0000000002");
    assertThat(registry.versions("kek1", Targets.SUBJECT, "AES256_GCM")).containsExactly(1, 2);
    assertThat(HexFormat.of().formatHex((byte[]) writer.apply(INPUT, BODY), 0, 5)).isEqualTo("0000000002");

    assertThat((byte[]) prepare(Rule.Mode.READ, params(30)).apply(INPUT, cipher)).isEqualTo(BODY);
    // A version-prefixed reader reads the version the writer named: 1 here, after the rotation.
    byte[] prefixedOld = CryptorTest.concat(new byte[] {0, 0, 0, 0, 1}, old);
    assertThat((byte[]) prepare(Rule.Mode.READ, params(30)).apply(INPUT, prefixedOld)).isEqualTo(BODY);
  }

  /**
   * Issue 49, item 12: two producers (two executors, as two processes have) encrypting with one DEK never share a
   * GCM nonce; a nonce from a counter that starts at 0 in each would repeat at once.
   */
  @Test
  void twoWritersWithOneDek_neverShareANonce() {
    PreparedRule first = prepare(Rule.Mode.WRITE, params(0));
    PreparedRule second = configured().prepare(Targets.target(Targets.rule("ENCRYPT_PAYLOAD", params(0)),
        Rule.Mode.WRITE, SCHEMA, registry));
    java.util.Set<String> nonces = new java.util.HashSet<>();
    java.util.List<byte[]> ciphertexts = new java.util.ArrayList<>();
    int records = 500;
    for (int i = 0; i < records; i++) {
      for (PreparedRule writer : java.util.List.of(first, second)) {
        byte[] cipher = (byte[]) writer.apply(INPUT, BODY);
        nonces.add(HexFormat.of().formatHex(cipher, 0, 12));
        ciphertexts.add(cipher);
      }
    }
    assertThat(registry.versions("kek1", Targets.SUBJECT, "AES256_GCM")).as("one DEK").containsExactly(1);
    assertThat(nonces).hasSize(2 * records);
    PreparedRule reader = prepare(Rule.Mode.READ, params(0));
    assertThat((byte[]) reader.apply(INPUT, ciphertexts.get(1))).as("the same DEK").isEqualTo(BODY);
  }

  /** Issue 49, item 12: one reader reads the records of two DEK versions, in any order, after a rotation. */
  @Test
  void oneReader_readsRecordsOfTwoDekVersions() {
    registry.now.set(System.currentTimeMillis() - 31 * DAY);
    byte[] bare = (byte[]) prepare(Rule.Mode.WRITE, params(0)).apply(INPUT, BODY); // version 1, 31 days old
    byte[] first = CryptorTest.concat(new byte[] {0, 0, 0, 0, 1}, bare);
    registry.now.set(System.currentTimeMillis());
    byte[] second = (byte[]) prepare(Rule.Mode.WRITE, params(30)).apply(INPUT, BODY); // rotated: version 2
    assertThat(HexFormat.of().formatHex(first, 0, 5)).isEqualTo("0000000001");
    assertThat(HexFormat.of().formatHex(second, 0, 5)).isEqualTo("0000000002");

    PreparedRule reader = prepare(Rule.Mode.READ, params(30));
    for (byte[] cipher : java.util.List.of(second, first, second, first)) {
      assertThat((byte[]) reader.apply(INPUT, cipher)).isEqualTo(BODY);
    }
    PreparedRule other = prepare(Rule.Mode.READ, params(30));
    for (byte[] cipher : java.util.List.of(first, second)) {
      assertThat((byte[]) other.apply(INPUT, cipher)).isEqualTo(BODY);
    }
  }

  @Test
  void onceWarm_aRecordCallsNeitherRegistryNorKms() {
    PreparedRule writer = prepare(Rule.Mode.WRITE, params(7));
    PreparedRule reader = prepare(Rule.Mode.READ, params(7));
    byte[] first = (byte[]) writer.apply(INPUT, BODY);
    reader.apply(INPUT, first);
    int calls = registry.calls.get();
    for (int i = 0; i < 5; i++) {
      assertThat((byte[]) reader.apply(INPUT, writer.apply(INPUT, BODY))).isEqualTo(BODY);
    }
    assertThat(registry.calls.get()).isEqualTo(calls);
  }

  @Test
  void readWithRotation_refusesACiphertextWithoutThePrefix() {
    byte[] bare = (byte[]) prepare(Rule.Mode.WRITE, params(0)).apply(INPUT, BODY);
    bare[0] = 1;
    assertThatThrownBy(() -> prepare(Rule.Mode.READ, params(30)).apply(INPUT, bare))
        .isInstanceOf(RuleException.class).hasMessageContaining("encryptPII")
        .hasMessageContaining("version prefix");
  }

  @Test
  void read_wrongSecret_isARuleExceptionWithoutTheSecret() {
    byte[] cipher = (byte[]) prepare(Rule.Mode.WRITE, params(0)).apply(INPUT, BODY);
    PayloadEncryptionExecutor reader = new PayloadEncryptionExecutor();
    reader.configure(Map.of("secret", "not-the-secret"));
    PreparedRule read = reader.prepare(Targets.target(Targets.rule("ENCRYPT_PAYLOAD", params(0)), Rule.Mode.READ,
        SCHEMA, registry));
    assertThatThrownBy(() -> read.apply(INPUT, cipher))
        .isInstanceOf(RuleException.class)
        .hasMessageContaining("encryptPII").hasMessageContaining("kek1").hasMessageContaining("payload")
        .hasMessageNotContaining("not-the-secret").hasMessageNotContaining(SECRET);
  }

  @Test
  void noSecret_isARuleExceptionThatSaysWhere() {
    Assumptions.assumeTrue(System.getenv("LOCAL_SECRET") == null);
    PayloadEncryptionExecutor executor = new PayloadEncryptionExecutor();
    PreparedRule write = executor.prepare(Targets.target(Targets.rule("ENCRYPT_PAYLOAD", params(0)),
        Rule.Mode.WRITE, SCHEMA, registry));
    assertThatThrownBy(() -> write.apply(INPUT, BODY)).isInstanceOf(RuleException.class)
        .hasMessageContaining("LOCAL_SECRET").hasMessageContaining("param.secret");
  }

  @Test
  void read_missingKek_andWrite_withoutKmsType_areRuleExceptions() {
    assertThatThrownBy(() -> prepare(Rule.Mode.READ, params(0)).apply(INPUT, new byte[40]))
        .isInstanceOf(RuleException.class).hasMessageContaining("no KEK 'kek1'").hasMessageContaining("consume");
    Map<String, String> noKms = Map.of("encrypt.kek.name", "kek2");
    assertThatThrownBy(() -> prepare(Rule.Mode.WRITE, noKms).apply(INPUT, BODY))
        .isInstanceOf(RuleException.class).hasMessageContaining("encrypt.kms.type");
  }

  @Test
  void kekOfAnotherKeyId_isARuleException() {
    registry.createKek(new Kek("kek1", "local-kms", "other-key", Map.of(), null, false, false));
    assertThatThrownBy(() -> prepare(Rule.Mode.WRITE, params(0)).apply(INPUT, BODY))
        .isInstanceOf(RuleException.class).hasMessageContaining("other-key").hasMessageContaining("key-1")
        .hasMessageContaining("differs");
  }

  @Test
  void prepare_withoutKekName_orInAMigration_isRefused() {
    assertThatThrownBy(() -> prepare(Rule.Mode.WRITE, Map.of())).isInstanceOf(RuleException.class)
        .hasMessageContaining("encrypt.kek.name");
    assertThatThrownBy(() -> prepare(Rule.Mode.UPGRADE, params(0))).isInstanceOf(RuleException.class)
        .hasMessageContaining("UPGRADE");
    assertThatThrownBy(() -> prepare(Rule.Mode.WRITE, Map.of("encrypt.kek.name", "k",
        "encrypt.dek.expiry.days", "-1"))).isInstanceOf(RuleException.class).hasMessageContaining("-1");
  }

  @Test
  void parameters_fallBackToMetadataProperties() {
    PayloadEncryptionExecutor executor = configured();
    PreparedRule write = executor.prepare(Targets.target(Targets.rule("ENCRYPT_PAYLOAD", Map.of()), Rule.Mode.WRITE,
        SCHEMA, Targets.contract(Map.of(), params(30)), registry));
    assertThat(HexFormat.of().formatHex((byte[]) write.apply(INPUT, BODY), 0, 5)).isEqualTo("0000000001");
  }

  private PreparedRule prepare(Rule.Mode phase, Map<String, String> params) {
    return configured().prepare(Targets.target(Targets.rule("ENCRYPT_PAYLOAD", params), phase, SCHEMA, registry));
  }

  private static PayloadEncryptionExecutor configured() {
    PayloadEncryptionExecutor executor = new PayloadEncryptionExecutor();
    executor.configure(Map.of("secret", SECRET));
    return executor;
  }

  static Map<String, String> params(int expiryDays) {
    Map<String, String> params = new HashMap<>(Map.of("encrypt.kek.name", "kek1", "encrypt.kms.type", "local-kms",
        "encrypt.kms.key.id", "key-1"));
    if (expiryDays > 0) {
      params.put("encrypt.dek.expiry.days", Integer.toString(expiryDays));
    }
    return params;
  }

  static byte[] gcmDecrypt(byte[] key, byte[] cipher) throws Exception {
    Cipher jdk = Cipher.getInstance("AES/GCM/NoPadding");
    jdk.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, cipher, 0, 12));
    return jdk.doFinal(cipher, 12, cipher.length - 12);
  }
}
