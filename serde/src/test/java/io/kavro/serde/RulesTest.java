package io.kavro.serde;

import static io.kavro.serde.Contracts.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.UnsupportedRulesException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleAction;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleExecutor;
import io.kavro.serde.rules.RuleOutcome;
import io.kavro.serde.rules.RuleTarget;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: how the serde runs a version's rules, with executors of this test's own (the real ones are in
 * kavro-rules): Confluent's order (write in order, read reversed, encoding rules on the body), actions and their
 * defaults, the "A,B" split, overrides by setting, enableAt, the DLQ header that skips a rule, parameters in
 * order, migrations to the latest version, and no trace after a failure.
 */
class RulesTest {
  private static final Schema V1 = new Schema.Parser().parse("""
      {"type":"record","name":"Item","namespace":"com.acme","fields":[{"name":"s","type":"string"}]}""");
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Item","namespace":"com.acme","fields":[{"name":"t","type":"string"}]}""");
  static final List<String> ACTIONS = new CopyOnWriteArrayList<>();

  private final Serdes serdes = new Serdes("rule.executors",
      "append,check,xor,rename,outage,wrongurl,subject,quoting,retype,throttled,poisoned",
      "rule.executors.throttled.class", Throttled.class.getName(),
      "rule.executors.poisoned.class", Poisoned.class.getName(),
      "rule.executors.quoting.class", Quoting.class.getName(),
      "rule.executors.retype.class", Retype.class.getName(),
      "rule.executors.outage.class", Outage.class.getName(), "rule.executors.subject.class", Subject.class.getName(),
      "rule.executors.wrongurl.class", WrongUrl.class.getName(),
      "rule.executors.append.class", Append.class.getName(), "rule.executors.check.class", Check.class.getName(),
      "rule.executors.xor.class", Xor.class.getName(), "rule.executors.rename.class", Rename.class.getName(),
      "rule.actions", "record", "rule.actions.record.class", Record.class.getName());
  private final MockRegistry registry = MockRegistries.scope(serdes.scope);

  @AfterEach
  void close() {
    serdes.close();
    ACTIONS.clear();
  }

  /** Appends {@code expr} and the {@code extra} setting to field {@code s} of a copy. */
  public static final class Append implements RuleExecutor {
    private String extra = "";

    @Override
    public String type() {
      return "APPEND";
    }

    @Override
    public void configure(Map<String, ?> configs) {
      Object value = configs.get("extra");
      extra = value == null ? "" : value.toString();
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      String suffix = target.rule().expr() + extra;
      return (input, message) -> {
        GenericRecord copy = new GenericData.Record((GenericData.Record) message, true);
        copy.put("s", copy.get("s") + suffix);
        return copy;
      };
    }
  }

  /** Holds when field {@code s} ends with {@code expr}. */
  public static final class Check implements RuleExecutor {
    @Override
    public String type() {
      return "CHECK";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      return (input, message) -> ((GenericRecord) message).get("s").toString().endsWith(target.rule().expr());
    }
  }

  /** XORs the encoded body with {@code expr}. */
  public static final class Xor implements RuleExecutor {
    @Override
    public String type() {
      return "XOR";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      int key = Integer.parseInt(target.rule().expr());
      return (input, message) -> xor((byte[]) message, key);
    }
  }

  /** Renames a field of the Avro JSON message: {@code expr} is {@code from:to}. */
  public static final class Rename implements RuleExecutor {
    @Override
    public String type() {
      return "RENAME";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      String[] names = target.rule().expr().split(":");
      return (input, message) -> {
        ObjectNode json = ((JsonNode) message).deepCopy();
        json.set(names[1], json.remove(names[0]));
        return json;
      };
    }
  }

  /**
   * Passes on write; on read cannot reach the registry, and says so as kavro-rules' encryption does: the outage
   * wrapped in a rule exception, wrapped again by the caller that names the field.
   */
  public static final class Outage implements RuleExecutor {
    @Override
    public String type() {
      return "OUTAGE";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      return (input, message) -> {
        if (target.phase() == Rule.Mode.WRITE) {
          return message;
        }
        RegistryUnavailableException outage = new RegistryUnavailableException("get DEK failed: HTTP 503",
            503, 50301, "http://registry/dek-registry/v1/keks/k1", null);
        throw new RuleException(target.rule() + " cannot decrypt field 'com.acme.Item.s': the DEK registry failed",
            new RuleException("the DEK registry failed on the DEK of KEK 'k1': " + outage.getMessage(), outage));
      };
    }
  }

  /**
   * On write, fails as a KMS driver that lets its throttle escape wrapped in an exception of its own: no
   * RuleException on top, the RuleUnavailableException inside.
   */
  public static final class Throttled implements RuleExecutor {
    @Override
    public String type() {
      return "THROTTLED";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      if ("kafka".equals(target.rule().expr())) {
        // as kavro-rules' FieldWalker keeps a Kafka RetriableException whole, for the serde to retry
        return (input, message) -> {
          throw new io.kavro.serde.rules.RuleException("the rule failed on field 's'",
              new org.apache.kafka.common.errors.TimeoutException("the KMS timed out"));
        };
      }
      return (input, message) -> {
        throw new IllegalStateException("the SDK gave up", new io.kavro.serde.rules.RuleUnavailableException(
            "the KMS throttled", null));
      };
    }
  }

  /**
   * Gives a copy of the message; where field {@code s} reads "poison", holding a text whose class fails to link when
   * written (as a value of a library missing at run time would).
   */
  public static final class Poisoned implements RuleExecutor {
    @Override
    public String type() {
      return "POISONED";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      return (input, message) -> {
        GenericRecord copy = new GenericData.Record((GenericData.Record) message, true);
        if ("poison".equals(copy.get("s").toString())) {
          copy.put("s", new UnlinkableText());
        } else if ("overflow".equals(copy.get("s").toString())) {
          copy.put("s", new EndlessText());
        }
        return copy;
      };
    }
  }

  /** A text that recurses without end when read: a rule's output that overflows the stack when encoded. */
  private static final class EndlessText implements CharSequence {
    @Override
    public int length() {
      return 1 + length();
    }

    @Override
    public char charAt(int index) {
      return 'x';
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return this;
    }

    @Override
    public String toString() {
      return "+" + subSequence(0, length());
    }
  }

  /** On read, fails as a DEK registry behind a registry URL that leads to no registry's API, wrapped twice. */
  public static final class WrongUrl implements RuleExecutor {
    @Override
    public String type() {
      return "WRONG_URL";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      return (input, message) -> {
        if (target.phase() == Rule.Mode.WRITE) {
          return message;
        }
        WrongRegistryUrlException wrong = new WrongRegistryUrlException("check that the registry answers failed: "
            + "HTTP 404: (empty body) (http://registry/config); check that schema.registry.url is the registry's "
            + "base URL", 404, -1, "http://registry/config", null);
        throw new RuleException(target.rule() + " cannot decrypt field 'com.acme.Item.s': the DEK registry failed",
            new RuleException("the DEK registry failed on the DEK of KEK 'k1': " + wrong.getMessage(), wrong));
      };
    }
  }

  /** Appends the rule's subject to field {@code s} of a copy (as a DEK is the subject's). */
  public static final class Subject implements RuleExecutor {
    @Override
    public String type() {
      return "SUBJECT";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      return (input, message) -> {
        GenericRecord copy = new GenericData.Record((GenericData.Record) message, true);
        copy.put("s", copy.get("s") + "@" + target.subject());
        return copy;
      };
    }
  }

  /** Throws an exception of its own whose message quotes field {@code s}, as a careless executor would. */
  public static final class Quoting implements RuleExecutor {
    @Override
    public String type() {
      return "QUOTING";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      return (input, message) -> {
        throw new IllegalArgumentException("cannot read " + ((GenericRecord) message).get("s"),
            new NumberFormatException("For input string: \"" + ((GenericRecord) message).get("s") + "\""));
      };
    }
  }

  /** Puts a number where the schema has a string: a message that does not fit, holding field {@code s}'s digits. */
  public static final class Retype implements RuleExecutor {
    @Override
    public String type() {
      return "RETYPE";
    }

    @Override
    public PreparedRule prepare(RuleTarget target) {
      return (input, message) -> {
        GenericRecord copy = new GenericData.Record((GenericData.Record) message, true);
        copy.put("s", Long.parseLong(copy.get("s").toString()));
        return copy;
      };
    }
  }

  /** Writes down each outcome. */
  public static final class Record implements RuleAction {
    @Override
    public String type() {
      return "RECORD";
    }

    @Override
    public void run(RuleOutcome outcome) {
      ACTIONS.add(outcome.target().rule().name() + (outcome.failed() ? " failed: " + outcome.failure().getMessage()
          : " passed") + " on " + outcome.target().phase());
    }
  }

  static byte[] xor(byte[] bytes, int key) {
    byte[] out = bytes.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] ^= (byte) key;
    }
    return out;
  }

  private static GenericRecord item(String s) {
    GenericRecord item = new GenericData.Record(V1);
    item.put("s", s);
    return item;
  }

  private static String s(Object read) {
    return ((GenericRecord) read).get("s").toString();
  }

  @Test
  void domainRules_runInOrderOnWrite_reversedOnRead_onACopy() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("w1", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "APPEND", "-w1"),
        rule("w2", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "APPEND", "-w2"),
        rule("r1", Rule.Kind.TRANSFORM, Rule.Mode.READ, "APPEND", "-r1"),
        rule("r2", Rule.Kind.TRANSFORM, Rule.Mode.READ, "APPEND", "-r2")));
    GenericRecord x = item("x");

    byte[] written = serdes.serializer().serialize("items", x);

    assertThat(s(x)).as("the application's record is not changed").isEqualTo("x");
    assertThat(s(serdes.deserializer("rules.ignore", true).deserialize("items", written))).isEqualTo("x-w1-w2");
    assertThat(s(serdes.deserializer().deserialize("items", written))).isEqualTo("x-w1-w2-r2-r1");
  }

  @Test
  void failedCondition_isAnErrorNamingTheRule_andLeavesNoTrace() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("endsInOk", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "ok")));
    KafkaAvroSerializer serializer = serdes.serializer();

    assertThatThrownBy(() -> serializer.serialize("items", item("bad"))).isInstanceOf(SerializationException.class)
        .hasMessageContaining("Rule failed: endsInOk").hasMessageContaining("Expr failed: 'ok'")
        .hasMessageContaining("topic 'items'");
    byte[] next = serializer.serialize("items", item("is ok"));

    assertThat(next).isEqualTo(serdes.serializer().serialize("items", item("is ok")));
    assertThat(next).as("a condition changes no byte").isEqualTo(serdes.serializer("rules.ignore", true)
        .serialize("items", item("is ok")));
    assertThat(s(serdes.deserializer().deserialize("items", next))).isEqualTo("is ok");
  }

  /** A long and a string: the long is written first, so a failed message's encoder holds it. */
  private static final Schema PAIR = new Schema.Parser().parse("""
      {"type":"record","name":"Pair","namespace":"com.acme","fields":[{"name":"n","type":"long"},
      {"name":"s","type":"string"}]}""");

  private static GenericRecord pair(long n, String s) {
    GenericRecord pair = new GenericData.Record(PAIR);
    pair.put("n", n);
    pair.put("s", s);
    return pair;
  }

  /**
   * A message a transform gave that fails with an Error when encoded again (a class that fails to link) leaves no
   * trace, on write and on read: the encoder the rules share on a thread held its first field, which the next
   * message would have carried.
   */
  @Test
  void aTransformedMessageThatFailsToLink_leavesNoTraceInTheNext() {
    registry.register("pairs-value", PAIR, List.of(), Contracts.domain(
        rule("poison", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "POISONED", null)));
    KafkaAvroSerializer serializer = serdes.serializer();
    GenericRecord fine = pair(8, "fine");
    GenericRecord poisoned = pair(123_456_789, "poison");
    byte[] expected = serializer.serialize("pairs", fine);

    assertThatThrownBy(() -> serializer.serialize("pairs", poisoned)).isInstanceOf(NoClassDefFoundError.class);

    assertThat(serializer.serialize("pairs", fine)).isEqualTo(expected);

    // On read, as the rules encode a transformed message again for the reader schema.
    registry.register("read-pairs-value", PAIR, List.of(), Contracts.domain(
        rule("poison", Rule.Kind.TRANSFORM, Rule.Mode.READ, "POISONED", null)));
    byte[] poisonedBytes = serializer.serialize("read-pairs", poisoned);
    byte[] fineBytes = serializer.serialize("read-pairs", fine);
    KafkaAvroDeserializer deserializer = serdes.deserializer();

    assertThatThrownBy(() -> deserializer.deserialize("read-pairs", poisonedBytes))
        .isInstanceOf(NoClassDefFoundError.class);

    assertThat(deserializer.deserialize("read-pairs", fineBytes)).isEqualTo(fine);
  }

  /**
   * A message a transform gave whose encoding overflows the stack is the write's {@code SerializationException}
   * naming the subject, never the JVM's {@code Error}, and leaves no trace: the encoder the rules share on a thread
   * held its first field.
   */
  @Test
  void aTransformedMessageThatOverflowsTheStack_isASerializationException_andLeavesNoTrace() {
    registry.register("overflows-value", PAIR, List.of(), Contracts.domain(
        rule("poison", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "POISONED", null)));
    KafkaAvroSerializer serializer = serdes.serializer();
    GenericRecord fine = pair(8, "fine");
    GenericRecord overflowing = pair(123_456_789, "overflow");
    byte[] expected = serializer.serialize("overflows", fine);

    assertThatThrownBy(() -> serializer.serialize("overflows", overflowing))
        .isInstanceOf(SerializationException.class).hasMessageContaining("subject 'overflows-value'")
        .hasMessageContaining("what the rules made of it, nests deeper than this thread's stack")
        .hasMessageNotContaining("123456789");

    assertThat(serializer.serialize("overflows", fine)).isEqualTo(expected);
  }

  /**
   * The rules read a body before the decoder does: one nested deeper than the thread's stack (half a million levels
   * of a recursive schema, 1 MB) is a malformed payload there too, never an Error out of the deserializer.
   */
  @Test
  void aPayloadNestedDeeperThanTheStack_onARouteWithReadRules_isMalformed() {
    int id = registry.register("deep-value", ReadTrustTest.NODE, List.of(), Contracts.domain(
        rule("check", Rule.Kind.CONDITION, Rule.Mode.READ, "CHECK", "ok")));

    assertThatThrownBy(() -> serdes.deserializer().deserialize("deep", ReadTrustTest.nested(id, 500_000)))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("com.acme.Node")
        .hasMessageContaining("nests deeper than this thread's stack can read before its data contract rules");
  }

  @Test
  void actions_defaultToErrorOnFailure_andSplitWriteRead() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("chk", Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CHECK", "ok", "RECORD", "RECORD,NONE")));
    byte[] bad = serdes.serializer().serialize("items", item("bad"));

    assertThat(ACTIONS).containsExactly("chk failed: Expr failed: 'ok' on WRITE");
    assertThat(s(serdes.deserializer().deserialize("items", bad))).as("NONE on read: passed over").isEqualTo("bad");
    serdes.serializer().serialize("items", item("ok"));
    assertThat(ACTIONS).containsExactly("chk failed: Expr failed: 'ok' on WRITE", "chk passed on WRITE");
  }

  @Test
  void settings_overrideTheRulesOwnActionsAndDisabled() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("chk", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "ok")));

    assertThat(serdes.serializer("rule.executors.chk.disabled", true).serialize("items", item("bad"))).isNotNull();
    assertThat(serdes.serializer("rule.executors._CHECK_.onFailure", "NONE").serialize("items", item("bad")))
        .isNotNull();
    assertThatThrownBy(() -> serdes.serializer("rule.executors._default_.onFailure", "ERROR")
        .serialize("items", item("bad"))).isInstanceOf(SerializationException.class);
  }

  /** Issue 49, item 12: a rule registered with {@code "disabled": true} runs neither on write nor on read. */
  @Test
  void aRuleRegisteredDisabled_runsNeitherOnWriteNorOnRead() {
    Rule on = rule("chk", Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CHECK", "ok");
    Rule off = new Rule("chk", null, Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CHECK", java.util.Set.of(), Map.of(),
        "ok", "RECORD", "RECORD", true);
    Rule offTransform = new Rule("app", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "APPEND",
        java.util.Set.of(), Map.of(), "-x", null, null, true);
    registry.register("on-value", V1, List.of(), Contracts.domain(on));
    registry.register("off-value", V1, List.of(), Contracts.domain(off, offTransform));
    assertThatThrownBy(() -> serdes.serializer().serialize("on", item("bad")))
        .as("the same rule, enabled, fails the record").isInstanceOf(SerializationException.class);

    byte[] written = serdes.serializer().serialize("off", item("bad"));

    assertThat(s(serdes.deserializer().deserialize("off", written))).isEqualTo("bad");
    assertThat(written).isEqualTo(serdes.serializer("rules.ignore", true).serialize("off", item("bad")));
    assertThat(ACTIONS).as("no action ran: the rule did not").isEmpty();
  }

  /**
   * Issue 49, item 7: an executor's own exception may quote a value; the record's error, each of its causes and
   * the action's outcome name the rule and the exception's class, never the value, and keep the stack trace.
   */
  @Test
  void anExecutorsOwnException_quotesNoValue_anywhere() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("quote", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "QUOTING", null, null, "RECORD")));

    serdes.serializer().serialize("items", item("123-45-6789"));
    assertThat(ACTIONS).singleElement().asString().contains("java.lang.IllegalArgumentException")
        .doesNotContain("45-67");

    registry.register("strict-value", V1, List.of(), Contracts.domain(
        rule("quote", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "QUOTING", null)));
    Throwable thrown = catchThrowable(() -> serdes.serializer().serialize("strict", item("123-45-6789")));
    assertThat(thrown).isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: quote")
        .hasMessageContaining("java.lang.IllegalArgumentException");
    int causes = 0;
    for (Throwable t = thrown; t != null; t = t.getCause(), causes++) {
      assertThat(String.valueOf(t.getMessage())).as("%s", t.getClass()).doesNotContain("45-67");
    }
    assertThat(causes).as("the error, the rule's failure, and both exceptions' classes").isEqualTo(4);
    assertThat(thrown.getCause().getCause().getStackTrace()[0].getClassName()).startsWith(Quoting.class.getName());
  }

  /** Issue 49, item 7: a rule's result that does not fit the schema is refused without its value (Avro quotes it). */
  @Test
  void aRuleResultThatDoesNotFit_isRefusedWithoutItsValue_onWriteAndRead() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("retype", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "RETYPE", null)));
    byte[] written = serdes.serializer("rules.ignore", true).serialize("items", item("987654321"));

    for (Throwable thrown : List.of(
        catchThrowable(() -> serdes.serializer().serialize("items", item("987654321"))),
        catchThrowable(() -> serdes.deserializer().deserialize("items", written)))) {
      assertThat(thrown).isInstanceOf(SerializationException.class).hasMessageContaining("does not match");
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).as("%s", t.getClass()).doesNotContain("987654321");
      }
    }
  }

  /** Issue 49, item 7: an outcome, logged, shows the rule and never the record. */
  @Test
  void anOutcome_printsTheRuleNotTheRecord() {
    Rule chk = rule("chk", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "ok");
    RuleTarget target = new RuleTarget(chk, Rule.Mode.WRITE, "items-value", V1, Contracts.domain(chk), List.of(chk),
        0, null);
    String printed = new RuleOutcome(target, new io.kavro.serde.rules.RuleInput("items", false, null),
        item("123-45-6789"), new RuleException("Expr failed")).toString();
    assertThat(printed).contains("chk").contains("items-value").contains("failed").doesNotContain("45-67");
  }

  @Test
  void enableAt_skipsARuleSetMeantForAnotherPlace() {
    Rule chk = rule("chk", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "ok");
    registry.register("gateway-value", V1, List.of(), Contracts.domainAt("GATEWAY", chk));
    registry.register("client-value", V1, List.of(), Contracts.domainAt("CLIENT", chk));

    assertThat(serdes.serializer().serialize("gateway", item("bad"))).as("not for a client").isNotNull();
    assertThatThrownBy(() -> serdes.serializer().serialize("client", item("bad")))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: chk");
    assertThatThrownBy(() -> serdes.serializer("execution.environment", "GATEWAY").serialize("gateway", item("bad")))
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void settingsWithNullValues_configureAsBefore() {
    java.util.Map<String, Object> config = serdes.config();
    config.put("some.application.setting", null);
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config, false);
      assertThat(serializer.serialize("items", item("x"))).isNotNull();
    }
  }

  @Test
  void ruleNameHeader_skipsThatRuleOnRead() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("r1", Rule.Kind.TRANSFORM, Rule.Mode.READ, "APPEND", "-r1"),
        rule("r2", Rule.Kind.TRANSFORM, Rule.Mode.READ, "APPEND", "-r2")));
    byte[] written = serdes.serializer().serialize("items", item("x"));
    RecordHeaders headers = new RecordHeaders();
    headers.add(RulePlan.RULE_NAME_HEADER, "r1".getBytes(StandardCharsets.UTF_8));

    try (io.kavro.registry.LogCapture logs = new io.kavro.registry.LogCapture()) {
      KafkaAvroDeserializer deserializer = serdes.deserializer();
      assertThat(s(deserializer.deserialize("items", headers, written))).isEqualTo("x-r2");
      assertThat(s(deserializer.deserialize("items", headers, written))).isEqualTo("x-r2");

      assertThat(logs.lines(org.apache.logging.log4j.Level.WARN)).as("review item 4: a skip is warned of, once")
          .filteredOn(line -> line.contains("__rule.name")).singleElement().asString()
          .contains("rule 'r1'").contains("items-value").contains("skipped");
    }
  }

  @Test
  void parameters_applyDefaultThenTypeThenName() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("append", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "APPEND", "-")));
    byte[] written = serdes.serializer("rule.executors._default_.param.extra", "D",
        "rule.executors._APPEND_.param.extra", "T", "rule.executors.append.param.extra", "N").serialize("items",
        item("x"));
    byte[] typed = serdes.serializer("rule.executors._default_.param.extra", "D",
        "rule.executors._APPEND_.param.extra", "T").serialize("items", item("x"));

    KafkaAvroDeserializer plain = serdes.deserializer("rules.ignore", true);
    assertThat(s(plain.deserialize("items", written))).isEqualTo("x-N");
    assertThat(s(plain.deserialize("items", typed))).isEqualTo("x-T");
  }

  @Test
  void encodingRules_runOnTheBody_insideTheFraming() {
    registry.register("items-value", V1, List.of(), Contracts.encoding(
        rule("xor", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "XOR", "90")));
    byte[] plain = serdes.serializer("rules.ignore", true).serialize("items", item("x"));

    byte[] written = serdes.serializer().serialize("items", item("x"));

    assertThat(Arrays.copyOfRange(written, 0, 5)).isEqualTo(Arrays.copyOfRange(plain, 0, 5));
    assertThat(Arrays.copyOfRange(written, 5, written.length))
        .isEqualTo(xor(Arrays.copyOfRange(plain, 5, plain.length), 90));
    assertThat(s(serdes.deserializer().deserialize("items", written))).isEqualTo("x");
  }

  @Test
  void migration_upgradesAnOldRecordToTheLatestVersion() {
    registry.setCompatibility("items-value", CompatibilityLevel.NONE);
    registry.register("items-value", V1);
    registry.register("items-value", V2, List.of(), Contracts.migration(Map.of("major_version", "2"),
        rule("sToT", Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE, "RENAME", "s:t")));
    byte[] old = serdes.serializer("auto.register.schemas", false, "use.schema.id", 1).serialize("items",
        item("x"));

    Object read = serdes.deserializer("use.latest.version", true).deserialize("items", old);

    assertThat(((GenericRecord) read).getSchema()).isEqualTo(V2);
    assertThat(((GenericRecord) read).get("t").toString()).isEqualTo("x");
  }

  @Test
  void ruleTypeWithoutExecutor_refusesTheSchema_namingTheSettings() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("mine", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "CUSTOM", null)));

    assertThatThrownBy(() -> serdes.serializer().serialize("items", item("x")))
        .isInstanceOf(SerializationException.class).hasCauseInstanceOf(UnsupportedRulesException.class)
            .hasRootCauseInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("rule 'mine' (CUSTOM").hasMessageContaining("rule.executors");
  }

  @Test
  void aRegistryOutageWrappedTwiceInsideARule_isRetriable_neverPassedOverByNone() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("decrypt", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "OUTAGE", null, null, "ERROR,NONE")));
    byte[] written = serdes.serializer().serialize("items", item("ciphertext"));

    assertThatThrownBy(() -> serdes.deserializer().deserialize("items", written))
        .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("get DEK failed: HTTP 503")
        .hasCauseInstanceOf(RegistryUnavailableException.class);
  }

  /** An executor's own exception that wraps an unavailable KMS is retriable too: NONE never writes plaintext. */
  @Test
  void anUnavailableKmsWrappedInAnotherException_isRetriable_neverPassedOverByNone() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("encryptS", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "THROTTLED", null, null, "NONE")));

    assertThatThrownBy(() -> serdes.serializer().serialize("items", item("secret")))
        .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("the KMS throttled")
        .hasMessageContaining("encryptS");
  }

  /** Review of issue 49, item 1: a Kafka RetriableException among the causes is retriable, whatever NONE says. */
  @Test
  void aKafkaRetriableExceptionInsideARule_isRetriable_neverPassedOverByNone() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("encryptS", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "THROTTLED", "kafka", null, "NONE")));

    assertThatThrownBy(() -> serdes.serializer().serialize("items", item("secret")))
        .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("the KMS timed out")
        .hasMessageContaining("encryptS");
  }

  /**
   * Issue 37, item 8b: a registry URL that leads to no registry's API, met inside a rule, is the client's
   * configuration error: not retriable, and never passed over by the rule's NONE.
   */
  @Test
  void aWrongRegistryUrlWrappedTwiceInsideARule_isNotRetriable_neverPassedOverByNone() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("decrypt", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "WRONG_URL", null, null, "ERROR,NONE")));
    byte[] written = serdes.serializer().serialize("items", item("ciphertext"));

    assertThatThrownBy(() -> serdes.deserializer().deserialize("items", written))
        .isInstanceOf(SerializationException.class)
        .isNotInstanceOf(org.apache.kafka.common.errors.RetriableException.class)
        .hasMessageContaining("check that schema.registry.url is the registry's base URL")
        .hasCauseInstanceOf(WrongRegistryUrlException.class);
  }

  /**
   * Issue 37, item 3: a refused write names the field, but on a route with rules (which may be there to encrypt the
   * value) never the value: not in the message, nor in any cause's (Avro's writer quotes it). Without rules, the
   * same datum's value is shown, so the datum does provoke a message that quotes it.
   */
  @Test
  void aRefusedWrite_onARouteWithRules_showsTheValueNowhere() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("append", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "APPEND", "x")));
    registry.register("plain-value", V1);
    GenericRecord bad = new GenericData.Record(V1);
    bad.put("s", 987654321L);
    KafkaAvroSerializer avrosOwnWriter = serdes.serializer("avro.fast.codec", false);

    assertThatThrownBy(() -> avrosOwnWriter.serialize("plain", bad)).hasMessageContaining("987654321");
    Throwable refused = catchThrowable(() -> avrosOwnWriter.serialize("items", bad));
    assertThat(refused).isInstanceOf(SerializationException.class).hasMessageContaining("Item.s")
        .hasMessageContaining("java.lang.Long");
    for (Throwable t = refused; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as("the message of %s", t.getClass().getName())
          .doesNotContain("987654321");
    }
  }

  @Test
  void oneSchemaIdUnderTwoTopicsSubjects_eachTopicsRecordRunsItsOwnSubjectsRules() {
    Rule subject = rule("subject", Rule.Kind.TRANSFORM, Rule.Mode.READ, "SUBJECT", null);
    int id = registry.register("a-value", V1, List.of(), Contracts.domain(subject));
    assertThat(registry.register("b-value", V1, List.of(), Contracts.domain(subject))).isEqualTo(id);
    byte[] a = serdes.serializer().serialize("a", item("x"));
    byte[] b = serdes.serializer().serialize("b", item("x"));
    KafkaAvroDeserializer deserializer = serdes.deserializer();

    assertThat(s(deserializer.deserialize("a", a))).isEqualTo("x@a-value");
    assertThat(s(deserializer.deserialize("b", b))).as("not the route built for topic a").isEqualTo("x@b-value");
    assertThat(s(deserializer.deserialize("a", a))).isEqualTo("x@a-value");
  }

  @Test
  void aFailingExecutor_followsOnFailure_andTheRecordIsNotWritten() {
    registry.register("items-value", V1, List.of(), Contracts.domain(
        rule("boom", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "XOR", "1")));

    assertThatThrownBy(() -> serdes.serializer().serialize("items", item("x")))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: boom")
        .hasMessageContaining("ClassCastException");
  }

}
