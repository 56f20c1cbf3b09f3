package io.kavro.bench;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What Confluent's data contract rules cost per record, on S3 (kavro-rules on the class path): the schema
 * registered without rules, with one CEL condition on a top-level field that every record passes, and with one
 * ENCRYPT rule on one string field tagged PII by the version's {@code metadata.tags} (AES-GCM, a DEK of the local
 * KMS); all three on the same settings ({@code use.latest.version}, no auto-registration). Every record is written
 * and read once before measuring, so the DEKs are cached: the trial fails if any registry or KMS call was made.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RulesBenchmark extends WarmSerdesState {
  /** The data contract of the S3 version the serdes use. */
  public enum Contract {
    /**
     * No metadata, no rules, and the rules switched off ({@code rules.ignore=true}): the serdes as before rules
     * existed, the baseline of {@link #NONE}.
     */
    OFF,
    /** No metadata, no rules: the baseline of the rules' costs. */
    NONE,
    /** One CEL condition on write and read, {@code message.count >= 0}, which every record passes. */
    CEL,
    /**
     * One CEL_FIELD transform on write and read, on the field {@code name} (tagged PII by {@code **.name}), that
     * gives each value unchanged ({@code typeName == 'STRING' ; value}). Not a condition: a CEL_FIELD condition
     * here also failed the records whose untagged boolean field {@code active} is {@code false}, half of S3's.
     */
    CEL_FIELD,
    /** One ENCRYPT rule on write and read, on the field {@code name}, tagged PII by {@code **.name}. */
    ENCRYPT;

    DataContract dataContract() {
      return switch (this) {
        case OFF, NONE -> DataContract.NONE;
        case CEL -> domain(Metadata.EMPTY, new Rule("countIsNatural", null, Rule.Kind.CONDITION,
            Rule.Mode.WRITEREAD, "CEL", Set.of(), Map.of(), "message.count >= 0", null, null, false));
        case CEL_FIELD -> domain(new Metadata(Map.of("**.name", Set.of("PII")), Map.of(), Set.of()),
            new Rule("nameAsIs", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "CEL_FIELD", Set.of("PII"),
                Map.of(), "typeName == 'STRING' ; value", null, null, false));
        case ENCRYPT -> domain(new Metadata(Map.of("**.name", Set.of("PII")), Map.of(), Set.of()),
            new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
                Map.of("encrypt.kek.name", "bench-kek", "encrypt.kms.type", CountingKmsDriver.KMS_TYPE,
                    "encrypt.kms.key.id", "bench-key"), null, null, null, false));
      };
    }

    private static DataContract domain(Metadata metadata, Rule rule) {
      return new DataContract(metadata, new RuleSet(List.of(), List.of(rule), List.of(), null));
    }
  }

  @Param({"OFF", "NONE", "CEL", "CEL_FIELD", "ENCRYPT"})
  public Contract rules;

  private List<GenericRecord> records;
  private byte[][] payloads;
  private KavroSerdes kavro;
  private final Rotation rotation = new Rotation();

  @Setup(Level.Trial)
  public void setUp() {
    kavro = checked(new KavroSerdes(Map.of("auto.register.schemas", false, "use.latest.version", true,
        "avro.use.logical.type.converters", false, "rule.executors._default_.param.secret", "bench-secret",
        "rules.ignore", rules == Contract.OFF)));
    kavro.registry().register(KavroSerdes.TOPIC + "-value", Shape.S3.writer(), List.of(), rules.dataContract());
    records = BenchData.records(Shape.S3);
    payloads = new byte[records.size()][];
    for (int i = 0; i < records.size(); i++) {
      GenericRecord record = records.get(i);
      payloads[i] = kavro.serializer().serialize(KavroSerdes.TOPIC, record);
      boolean plain = new String(payloads[i], StandardCharsets.ISO_8859_1).contains(record.get("name").toString());
      if (plain == (rules == Contract.ENCRYPT)) {
        throw new IllegalStateException("the field name is " + (plain ? "" : "not ") + "plain on the wire with "
            + rules);
      }
      Object back = kavro.deserializer().deserialize(KavroSerdes.TOPIC, payloads[i]);
      if (!GenericData.get().toString(record).equals(GenericData.get().toString(back))) {
        throw new IllegalStateException("Kavro read back another record with " + rules + ": " + back);
      }
    }
    closedAtEnd(CountingKmsDriver.expectNoCalls());
  }

  @Benchmark
  public byte[] serialize() {
    return kavro.serializer().serialize(KavroSerdes.TOPIC, records.get(rotation.next()));
  }

  @Benchmark
  public Object deserialize() {
    return kavro.deserializer().deserialize(KavroSerdes.TOPIC, payloads[rotation.next()]);
  }
}
