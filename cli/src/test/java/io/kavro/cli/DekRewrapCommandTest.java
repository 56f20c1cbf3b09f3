package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.LocalKmsDriver;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code kavro dek rewrap} over 10,001 DEKs of a {@code local-kms} KEK on a {@code mock://} registry: one written by
 * the serde for real records, 10,000 made beside it over 2,500 subjects, every algorithm and several versions. The
 * key material of each DEK is known to the test, so that "the key never changes" is checked against it, not
 * against the tool.
 */
class DekRewrapCommandTest {
  private static final String SECRET = "s3cret-kek-value";
  private static final String SECRET_SETTING = "rule.executors._default_.param.secret=" + SECRET;
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]}]}""");
  private static final int SUBJECTS = 2_500;
  /** Per subject: AES256_GCM versions 1 and 2, AES128_GCM 1, AES256_SIV 1. */
  private static final int TOTAL = SUBJECTS * 4 + 1;

  private final String scope = "dek-rewrap-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);
  private final DekRegistry deks = registry.dekRegistry();
  private final KmsClient kms = new LocalKmsDriver().newClient("local-kms://key1", Map.of("secret", SECRET));
  /** Every DEK's key in clear, base64, as the test made it (or, for the serde's, unwrapped before any rewrap). */
  private final Map<String, String> keys = new LinkedHashMap<>();
  private final List<byte[]> records = new ArrayList<>();

  @BeforeEach
  void fill() throws GeneralSecurityException {
    registry.register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY, new RuleSet(List.of(),
        List.of(new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
            Map.of("encrypt.kek.name", "kek1", "encrypt.kms.type", "local-kms", "encrypt.kms.key.id", "key1"),
            null, null, null, false)), List.of(), null)));
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(serdeConfig(), false);
      for (int i = 0; i < 3; i++) {
        GenericRecord person = new GenericData.Record(PERSON);
        person.put("name", "person " + i);
        person.put("ssn", "123-45-000" + i);
        records.add(serializer.serialize("people", person));
      }
    }
    Dek written = deks.dek("kek1", "people-value", "AES256_GCM", 1, false).orElseThrow();
    keys.put(id(written), Base64.getEncoder().encodeToString(kms.decrypt(decode(written))));

    SecureRandom random = new SecureRandom();
    for (int s = 0; s < SUBJECTS; s++) {
      String subject = String.format("topic-%04d-value", s);
      make(subject, "AES256_GCM", 1, 32, random);
      make(subject, "AES256_GCM", 2, 32, random);
      make(subject, "AES128_GCM", 1, 16, random);
      make(subject, "AES256_SIV", 1, 64, random);
    }
    assertThat(keys).hasSize(TOTAL);
  }

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private void make(String subject, String algorithm, int version, int size, SecureRandom random)
      throws GeneralSecurityException {
    byte[] key = new byte[size];
    random.nextBytes(key);
    Dek dek = deks.createDek("kek1", subject, algorithm, version,
        Base64.getEncoder().encodeToString(kms.encrypt(key)));
    keys.put(id(dek), Base64.getEncoder().encodeToString(key));
  }

  private Map<String, Object> serdeConfig() {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", "mock://" + scope);
    config.put("auto.register.schemas", false);
    config.put("use.latest.version", true);
    config.put("rule.executors._default_.param.secret", SECRET);
    return config;
  }

  private static String id(Dek dek) {
    return dek.subject() + "/" + dek.algorithm() + "/" + dek.version();
  }

  private static byte[] decode(Dek dek) {
    return Base64.getDecoder().decode(dek.encryptedKeyMaterial());
  }

  /** Every DEK's wrapping as the registry holds it now, by id. */
  private Map<String, String> wrappings() {
    Map<String, String> wrappings = new HashMap<>();
    for (String id : keys.keySet()) {
      String[] parts = id.split("/");
      Dek dek = deks.dek("kek1", parts[0], parts[1], Integer.parseInt(parts[2]), false).orElseThrow();
      wrappings.put(id, dek.encryptedKeyMaterial());
    }
    return wrappings;
  }

  /** Each DEK, unwrapped by the KMS now, is the key the test made. */
  private void assertEveryKeyUnchanged() throws GeneralSecurityException {
    for (Map.Entry<String, String> entry : wrappings().entrySet()) {
      byte[] key = kms.decrypt(Base64.getDecoder().decode(entry.getValue()));
      assertThat(Base64.getEncoder().encodeToString(key)).as(entry.getKey()).isEqualTo(keys.get(entry.getKey()));
    }
  }

  /** The records written before any rewrap, read by a reader with no key cached. */
  private void assertRecordsRead() {
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(serdeConfig(), false);
      for (int i = 0; i < records.size(); i++) {
        GenericRecord read = (GenericRecord) deserializer.deserialize("people", records.get(i));
        assertThat(read.get("ssn").toString()).isEqualTo("123-45-000" + i);
      }
    }
  }

  private record Run(int status, String out, String err) {}

  private Run kavro(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    Run run = new Run(status, out.toString(), err.toString());
    assertThat(run.out() + run.err()).as("no secret, no key material").doesNotContain(SECRET)
        .doesNotContain(keys.values().iterator().next());
    return run;
  }

  private Run rewrap(String... more) {
    List<String> args = new ArrayList<>(List.of("dek", "rewrap", "--schema-registry-url", "mock://" + scope,
        "--kek", "kek1", "--property", SECRET_SETTING));
    args.addAll(List.of(more));
    return kavro(args.toArray(String[]::new));
  }

  @Test
  void dryRun_writesNothing_andCountsEveryDek() throws GeneralSecurityException {
    Map<String, String> before = wrappings();

    Run run = rewrap("--dry-run");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("dry run: DEKs seen " + TOTAL + ", re-wrapped 0, would re-wrap " + TOTAL
        + ", skipped 0, failed 0" + System.lineSeparator());
    assertThat(wrappings()).isEqualTo(before);
    assertEveryKeyUnchanged();
  }

  @Test
  void rewrap_newWrappingForEveryDek_sameKeys_recordsStillRead_andAgainIsIdempotent()
      throws GeneralSecurityException {
    Map<String, String> before = wrappings();

    Run first = rewrap();

    assertThat(first.status()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo("DEKs seen " + TOTAL + ", re-wrapped " + TOTAL + ", would re-wrap 0, "
        + "skipped 0, failed 0" + System.lineSeparator());
    Map<String, String> after = wrappings();
    for (String id : keys.keySet()) {
      assertThat(after.get(id)).as("a new wrapping of " + id).isNotEqualTo(before.get(id));
    }
    assertEveryKeyUnchanged();
    assertRecordsRead();

    Run second = rewrap("--verbose");

    assertThat(second.status()).as(second.err()).isZero();
    assertThat(second.out()).contains("topic-0042-value\tAES256_SIV\tversion 1\tREWRAPPED")
        .endsWith("DEKs seen " + TOTAL + ", re-wrapped " + TOTAL + ", would re-wrap 0, skipped 0, failed 0"
            + System.lineSeparator());
    assertEveryKeyUnchanged();
    assertRecordsRead();
    assertThat(deks.dekVersions("kek1", "topic-0042-value", "AES256_GCM", true)).containsExactly(1, 2);
  }

  @Test
  void subject_rewrapsThatSubjectsDeksOnly() throws GeneralSecurityException {
    Map<String, String> before = wrappings();

    Run run = rewrap("--subject", "topic-0007-value");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("DEKs seen 4, re-wrapped 4, would re-wrap 0, skipped 0, failed 0"
        + System.lineSeparator());
    Map<String, String> after = wrappings();
    for (String id : keys.keySet()) {
      if (id.startsWith("topic-0007-value/")) {
        assertThat(after.get(id)).as(id).isNotEqualTo(before.get(id));
      } else {
        assertThat(after.get(id)).as(id).isEqualTo(before.get(id));
      }
    }
    assertEveryKeyUnchanged();
  }

  @Test
  void aDekTheKmsCannotUnwrap_failsAlone_namedAndCounted_exit1() throws GeneralSecurityException {
    KmsClient other = new LocalKmsDriver().newClient("local-kms://key1", Map.of("secret", "another-secret"));
    deks.createDek("kek1", "foreign-value", "AES256_GCM", 1,
        Base64.getEncoder().encodeToString(other.encrypt(new byte[32])));

    Run run = rewrap("--subject", "foreign-value");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).startsWith("foreign-value\tAES256_GCM\tversion 1\tFAILED\tthe KMS refused")
        .endsWith("DEKs seen 1, re-wrapped 0, would re-wrap 0, skipped 0, failed 1" + System.lineSeparator());
    assertThat(run.err()).contains("1 DEK(s) of KEK 'kek1' could not be re-wrapped");
  }

  /**
   * Credentials the KMS refuses, which every DEK would meet: the walk stops at the first, with what it did, and the
   * status is 1 (fix the deployment first), not 3 (run it again).
   */
  @Test
  void credentialsTheKmsRefuses_stopTheWalk_exit1_not3() {
    deks.createKek(new Kek("refused", "refusing-kms", "key9", Map.of(), null, false, false));
    deks.createDek("refused", "refused-value", "AES256_GCM", 1, Base64.getEncoder().encodeToString(new byte[60]));
    deks.createDek("refused", "refused-value", "AES256_GCM", 2, Base64.getEncoder().encodeToString(new byte[60]));

    Run run = kavro("dek", "rewrap", "--schema-registry-url", "mock://" + scope, "--kek", "refused");

    assertThat(run.status()).as(run.err()).isEqualTo(1);
    assertThat(run.err()).contains("refused this deployment's settings or credentials")
        .contains(RefusingKmsDriver.REFUSAL).contains("fix them and run again");
    assertThat(run.out()).isEqualTo("DEKs seen 0, re-wrapped 0, would re-wrap 0, skipped 0, failed 0"
        + System.lineSeparator());
  }

  @Test
  void noSecret_orNoSuchKek_isAClearError() {
    Run noSecret = kavro("dek", "rewrap", "--schema-registry-url", "mock://" + scope, "--kek", "kek1");
    assertThat(noSecret.status()).isEqualTo(1);
    assertThat(noSecret.err()).contains("'secret'");

    Run noKek = kavro("dek", "rewrap", "--schema-registry-url", "mock://" + scope, "--kek", "nokek",
        "--property", SECRET_SETTING);
    assertThat(noKek.status()).isEqualTo(1);
    assertThat(noKek.err()).contains("no KEK 'nokek'");
    assertThat(deks.kek("kek1", false).map(Kek::name)).contains("kek1");
  }

  @Test
  void anUnreachableRegistry_stopsRetriably_exit3() {
    Run run = kavro("dek", "rewrap", "--schema-registry-url", "http://127.0.0.1:1", "--kek", "kek1",
        "--property", SECRET_SETTING, "--property", "max.retries=0");

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.out()).isEqualTo("DEKs seen 0, re-wrapped 0, would re-wrap 0, skipped 0, failed 0"
        + System.lineSeparator());
    assertThat(run.err()).contains("could not answer for now").contains("run again");
  }
}
