package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.rules.RuleDeploymentException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class LocalKmsDriverTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final String URL = "local-kms://my-key";

  @Test
  void testHkdf_matchesRfc5869TestCase1() throws Exception {
    byte[] okm = hkdfSha256(HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"),
        HEX.parseHex("000102030405060708090a0b0c"), HEX.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42);
    assertThat(HEX.formatHex(okm)).isEqualTo(
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
  }

  @Test
  void kek_isHkdfOfTheSecretWithZeroSalt_usedAsAes128Gcm() throws Exception {
    KmsClient client = new LocalKmsDriver(name -> null).newClient(URL, Map.of("secret", "mysecret"));
    byte[] dek = HEX.parseHex("1a20" + "11".repeat(32));
    byte[] wrapped = client.encrypt(dek);
    assertThat(wrapped).hasSize(12 + dek.length + 16);

    byte[] kek = hkdfSha256("mysecret".getBytes(StandardCharsets.UTF_8), new byte[32], new byte[0], 16);
    Cipher jdk = Cipher.getInstance("AES/GCM/NoPadding");
    jdk.init(Cipher.DECRYPT_MODE, new SecretKeySpec(kek, "AES"), new GCMParameterSpec(128, wrapped, 0, 12));
    assertThat(jdk.doFinal(wrapped, 12, wrapped.length - 12)).isEqualTo(dek);
    assertThat(client.decrypt(wrapped)).isEqualTo(dek);
  }

  @Test
  void secret_fallsBackToTheEnvironment() throws Exception {
    byte[] wrapped = new LocalKmsDriver(name -> null).newClient(URL, Map.of("secret", "envsecret"))
        .encrypt(new byte[] {1, 2, 3});
    KmsClient fromEnv = new LocalKmsDriver(name -> name.equals("LOCAL_SECRET") ? "envsecret" : null)
        .newClient(URL, Map.of());
    assertThat(fromEnv.decrypt(wrapped)).containsExactly(1, 2, 3);
  }

  @Test
  void wrongSecret_cannotDecrypt() throws Exception {
    byte[] wrapped = new LocalKmsDriver(name -> null).newClient(URL, Map.of("secret", "right"))
        .encrypt(new byte[] {1, 2, 3});
    KmsClient wrong = new LocalKmsDriver(name -> null).newClient(URL, Map.of("secret", "wrong"));
    assertThatThrownBy(() -> wrong.decrypt(wrapped)).isInstanceOf(GeneralSecurityException.class);
  }

  /** The deployment's fault, which every record meets alike: a host's error handling stops rather than skips. */
  @Test
  void noSecret_saysWhereToSetIt() {
    assertThatThrownBy(() -> new LocalKmsDriver(name -> null).newClient(URL, Map.of()))
        .isInstanceOf(RuleDeploymentException.class)
        .hasMessageContaining("rule.executors._default_.param.secret").hasMessageContaining("LOCAL_SECRET")
        .hasMessageContaining(URL);
  }

  @Test
  void toStrings_holdNoSecret() {
    KmsClient client = new LocalKmsDriver(name -> null).newClient(URL, Map.of("secret", "s3cr3t-value"));
    assertThat(client.toString()).doesNotContain("s3cr3t");
    assertThat(new LocalKmsDriver().toString()).isEqualTo("KMS driver local-kms");
  }

  /** HKDF-SHA256 (RFC 5869) on the JDK's HMAC. */
  static byte[] hkdfSha256(byte[] ikm, byte[] salt, byte[] info, int length) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(salt.length == 0 ? new byte[32] : salt, "HmacSHA256"));
    byte[] prk = mac.doFinal(ikm);
    mac.init(new SecretKeySpec(prk, "HmacSHA256"));
    byte[] okm = new byte[0];
    byte[] t = new byte[0];
    for (int i = 1; okm.length < length; i++) {
      mac.update(t);
      mac.update(info);
      mac.update((byte) i);
      t = mac.doFinal();
      byte[] next = Arrays.copyOf(okm, okm.length + t.length);
      System.arraycopy(t, 0, next, okm.length, t.length);
      okm = next;
    }
    return Arrays.copyOf(okm, length);
  }

  /** A KEK of a KMS type with no driver here: the deployment's fault, naming the types there are. */
  @Test
  void kmsTypeWithNoDriver_isADeploymentFault() {
    assertThatThrownBy(() -> KmsDrivers.load(LocalKmsDriverTest.class.getClassLoader()).driver("aws-kms"))
        .isExactlyInstanceOf(RuleDeploymentException.class)
        .hasMessageContaining("no KMS driver for KMS type 'aws-kms'").hasMessageContaining("local-kms");
  }
}
