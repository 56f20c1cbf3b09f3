package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import javax.management.ObjectName;
import org.apache.avro.Schema;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.internals.Plugin;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.runtime.ConnectMetrics;
import org.apache.kafka.connect.runtime.standalone.StandaloneConfig;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.util.ConnectorTaskId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, item 4: the converter's data contract rules, counted under the names and tags of Confluent's {@code
 * RuleMetrics}, among a Connect worker's metrics. The worker's own {@link ConnectMetrics} wraps the converter as a
 * task's (KIP-877, Kafka Connect 4.1+): it hands it its plugin metrics, tagged {@code connector}, {@code task} and
 * {@code converter}, and removes them when it closes it.
 */
class ConverterRuleMetricsTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"age","type":"int"}]}""");
  private static final org.apache.kafka.connect.data.Schema CONNECT = SchemaBuilder.struct().name("com.acme.Person")
      .field("name", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
      .field("age", org.apache.kafka.connect.data.Schema.INT32_SCHEMA).build();
  /** Connect's tags on a task's value converter, then Confluent's on every rule metric. */
  private static final Set<String> TAGS = Set.of("connector", "task", "converter", "rule_type", "rule_mode",
      "subject", "rule_name");

  private final String scope = "converter-rule-metrics-" + UUID.randomUUID();
  private final ConnectMetrics worker = new ConnectMetrics("worker-" + scope, new StandaloneConfig(Map.of(
      "bootstrap.servers", "127.0.0.1:9", "key.converter", "org.apache.kafka.connect.storage.StringConverter",
      "value.converter", AvroConverter.class.getName(), "offset.storage.file.filename", "unused")), Time.SYSTEM,
      "cluster-" + scope);

  @AfterEach
  void close() {
    worker.stop();
    MockRegistries.drop(scope);
  }

  /** {@code adult} runs on write, {@code named} on read: each is skipped in the other phase. */
  private void registerRules() {
    Rule adult = new Rule("adult", null, Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(),
        "message.age >= 18", null, null, false);
    Rule named = new Rule("named", null, Rule.Kind.CONDITION, Rule.Mode.READ, "CEL", Set.of(), Map.of(),
        "message.name != ''", null, null, false);
    MockRegistries.scope(scope).register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(adult, named), List.of(), null)));
  }

  private Map<String, Object> settings() {
    return Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false,
        "use.latest.version", true);
  }

  /** A task's value converter as a worker makes one: configured (Plugins.newConverter), then wrapped. */
  private Plugin<Converter> valueConverter(String connector) {
    AvroConverter converter = new AvroConverter();
    converter.configure(settings(), false);
    return worker.wrap(converter, new ConnectorTaskId(connector, 0), false);
  }

  private static Struct person(String name, int age) {
    return new Struct(CONNECT).put("name", name).put("age", age);
  }

  /**
   * The worker's rule metrics of {@code connector}, each as {@code name{rule_name,rule_mode[,action]}} with its
   * value; every one checked for the group {@code plugins} and exactly Connect's and Confluent's tags.
   */
  private Map<String, Object> rules(String connector) {
    Map<String, Object> values = new TreeMap<>();
    for (Map.Entry<MetricName, KafkaMetric> e : worker.metrics().metrics().entrySet()) {
      MetricName name = e.getKey();
      Map<String, String> tags = name.tags();
      if (!name.name().startsWith("rule.") || !connector.equals(tags.get("connector"))) {
        continue;
      }
      assertThat(name.group()).isEqualTo("plugins");
      Set<String> expected = new java.util.HashSet<>(TAGS);
      if (name.name().equals("rule.actions.total")) {
        expected.add("action");
      }
      assertThat(tags.keySet()).as(name.toString()).isEqualTo(expected);
      assertThat(tags).as(name.toString()).containsEntry("task", "0").containsEntry("converter", "value")
          .containsEntry("rule_type", "CEL").containsEntry("subject", "people-value");
      values.put(name.name() + "{" + tags.get("rule_name") + "," + tags.get("rule_mode")
          + (tags.containsKey("action") ? "," + tags.get("action") : "") + "}", e.getValue().metricValue());
    }
    return values;
  }

  @Test
  void aTasksConverter_countsItsRulesBothWays_underConfluentsNamesAndConnectsTags() throws Exception {
    registerRules();
    Plugin<Converter> plugin = valueConverter("people-sink");
    Converter converter = plugin.get();

    long before = System.currentTimeMillis();
    byte[] written = converter.fromConnectData("people", CONNECT, person("ann", 30));
    long after = System.currentTimeMillis();
    assertThatThrownBy(() -> converter.fromConnectData("people", CONNECT, person("bob", 12)))
        .isInstanceOf(DataException.class).hasStackTraceContaining("adult");
    converter.toConnectData("people", written);

    Map<String, Object> counts = rules("people-sink");
    Object lastSuccess = counts.remove("rule.last.success.timestamp.ms{adult,WRITE}");
    assertThat(lastSuccess).isInstanceOf(Long.class);
    // a minute's margin: the wall clock of a fresh machine may be stepped meanwhile; millis, not seconds
    assertThat((Long) lastSuccess).isBetween(before - 60_000, after + 60_000);
    assertThat(counts.remove("rule.last.success.timestamp.ms{named,READ}")).isInstanceOf(Long.class);
    assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(
        "rule.executions.total{adult,WRITE}", 2.0,
        "rule.success.total{adult,WRITE}", 1.0,
        "rule.failure.total{adult,WRITE}", 1.0,
        "rule.actions.total{adult,WRITE,ERROR}", 1.0,
        "rule.skipped.total{named,WRITE}", 1.0, // not dispatched after adult failed the record
        "rule.executions.total{named,READ}", 1.0,
        "rule.success.total{named,READ}", 1.0,
        "rule.skipped.total{adult,READ}", 1.0));
    // and under JMX, as the worker registers its metrics
    assertThat(ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName(
        "kafka.connect:type=plugins,connector=people-sink,task=0,converter=value,rule_type=CEL,rule_mode=WRITE,"
            + "subject=people-value,rule_name=adult"), null)).hasSize(1);

    plugin.close();

    assertThat(rules("people-sink")).as("the worker removes them with the converter").isEmpty();
  }

  /**
   * A configure makes the converter's serdes anew: their rules count on into the metrics already shown (one set,
   * registered once: no "already exists" error on the record that runs a rule next), and nothing is left behind.
   */
  @Test
  void reconfiguring_countsOnIntoTheSameMetrics_andCloseRemovesThem() throws Exception {
    registerRules();
    Plugin<Converter> plugin = valueConverter("people-source");
    Converter converter = plugin.get();
    converter.fromConnectData("people", CONNECT, person("ann", 30));

    converter.configure(settings(), false);
    byte[] written = converter.fromConnectData("people", CONNECT, person("cy", 40));
    converter.toConnectData("people", written);

    Map<String, Object> counts = rules("people-source");
    assertThat(counts).containsEntry("rule.executions.total{adult,WRITE}", 2.0)
        .containsEntry("rule.success.total{adult,WRITE}", 2.0)
        .containsEntry("rule.skipped.total{named,WRITE}", 2.0)
        .containsEntry("rule.executions.total{named,READ}", 1.0);
    long shown = worker.metrics().metrics().keySet().stream()
        .filter(name -> "people-source".equals(name.tags().get("connector"))).count();

    converter.configure(settings(), false);
    converter.fromConnectData("people", CONNECT, person("di", 50));

    assertThat(worker.metrics().metrics().keySet().stream()
        .filter(name -> "people-source".equals(name.tags().get("connector"))).count())
        .as("a configure adds no metric for rules already counted").isEqualTo(shown);
    assertThat(rules("people-source")).containsEntry("rule.executions.total{adult,WRITE}", 3.0);
    plugin.close();
    assertThat(worker.metrics().metrics().keySet()).as("every metric of the converter removed with it")
        .noneMatch(name -> "people-source".equals(name.tags().get("connector")));
  }

  /** {@code rule.metrics.enable=false}: the converter counts no rule, and its other metrics stay. */
  @Test
  void ruleMetricsEnableFalse_countsNoRule() throws Exception {
    registerRules();
    AvroConverter converter = new AvroConverter();
    Map<String, Object> off = new HashMap<>(settings());
    off.put("rule.metrics.enable", false);
    converter.configure(off, false);
    Plugin<Converter> plugin = worker.wrap(converter, new ConnectorTaskId("people-off", 0), false);

    converter.fromConnectData("people", CONNECT, person("ann", 30));

    assertThat(rules("people-off")).isEmpty();
    assertThat(worker.metrics().metrics().keySet()).anyMatch(name -> name.name().equals("records-serialized-total")
        && "people-off".equals(name.tags().get("connector")));
    plugin.close();
  }
}
