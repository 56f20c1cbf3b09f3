package io.kavro.serde;

import static io.kavro.serde.Contracts.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, item 4: the rule metrics of Confluent's {@code RuleMetrics} (schema-registry 8.x, read at {@code
 * 794611b}), through Kafka's own {@code PluginMetricsImpl}: its names, its tags, and its dispatch loop's counts (a
 * rule of another phase, or disabled, is skipped and not executed; a condition that does not hold is a failure; an
 * action is counted when it is dispatched, {@code ERROR} by default on failure, none by default on success).
 */
class RuleMetricsTest {
  private static final Schema ITEM = new Schema.Parser().parse("""
      {"type":"record","name":"Item","namespace":"com.acme","fields":[{"name":"s","type":"string"}]}""");
  /** Confluent's tags on every rule metric, beside {@code action} on {@code rule.actions.total}. */
  private static final Set<String> TAGS = Set.of("config", "class", "rule_type", "rule_mode", "subject", "rule_name");

  private final Serdes serdes = new Serdes("rule.executors", "append,check,rename",
      "rule.executors.append.class", RulesTest.Append.class.getName(),
      "rule.executors.rename.class", RulesTest.Rename.class.getName(),
      "rule.executors.check.class", RulesTest.Check.class.getName());
  private final MockRegistry registry = MockRegistries.scope(serdes.scope);
  private final Metrics kafkaMetrics = new Metrics();

  @AfterEach
  void close() {
    kafkaMetrics.close();
    serdes.close();
  }

  private static GenericRecord item(String s) {
    GenericRecord item = new GenericData.Record(ITEM);
    item.put("s", s);
    return item;
  }

  private static Rule disabled(String name, Rule.Mode mode, String type, String expr) {
    return new Rule(name, null, Rule.Kind.CONDITION, mode, type, Set.of(), Map.of(), expr, null, null, true);
  }

  private KafkaAvroSerializer serializer(Object... settings) {
    KafkaAvroSerializer serializer = serdes.serializer(settings);
    serializer.withPluginMetrics(new PluginMetricsImpl(kafkaMetrics, Map.of("config", "value.serializer", "class",
        "KafkaAvroSerializer")));
    return serializer;
  }

  private KafkaAvroDeserializer deserializer(Object... settings) {
    KafkaAvroDeserializer deserializer = serdes.deserializer(settings);
    deserializer.withPluginMetrics(new PluginMetricsImpl(kafkaMetrics, Map.of("config", "value.deserializer",
        "class", "KafkaAvroDeserializer")));
    return deserializer;
  }

  /**
   * The rule metrics of {@code config}, each as {@code name{rule_name,rule_mode[,action]}} with its value; every
   * one checked for Confluent's group and tags.
   */
  private Map<String, Object> rules(String config, String subject) {
    Map<String, Object> values = new TreeMap<>();
    for (Map.Entry<MetricName, KafkaMetric> e : kafkaMetrics.metrics().entrySet()) {
      MetricName name = e.getKey();
      Map<String, String> tags = name.tags();
      if (!name.name().startsWith("rule.") || !config.equals(tags.get("config"))
          || !subject.equals(tags.get("subject"))) {
        continue;
      }
      assertThat(name.group()).isEqualTo("plugins");
      assertThat(tags.keySet()).as(name.toString()).containsAll(TAGS);
      assertThat(tags).as(name.toString()).hasSize(name.name().equals("rule.actions.total") ? 7 : 6);
      String key = name.name() + "{" + tags.get("rule_name") + "," + tags.get("rule_type") + ","
          + tags.get("rule_mode") + (tags.containsKey("action") ? "," + tags.get("action") : "") + "}";
      values.put(key, e.getValue().metricValue());
    }
    return values;
  }

  @Test
  void conditions_passFailDisabledAndOtherPhase_countedAsConfluentCountsThem() {
    registry.register("items-value", ITEM, List.of(), Contracts.domain(
        rule("pass", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "x", "NONE", null),
        rule("fail", Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CHECK", "zzz", null, "NONE,NONE"),
        disabled("off", Rule.Mode.WRITE, "CHECK", "x"),
        rule("onread", Rule.Kind.TRANSFORM, Rule.Mode.READ, "APPEND", "-r")));
    KafkaAvroSerializer serializer = serializer();
    KafkaAvroDeserializer deserializer = deserializer();

    long before = System.currentTimeMillis();
    byte[] written = null;
    for (int i = 0; i < 3; i++) {
      written = serializer.serialize("items", item("ax"));
    }
    long after = System.currentTimeMillis();
    deserializer.deserialize("items", written);
    deserializer.deserialize("items", written);

    Map<String, Object> write = rules("value.serializer", "items-value");
    Object lastSuccess = write.remove("rule.last.success.timestamp.ms{pass,CHECK,WRITE}");
    assertThat(lastSuccess).isInstanceOf(Long.class);
    // a minute's margin: the wall clock of a fresh machine may be stepped meanwhile; millis, not seconds
    assertThat((Long) lastSuccess).isBetween(before - 60_000, after + 60_000);
    assertThat(write).containsExactlyInAnyOrderEntriesOf(Map.of(
        "rule.executions.total{pass,CHECK,WRITE}", 3.0,
        "rule.success.total{pass,CHECK,WRITE}", 3.0,
        "rule.actions.total{pass,CHECK,WRITE,NONE}", 3.0,
        "rule.executions.total{fail,CHECK,WRITE}", 3.0,
        "rule.failure.total{fail,CHECK,WRITE}", 3.0,
        "rule.actions.total{fail,CHECK,WRITE,NONE}", 3.0,
        "rule.skipped.total{off,CHECK,WRITE}", 3.0,
        "rule.skipped.total{onread,APPEND,WRITE}", 3.0));

    Map<String, Object> read = rules("value.deserializer", "items-value");
    assertThat(read.remove("rule.last.success.timestamp.ms{onread,APPEND,READ}")).isInstanceOf(Long.class);
    assertThat(read).as("on read, the write rules are skipped; no action runs on a success without onSuccess")
        .containsExactlyInAnyOrderEntriesOf(Map.of(
            "rule.executions.total{onread,APPEND,READ}", 2.0,
            "rule.success.total{onread,APPEND,READ}", 2.0,
            "rule.executions.total{fail,CHECK,READ}", 2.0,
            "rule.failure.total{fail,CHECK,READ}", 2.0,
            "rule.actions.total{fail,CHECK,READ,NONE}", 2.0,
            "rule.skipped.total{pass,CHECK,READ}", 2.0,
            "rule.skipped.total{off,CHECK,READ}", 2.0));
  }

  @Test
  void aFailureWithoutOnFailure_countsTheErrorAction_andTheRulesAfterItAreNotDispatched() {
    registry.register("strict-value", ITEM, List.of(), Contracts.domain(
        rule("strict", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "zzz"),
        rule("later", Rule.Kind.CONDITION, Rule.Mode.READ, "CHECK", "x")));
    KafkaAvroSerializer serializer = serializer();

    assertThatThrownBy(() -> serializer.serialize("strict", item("ax"))).isInstanceOf(SerializationException.class);

    assertThat(rules("value.serializer", "strict-value")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "rule.executions.total{strict,CHECK,WRITE}", 1.0,
        "rule.failure.total{strict,CHECK,WRITE}", 1.0,
        "rule.actions.total{strict,CHECK,WRITE,ERROR}", 1.0));
  }

  @Test
  void aVersionWhoseRulesAllRunInAnotherPhase_countsThemSkipped_andWritesTheSameBytes() {
    registry.register("readonly-value", ITEM, List.of(), Contracts.domain(
        rule("onread", Rule.Kind.TRANSFORM, Rule.Mode.READ, "APPEND", "-r")));
    byte[] unmetered = serdes.serializer("rule.metrics.enable", false).serialize("readonly", item("ax"));
    KafkaAvroSerializer serializer = serializer();

    assertThat(serializer.serialize("readonly", item("ax"))).isEqualTo(unmetered);
    serializer.serialize("readonly", item("ax"));

    assertThat(rules("value.serializer", "readonly-value")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "rule.skipped.total{onread,APPEND,WRITE}", 2.0));
  }

  @Test
  void ruleMetricsEnableFalse_countsNoRule() {
    registry.register("items-value", ITEM, List.of(), Contracts.domain(
        rule("pass", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "x"),
        rule("onread", Rule.Kind.TRANSFORM, Rule.Mode.READ, "APPEND", "-r")));
    KafkaAvroSerializer serializer = serializer("rule.metrics.enable", "false");

    serializer.serialize("items", item("ax"));

    assertThat(rules("value.serializer", "items-value")).isEmpty();
    assertThat(kafkaMetrics.metrics().keySet()).as("the serde's other metrics stay")
        .anyMatch(name -> name.name().equals("records-serialized-total"));
  }

  @Test
  void aVersionWhoseRulesAllRunOnWrite_countsThemSkippedOnRead_andReadsTheSameValue() {
    registry.register("writeonly-value", ITEM, List.of(), Contracts.domain(
        rule("onwrite", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "APPEND", "-w")));
    byte[] written = serdes.serializer("rule.metrics.enable", false).serialize("writeonly", item("ax"));
    KafkaAvroDeserializer deserializer = deserializer();

    assertThat(deserializer.deserialize("writeonly", written)).isEqualTo(item("ax-w"));
    deserializer.deserialize("writeonly", written);

    assertThat(rules("value.deserializer", "writeonly-value")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "rule.skipped.total{onwrite,APPEND,READ}", 2.0));
  }

  /**
   * A migration step is dispatched when it has a rule of its direction (Confluent's {@code hasRules}): there the
   * other direction's rule is skipped; a step with none is not dispatched, and counts nothing.
   */
  @Test
  void migrations_countTheOtherDirectionSkipped_onlyInStepsThatAreDispatched() {
    Schema v2 = new Schema.Parser().parse("""
        {"type":"record","name":"Item","namespace":"com.acme","fields":[{"name":"t","type":"string"}]}""");
    Schema v3 = new Schema.Parser().parse("""
        {"type":"record","name":"Item","namespace":"com.acme","version":"3","fields":[{"name":"t","type":"string"}]}""");
    registry.setCompatibility("items-value", io.kavro.registry.CompatibilityLevel.NONE);
    registry.register("items-value", ITEM);
    registry.register("items-value", v2, List.of(), Contracts.migration(Map.of(),
        rule("sToT", Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE, "RENAME", "s:t"),
        rule("tToS", Rule.Kind.TRANSFORM, Rule.Mode.DOWNGRADE, "RENAME", "t:s")));
    registry.register("items-value", v3, List.of(), Contracts.migration(Map.of(),
        rule("back", Rule.Kind.TRANSFORM, Rule.Mode.DOWNGRADE, "RENAME", "t:s")));
    byte[] old = serdes.serializer("auto.register.schemas", false, "use.schema.id", 1).serialize("items",
        item("x"));

    Object read = deserializer("use.latest.version", true).deserialize("items", old);

    assertThat(((GenericRecord) read).get("t").toString()).isEqualTo("x");
    Map<String, Object> counts = rules("value.deserializer", "items-value");
    assertThat(counts.remove("rule.last.success.timestamp.ms{sToT,RENAME,UPGRADE}")).isInstanceOf(Long.class);
    assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(
        "rule.executions.total{sToT,RENAME,UPGRADE}", 1.0,
        "rule.success.total{sToT,RENAME,UPGRADE}", 1.0,
        "rule.skipped.total{tToS,RENAME,UPGRADE}", 1.0));
  }

  /** The client's own {@code metrics()}: Kafka 4.x hands the producer's and consumer's plugins their metrics. */
  @Test
  void aProducersAndAConsumersMetrics_showTheRuleMetrics() {
    registry.register("items-value", ITEM, List.of(), Contracts.domain(
        rule("pass", Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CHECK", "x")));
    KafkaAvroSerializer serializer = serdes.serializer();
    KafkaAvroDeserializer deserializer = serdes.deserializer();
    Map<String, Object> client = Map.of("bootstrap.servers", "127.0.0.1:9", "client.id", "rule-metrics");
    try (KafkaProducer<byte[], Object> producer = new KafkaProducer<>(client, new ByteArraySerializer(),
        serializer); KafkaConsumer<byte[], Object> consumer = new KafkaConsumer<>(
        Map.of("bootstrap.servers", "127.0.0.1:9", "group.id", "rule-metrics"), new ByteArrayDeserializer(),
        deserializer)) {
      byte[] written = serializer.serialize("items", item("ax"));
      deserializer.deserialize("items", written);

      assertThat(count(producer.metrics(), "rule.executions.total", "value.serializer", "WRITE")).isEqualTo(1.0);
      assertThat(count(consumer.metrics(), "rule.success.total", "value.deserializer", "READ")).isEqualTo(1.0);
    }
  }

  /**
   * Kafka Streams hands no plugin metrics to a {@code Serde} or to its halves (kafka-streams 4.4 has no KIP-877
   * call: it calls a serde's serializer and deserializer itself, outside any client), so an {@link AvroSerde} in a
   * topology shows none. Its halves are the serde's own {@code Monitorable}s: handed to a producer and a consumer,
   * they show the rules that the serde counted, across a second configure of the serde.
   */
  @Test
  void anAvroSerdesHalves_handedToClients_showTheRulesTheSerdeCounted() {
    registry.register("items-value", ITEM, List.of(), Contracts.domain(
        rule("pass", Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CHECK", "x")));
    try (AvroSerde<Object> serde = new AvroSerde<>()) {
      serde.configure(serdes.config(), false);
      byte[] written = serde.serializer().serialize("items", item("ax"));
      serde.deserializer().deserialize("items", written);
      serde.configure(serdes.config(), false); // Streams configures its serdes once; a second one keeps the counts
      Map<String, Object> client = Map.of("bootstrap.servers", "127.0.0.1:9", "client.id", "serde-rule-metrics");
      try (KafkaProducer<byte[], Object> producer = new KafkaProducer<>(client, new ByteArraySerializer(),
          serde.serializer()); KafkaConsumer<byte[], Object> consumer = new KafkaConsumer<>(
          Map.of("bootstrap.servers", "127.0.0.1:9", "group.id", "serde-rule-metrics"),
          new ByteArrayDeserializer(), serde.deserializer())) {
        written = serde.serializer().serialize("items", item("bx"));
        serde.deserializer().deserialize("items", written);

        assertThat(count(producer.metrics(), "rule.executions.total", "value.serializer", "WRITE")).isEqualTo(2.0);
        assertThat(count(consumer.metrics(), "rule.success.total", "value.deserializer", "READ")).isEqualTo(2.0);
      }
    }
  }

  /**
   * Issue 51 review: halves made with a {@link RuleMetricsOwner} (as the Connect converter makes them) show no rule
   * metrics of their own, whatever client they are handed to (else the first to be handed one would show the
   * other's counts under its own {@code config}, and its close would remove them all): only the owner shows them.
   */
  @Test
  void halvesMadeWithAnOwner_handedToClients_showNoRuleMetrics_theOwnerShowsBoth() throws Exception {
    registry.register("items-value", ITEM, List.of(), Contracts.domain(
        rule("pass", Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CHECK", "x")));
    RuleMetricsOwner owner = new RuleMetricsOwner();
    AvroSerdeConfig config = new AvroSerdeConfig(serdes.config(), false);
    try (io.kavro.registry.SchemaRegistryClient client = serdes.registry()) {
      KafkaAvroSerializer serializer = new KafkaAvroSerializer(client, config, owner);
      KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(client, config, owner);
      try (KafkaProducer<byte[], Object> producer = new KafkaProducer<>(Map.of("bootstrap.servers", "127.0.0.1:9",
          "client.id", "owned-rule-metrics"), new ByteArraySerializer(), serializer);
          KafkaConsumer<byte[], Object> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", "127.0.0.1:9",
              "group.id", "owned-rule-metrics"), new ByteArrayDeserializer(), deserializer)) {
        byte[] written = serializer.serialize("items", item("ax"));
        deserializer.deserialize("items", written);

        assertThat(producer.metrics().keySet()).noneMatch(name -> name.name().startsWith("rule."))
            .as("the serializer's other metrics are the producer's")
            .anyMatch(name -> name.name().equals("records-serialized-total"));
        assertThat(consumer.metrics().keySet()).noneMatch(name -> name.name().startsWith("rule."));
        assertThat(kafkaMetrics.metrics().keySet()).noneMatch(name -> name.name().startsWith("rule."));

        owner.register(new PluginMetricsImpl(kafkaMetrics, Map.of("config", "value.converter", "class",
            "AvroConverter")));

        Map<String, Object> counts = rules("value.converter", "items-value");
        assertThat(counts.remove("rule.last.success.timestamp.ms{pass,CHECK,WRITE}")).isInstanceOf(Long.class);
        assertThat(counts.remove("rule.last.success.timestamp.ms{pass,CHECK,READ}")).isInstanceOf(Long.class);
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(
            "rule.executions.total{pass,CHECK,WRITE}", 1.0,
            "rule.success.total{pass,CHECK,WRITE}", 1.0,
            "rule.executions.total{pass,CHECK,READ}", 1.0,
            "rule.success.total{pass,CHECK,READ}", 1.0));
      }
    }
  }

  /** The metric's value, found by Confluent's tags; the client's own {@code client-id} beside them, no other. */
  private static Object count(Map<MetricName, ? extends org.apache.kafka.common.Metric> metrics, String name,
      String config, String phase) {
    Map<String, String> expected = Map.of("config", config, "rule_type", "CHECK", "rule_mode", phase, "subject",
        "items-value", "rule_name", "pass");
    return metrics.entrySet().stream().filter(e -> e.getKey().name().equals(name)
        && e.getKey().group().equals("plugins")
        && e.getKey().tags().entrySet().containsAll(expected.entrySet())
        && e.getKey().tags().keySet().equals(Set.of("client-id", "config", "class", "rule_type", "rule_mode",
            "subject", "rule_name")))
        .map(e -> e.getValue().metricValue()).findFirst().orElse(null);
  }

  /** Once its counters are planned, a record's counting allocates nothing. */
  @Test
  void counting_allocatesNothingPerRecord() {
    RuleMetrics metrics = new RuleMetrics();
    RuleMetrics.Counters skipped = metrics.of("CHECK", "WRITE", "items-value", "off");
    RulePlan plan = new RulePlan(List.of(), List.of(List.of(skipped, metrics.of("CHECK", "WRITE", "items-value",
        "onread"))), new EncryptionBypassLog());
    RuleMetrics.Counters ran = metrics.of("CHECK", "WRITE", "items-value", "pass");
    RuleMetrics.Count action = ran.action("NONE");
    metrics.register(new PluginMetricsImpl(kafkaMetrics, Map.of("config", "value.serializer", "class", "K")));
    for (int i = 0; i < 20_000; i++) { // warm
      plan.countSkipped();
      ran.succeeded();
      ran.failed();
      action.increment();
    }
    long before = allocatedByThisThread();
    for (int i = 0; i < 100_000; i++) {
      plan.countSkipped();
      ran.succeeded();
      ran.failed();
      action.increment();
    }
    long allocated = allocatedByThisThread() - before;

    assertThat(allocated).as("bytes allocated by 100000 records' counting").isLessThan(64 * 1024);
    assertThat(kafkaMetrics.metric(kafkaMetrics.metricName("rule.skipped.total", "plugins", Map.of("config",
        "value.serializer", "class", "K", "rule_type", "CHECK", "rule_mode", "WRITE", "subject", "items-value",
        "rule_name", "off"))).metricValue()).isEqualTo(120_000.0);
  }

  /**
   * Issue 51 review, item 1: a schema whose rules all are write-side gets, with rule metrics, a read plan that only
   * counts them as skipped. Its records must still take the warm path: reading one allocates no more than reading
   * it without rule metrics, where the route has no rules (before the fix each record boxed its id, ids above 127,
   * for a route-table lookup).
   */
  @Test
  void writeOnlyRules_readWarm_allocateNoMoreThanWithoutMetrics() {
    for (int i = 0; i < 130; i++) { // ids above 127, which Integer.valueOf does not cache
      registry.register("filler" + i + "-value", new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"F"
          + i + "\",\"fields\":[]}"), Map.of());
    }
    registry.register("items-value", ITEM, List.of(), Contracts.domain(
        rule("onwrite", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "x")));
    byte[] written = serializer().serialize("items", item("ax"));
    KafkaAvroDeserializer counting = deserializer();
    KafkaAvroDeserializer uncounted = serdes.deserializer("rule.metrics.enable", "false");

    long countingBytes = 0;
    long uncountedBytes = 0;
    for (int round = 0; round < 5; round++) { // the last round, warm, is measured
      countingBytes = allocatedReading(counting, written);
      uncountedBytes = allocatedReading(uncounted, written);
    }

    assertThat(countingBytes).as("bytes allocated reading 100000 records whose rules only count skips (vs %d "
        + "without rule metrics)", uncountedBytes).isLessThan(uncountedBytes + 100_000 * 8); // a boxed id: 16
    assertThat(rules("value.deserializer", "items-value"))
        .containsEntry("rule.skipped.total{onwrite,CHECK,READ}", 5 * 100_000.0);
  }

  private static long allocatedReading(KafkaAvroDeserializer deserializer, byte[] payload) {
    long before = allocatedByThisThread();
    for (int i = 0; i < 100_000; i++) {
      deserializer.deserialize("items", payload);
    }
    return allocatedByThisThread() - before;
  }

  /** Issue 51 review, item 2: the metrics kept to be shown at registration are let go then, and no more kept. */
  @Test
  void register_letsGoOfTheMetricsItWaitedFor() {
    RuleMetrics metrics = new RuleMetrics();
    metrics.of("CHECK", "WRITE", "items-value", "before").skipped();
    assertThat(metrics.waiting()).isPositive();

    metrics.register(new PluginMetricsImpl(kafkaMetrics, Map.of("config", "value.serializer", "class", "K")));
    RuleMetrics.Counters after = metrics.of("CHECK", "WRITE", "items-value", "after");
    after.skipped();

    assertThat(metrics.waiting()).isZero();
    for (String rule : List.of("before", "after")) {
      assertThat(kafkaMetrics.metric(kafkaMetrics.metricName("rule.skipped.total", "plugins", Map.of("config",
          "value.serializer", "class", "K", "rule_type", "CHECK", "rule_mode", "WRITE", "subject", "items-value",
          "rule_name", rule))).metricValue()).as(rule).isEqualTo(1.0);
    }
  }

  /**
   * A metric that Kafka refuses, its name taken when the client hands its metrics or its {@code PluginMetrics}
   * closed with the client, fails neither the client's start nor a record: it is counted, and not shown. Names
   * taken are one warning; the client's close, the plugin's normal end, none.
   */
  @Test
  void aMetricKafkaRefuses_failsNoRecord_andNoRegistration_andWarnsOnceOfANameTaken() throws Exception {
    Map<String, String> tags = Map.of("config", "value.serializer", "class", "K");
    List<MetricName> taken = new java.util.ArrayList<>();
    for (String rule : List.of("early", "earlier", "after")) {
      taken.add(kafkaMetrics.metricName("rule.skipped.total", "plugins", "elsewhere", Map.of("config",
          "value.serializer", "class", "K", "rule_type", "CHECK", "rule_mode", "WRITE", "subject", "items-value",
          "rule_name", rule)));
      kafkaMetrics.addMetric(taken.get(taken.size() - 1),
          (org.apache.kafka.common.metrics.Measurable) (config, now) -> -1);
    }
    RuleMetrics metrics = new RuleMetrics();
    metrics.of("CHECK", "WRITE", "items-value", "early").skipped();
    metrics.of("CHECK", "WRITE", "items-value", "earlier").skipped();
    metrics.of("CHECK", "WRITE", "items-value", "shown").skipped();
    PluginMetricsImpl plugin = new PluginMetricsImpl(kafkaMetrics, tags);

    try (LogCapture logs = new LogCapture()) {
      metrics.register(plugin);
      assertThat(kafkaMetrics.metrics().keySet()).as("the metrics after the refused ones are shown")
          .anyMatch(name -> "shown".equals(name.tags().get("rule_name")));
      metrics.of("CHECK", "WRITE", "items-value", "after").skipped(); // taken too, and refused with its event
      plugin.close(); // as a client closes it
      for (String rule : List.of("late", "later")) {
        RuleMetrics.Counters late = metrics.of("CHECK", "WRITE", "items-value", rule);
        late.succeeded();
        late.failed();
        late.skipped();
        late.action("ERROR").increment();
      }

      assertThat(logs.lines(Level.WARN)).as("one warning, of a name taken").singleElement().asString()
          .startsWith("Rule metric rule.skipped.total ").contains("already exists");
      assertThat(logs.lines(Level.DEBUG)).as("the close, once").filteredOn(line -> line.contains("closed"))
          .hasSize(1);
    }
    for (MetricName name : taken) {
      assertThat(kafkaMetrics.metric(name).metricValue()).as("the other plugin's metric stays").isEqualTo(-1.0);
    }
    assertThat(kafkaMetrics.metrics().keySet())
        .noneMatch(name -> String.valueOf(name.tags().get("rule_name")).startsWith("late"));
  }

  /** Issue 51 review, item 4: only a plan that runs no rule may be counted as skipped, whole. */
  @Test
  void countSkipped_refusesAPlanWhoseRulesRun() {
    RuleMetrics metrics = new RuleMetrics();
    Rule chk = rule("chk", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CHECK", "x");
    io.kavro.serde.rules.RuleTarget target = new io.kavro.serde.rules.RuleTarget(chk, Rule.Mode.WRITE,
        "items-value", ITEM, Contracts.domain(chk), List.of(chk), 0, null);
    RuleMetrics.Counters counters = metrics.of("CHECK", "WRITE", "items-value", "chk");
    RulePlan plan = new RulePlan(List.of(new RulePlan.Step(target, (input, message) -> true, null, null,
        new RulePlan.Counted(counters, null, counters.action("ERROR")))), List.of(List.of(), List.of()),
        new EncryptionBypassLog());

    assertThatThrownBy(plan::countSkipped).isInstanceOf(IllegalStateException.class).hasMessageContaining("chk");
  }

  private static long allocatedByThisThread() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
