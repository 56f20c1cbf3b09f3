package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.rules.RuleException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class CryptorTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] PLAINTEXT = "123-45-6789".getBytes(StandardCharsets.UTF_8);

  @Test
  void keyMaterial_isTheTinkKeyProto() {
    byte[] key32 = new byte[32];
    Arrays.fill(key32, (byte) 7);
    assertThat(HEX.formatHex(DekAlgorithm.AES256_GCM.keyMaterial(key32)))
        .isEqualTo("1a20" + "07".repeat(32));
    assertThat(HEX.formatHex(DekAlgorithm.AES128_GCM.keyMaterial(new byte[16]))).isEqualTo("1a10" + "00".repeat(16));
    assertThat(HEX.formatHex(DekAlgorithm.AES256_SIV.keyMaterial(new byte[64]))).isEqualTo("1240" + "00".repeat(64));
  }

  @Test
  void generateKeyMaterial_hasTheHeaderAndSize() {
    assertThat(DekAlgorithm.AES256_GCM.generateKeyMaterial()).hasSize(34).startsWith(0x1A, 0x20);
    assertThat(DekAlgorithm.AES128_GCM.generateKeyMaterial()).hasSize(18).startsWith(0x1A, 0x10);
    assertThat(DekAlgorithm.AES256_SIV.generateKeyMaterial()).hasSize(66).startsWith(0x12, 0x40);
    assertThat(DekAlgorithm.AES256_GCM.generateKeyMaterial()).isNotEqualTo(DekAlgorithm.AES256_GCM.generateKeyMaterial());
  }

  @Test
  void cryptor_wrongHeaderOrSize_namesTheAlgorithmNotTheKey() {
    byte[] sivMaterial = HEX.parseHex("1240" + "ab".repeat(64));
    assertThatThrownBy(() -> DekAlgorithm.AES256_GCM.cryptor(sivMaterial))
        .isInstanceOf(RuleException.class)
        .hasMessageContaining("AES256_GCM").hasMessageContaining("1A 20").hasMessageContaining("66 bytes")
        .hasMessageNotContaining("ab ab").hasMessageNotContaining("abab").hasMessageNotContaining("AB AB");
    byte[] gcm256 = HEX.parseHex("1a20" + "cd".repeat(32));
    assertThatThrownBy(() -> DekAlgorithm.AES128_GCM.cryptor(gcm256))
        .isInstanceOf(RuleException.class).hasMessageContaining("AES128_GCM")
        .hasMessageNotContaining("cdcd").hasMessageNotContaining("CD CD");
    assertThatThrownBy(() -> DekAlgorithm.AES256_SIV.cryptor(HEX.parseHex("1a40" + "00".repeat(64))))
        .isInstanceOf(RuleException.class).hasMessageContaining("AES256_SIV").hasMessageContaining("12 40");
  }

  /** Issue 49, item 7: material without the header starts with key bytes, which no message may show. */
  @Test
  void cryptor_rawKeyWithoutTheHeader_showsNoByteOfIt() {
    byte[] rawKey = HEX.parseHex("bdb6" + "5c".repeat(30));
    byte[] headerless = HEX.parseHex("bdb6" + "5c".repeat(32));
    for (byte[] material : List.of(rawKey, headerless)) {
      assertThatThrownBy(() -> DekAlgorithm.AES256_GCM.cryptor(material)).isInstanceOf(RuleException.class)
          .hasMessageContaining("AES256_GCM").hasMessageContaining(material.length + " bytes")
          .satisfies(e -> assertThat(e.getMessage().toUpperCase(java.util.Locale.ROOT).replace(" ", ""))
              .doesNotContain("BDB6").doesNotContain("5C5C"));
    }
  }

  @Test
  void named_defaultsToAes256GcmAndRefusesOthers() {
    assertThat(DekAlgorithm.named(null)).isEqualTo(DekAlgorithm.AES256_GCM);
    assertThat(DekAlgorithm.named("aes256_siv")).isEqualTo(DekAlgorithm.AES256_SIV);
    assertThatThrownBy(() -> DekAlgorithm.named("AES512_GCM")).isInstanceOf(RuleException.class)
        .hasMessageContaining("AES512_GCM");
  }

  @Test
  void gcm_layoutIsIvCiphertextTag() throws Exception {
    byte[] key = HEX.parseHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    Cryptor cryptor = DekAlgorithm.AES256_GCM.cryptor(DekAlgorithm.AES256_GCM.keyMaterial(key));
    byte[] cipher = cryptor.encrypt(PLAINTEXT);
    assertThat(cipher).hasSize(12 + PLAINTEXT.length + 16);
    // The JDK, given the first 12 bytes as the IV and no AAD, reads it: no Tink prefix, a 12-byte IV, a 16-byte tag.
    Cipher jdk = Cipher.getInstance("AES/GCM/NoPadding");
    jdk.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, cipher, 0, 12));
    assertThat(jdk.doFinal(cipher, 12, cipher.length - 12)).isEqualTo(PLAINTEXT);
    assertThat(cryptor.encrypt(PLAINTEXT)).isNotEqualTo(cipher); // a random IV each time
  }

  @Test
  void gcm_decryptsWhatTheJdkEncrypted() throws Exception {
    byte[] key = HEX.parseHex("feffe9928665731c6d6a8f9467308308");
    byte[] iv = HEX.parseHex("cafebabefacedbaddecaf888");
    Cipher jdk = Cipher.getInstance("AES/GCM/NoPadding");
    jdk.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
    byte[] cipher = concat(iv, jdk.doFinal(PLAINTEXT));

    Cryptor cryptor = DekAlgorithm.AES128_GCM.cryptor(HEX.parseHex("1a10feffe9928665731c6d6a8f9467308308"));
    assertThat(cryptor.decrypt(cipher)).isEqualTo(PLAINTEXT);
    cipher[cipher.length - 1] ^= 1;
    assertThatThrownBy(() -> cryptor.decrypt(cipher)).isInstanceOf(GeneralSecurityException.class);
  }

  @Test
  void sivOracle_matchesRfc5297() throws Exception {
    // RFC 5297 A.1 (AES-SIV-CMAC-256, one AD), checking the test's own AES-SIV.
    byte[] key = HEX.parseHex("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    byte[] ad = HEX.parseHex("101112131415161718191a1b1c1d1e1f2021222324252627");
    byte[] plaintext = HEX.parseHex("112233445566778899aabbccddee");
    assertThat(HEX.formatHex(sivOracle(key, List.of(ad), plaintext)))
        .isEqualTo("85632d07c6e8f37f950acd320a2ecc9340c02b9690c4dc04daef7f6afe5c");
    // AES-SIV-CMAC-512 with AD and nonce (GNU Nettle's siv-cmac-test.c, from dchest/siv): the 64-byte key path.
    byte[] key64 = HEX.parseHex("c27df2fdaec35d4a2a412a50c3e8c47d2d568e91a38e54148abdc0b6e86caf87"
        + "695c0a8adf4c5f8eb2c6c8b136529864f3b84b3ae8e3676ce760c461f3a13e83");
    assertThat(HEX.formatHex(sivOracle(key64, List.of(ad, HEX.parseHex("02")), plaintext)))
        .isEqualTo("c3366ef892911eac3d17f29a37d4ebadddc1219ebbde06d1ee893e55a39f");
  }

  @Test
  void siv_isRfc5297WithEmptyAdAndDeterministic() throws Exception {
    byte[] key = HEX.parseHex("c27df2fdaec35d4a2a412a50c3e8c47d2d568e91a38e54148abdc0b6e86caf87"
        + "695c0a8adf4c5f8eb2c6c8b136529864f3b84b3ae8e3676ce760c461f3a13e83");
    Cryptor cryptor = DekAlgorithm.AES256_SIV.cryptor(DekAlgorithm.AES256_SIV.keyMaterial(key));
    byte[] cipher = cryptor.encrypt(PLAINTEXT);
    // The empty AD is one S2V component: [AD = empty, plaintext], as Confluent's Java (Tink) and JS (miscreant).
    assertThat(cipher).isEqualTo(sivOracle(key, List.of(new byte[0]), PLAINTEXT))
        .isNotEqualTo(sivOracle(key, List.of(), PLAINTEXT))
        .hasSize(16 + PLAINTEXT.length);
    assertThat(cryptor.encrypt(PLAINTEXT)).isEqualTo(cipher);
    assertThat(cryptor.decrypt(cipher)).isEqualTo(PLAINTEXT);
  }

  @Test
  void toString_namesTheAlgorithmOnly() {
    byte[] material = HEX.parseHex("1a20" + "5a".repeat(32));
    assertThat(DekAlgorithm.AES256_GCM.cryptor(material).toString()).isEqualTo("AES256_GCM cryptor");
  }

  /** AES-SIV (RFC 5297 section 2.6) written on the JDK's AES, independent of Tink: {@code V ‖ C}. */
  static byte[] sivOracle(byte[] key, List<byte[]> ads, byte[] plaintext) throws Exception {
    int half = key.length / 2;
    byte[] k1 = Arrays.copyOfRange(key, 0, half);
    byte[] k2 = Arrays.copyOfRange(key, half, key.length);
    byte[] d = cmac(k1, new byte[16]);
    for (byte[] ad : ads) {
      d = xor(dbl(d), cmac(k1, ad));
    }
    byte[] t;
    if (plaintext.length >= 16) {
      t = plaintext.clone();
      for (int i = 0; i < 16; i++) {
        t[plaintext.length - 16 + i] ^= d[i];
      }
    } else {
      byte[] padded = new byte[16];
      System.arraycopy(plaintext, 0, padded, 0, plaintext.length);
      padded[plaintext.length] = (byte) 0x80;
      t = xor(dbl(d), padded);
    }
    byte[] v = cmac(k1, t);
    byte[] q = v.clone();
    q[8] &= 0x7f;
    q[12] &= 0x7f;
    Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
    ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k2, "AES"), new IvParameterSpec(q));
    return concat(v, ctr.doFinal(plaintext));
  }

  /** AES-CMAC (RFC 4493). */
  private static byte[] cmac(byte[] key, byte[] message) throws Exception {
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
    byte[] k1 = dbl(aes.doFinal(new byte[16]));
    byte[] k2 = dbl(k1);
    int blocks = Math.max(1, (message.length + 15) / 16);
    boolean complete = message.length > 0 && message.length % 16 == 0;
    byte[] last = new byte[16];
    int lastStart = (blocks - 1) * 16;
    System.arraycopy(message, lastStart, last, 0, message.length - lastStart);
    if (complete) {
      last = xor(last, k1);
    } else {
      last[message.length - lastStart] = (byte) 0x80;
      last = xor(last, k2);
    }
    byte[] x = new byte[16];
    for (int i = 0; i < blocks - 1; i++) {
      x = aes.doFinal(xor(x, Arrays.copyOfRange(message, i * 16, i * 16 + 16)));
    }
    return aes.doFinal(xor(x, last));
  }

  private static byte[] dbl(byte[] block) {
    byte[] out = new byte[16];
    for (int i = 0; i < 16; i++) {
      out[i] = (byte) ((block[i] << 1) | (i < 15 ? (block[i + 1] & 0xff) >>> 7 : 0));
    }
    if ((block[0] & 0x80) != 0) {
      out[15] ^= (byte) 0x87;
    }
    return out;
  }

  private static byte[] xor(byte[] a, byte[] b) {
    byte[] out = new byte[16];
    for (int i = 0; i < 16; i++) {
      out[i] = (byte) (a[i] ^ b[i]);
    }
    return out;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
