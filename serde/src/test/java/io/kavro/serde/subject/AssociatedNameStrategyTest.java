package io.kavro.serde.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.kavro.registry.Association;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.internal.OutageBackoff;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * Confluent 8.3's default strategy (its {@code AssociatedNameStrategy}, read from its source): the subject the
 * registry associates with the topic's keys or values, asked once per topic; the fallback strategy's where there
 * is none or the registry lacks the API (kept only as long as the client remembers that, then asked again); an
 * outage is no fallback.
 */
class AssociatedNameStrategyTest {
  private static final Schema ORDER = SchemaBuilder.record("Order").namespace("com.acme").fields()
      .requiredLong("id").endRecord();

  private final MockRegistry registry = SchemaRegistryClients.inMemory();
  /** The calls of {@code associations}, as "namespace/name/type/associationType". */
  private final List<String> asked = new ArrayList<>();
  /** What the next calls of {@code associations} throw, when set. */
  private RuntimeException failure;
  /** Run inside the next calls of {@code associations}, when set: what happens while a lookup is under way. */
  private Runnable duringLookup;
  /** What the client's disk cache answers for {@code storedAssociations}; null: none kept. */
  private List<Association> stored;
  /** Whether the client's ids count per subject (schema-repo's). */
  private boolean idsPerSubject;
  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;

  /** The in-memory registry, recording the association lookups and failing them on demand. */
  private SchemaRegistryClient client() {
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("idsPerSubject")) {
            return idsPerSubject;
          }
          if (method.getName().equals("storedAssociations")) {
            asked.add("stored:" + args[1]);
            return stored;
          }
          if (method.getName().equals("associations")) {
            asked.add(String.join("/", (String) args[0], (String) args[1], (String) args[2], (String) args[3]));
            if (failure != null) {
              throw failure;
            }
            if (duringLookup != null) {
              duringLookup.run();
            }
          }
          try {
            return method.invoke(registry, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private AssociatedNameStrategy strategy(Object... keyValues) {
    Map<String, Object> configs = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      configs.put((String) keyValues[i], keyValues[i + 1]);
    }
    AssociatedNameStrategy strategy = new AssociatedNameStrategy(ticker);
    strategy.configure(configs);
    strategy.useRegistry(client());
    return strategy;
  }

  @Test
  void associatedSubject_forValuesAndKeysApart_askedOncePerTopic() {
    registry.associate(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    registry.associate(new Association("order-keys", "orders", "lkc-1", "topic", "key"));
    AssociatedNameStrategy strategy = strategy();

    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-contract");
    assertThat(strategy.subjectName("orders", true, ORDER)).isEqualTo("order-keys");
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-contract");
    assertThat(strategy.subjectName("orders", true, ORDER)).isEqualTo("order-keys");

    assertThat(asked).containsExactly("-/orders/topic/value", "-/orders/topic/key");
  }

  @Test
  void noAssociation_topicNameStrategy_keptAsAnAnswer() {
    AssociatedNameStrategy strategy = strategy();

    assertThat(strategy.subjectName("payments", false, ORDER)).isEqualTo("payments-value");
    assertThat(strategy.subjectName("payments", true, ORDER)).isEqualTo("payments-key");
    assertThat(strategy.subjectName("payments", false, ORDER)).isEqualTo("payments-value");
    assertThat(asked).hasSize(2);
  }

  @Test
  void fallbackTypes_recordTopicRecordNone() {
    assertThat(strategy("subject.name.strategy.fallback.type", "RECORD").subjectName("t", false, ORDER))
        .isEqualTo("com.acme.Order");
    assertThat(strategy("subject.name.strategy.fallback.type", "topic_record").subjectName("t", false, ORDER))
        .isEqualTo("t-com.acme.Order");
    assertThat(strategy("subject.name.strategy.fallback.type", "TOPIC").fallback())
        .isInstanceOf(TopicNameStrategy.class);
    AssociatedNameStrategy none = strategy("subject.name.strategy.fallback.type", "NONE");
    assertThat(none.fallback()).isNull();
    assertThatThrownBy(() -> none.subjectName("t", false, ORDER)).isInstanceOf(SerializationException.class)
        .hasMessage("no subject for the values of topic 't': the values of topic 't' (namespace '-') have no "
            + "associated subject in the registry, and subject.name.strategy.fallback.type=NONE");
    asked.clear();
    assertThatThrownBy(() -> none.subjectName("t", false, ORDER)).isInstanceOf(SerializationException.class);
    assertThat(asked).as("a refusal is not kept (Confluent's loader throws): asked again").hasSize(1);
    registry.associate(new Association("t-contract", "t", "lkc-1", "topic", "value"));
    assertThat(none.subjectName("t", false, ORDER)).as("the association made since").isEqualTo("t-contract");
  }

  /** A registry whose ids count per subject (schema-repo) has no associations: never asked, no WARN. */
  @Test
  void idsPerSubject_neverAsked_fallback() {
    idsPerSubject = true;
    AssociatedNameStrategy strategy = strategy();
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-value");
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Long.MAX_VALUE);
    assertThat(asked).isEmpty();
  }

  @Test
  void badSettings_configException_namingTheKey() {
    AssociatedNameStrategy strategy = new AssociatedNameStrategy();
    assertThatThrownBy(() -> strategy.configure(Map.of("subject.name.strategy.fallback.type", "LATEST")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("subject.name.strategy.fallback.type")
        .hasMessageContaining("LATEST");
    assertThatThrownBy(() -> strategy.configure(Map.of("subject.name.strategy.cache.size", "many")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("subject.name.strategy.cache.size");
    assertThatThrownBy(() -> strategy.configure(Map.of("subject.name.strategy.cache.expiry.secs", "1m")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("subject.name.strategy.cache.expiry.secs");
  }

  @Test
  void severalAssociatedSubjects_refused_namingThem() {
    registry.associate(new Association("a", "orders", "lkc-1", "topic", "value"));
    registry.associate(new Association("b", "orders", "lkc-2", "topic", "value"));

    AssociatedNameStrategy strategy = strategy();
    assertThatThrownBy(() -> strategy.subjectName("orders", false, ORDER))
        .isInstanceOf(SerializationException.class).hasMessageContaining("2 associated subjects")
        .hasMessageContaining("[a, b]");
    assertThatThrownBy(() -> strategy.subjectName("orders", false, ORDER))
        .isInstanceOf(SerializationException.class).hasMessageContaining("2 associated subjects");
    assertThat(asked).as("the refusal is not kept: the registry may be put right").hasSize(2);
  }

  /**
   * As Confluent's {@code setKafkaClusterId}, which its producer calls before the first record: the cluster id the
   * serde learns replaces {@code subject.name.strategy.kafka.cluster.id}.
   */
  @Test
  void learntClusterId_replacesTheConfiguredOne_asConfluents() {
    registry.associate(new Association("a", "orders", "lkc-1", "topic", "value"));
    registry.associate(new Association("b", "orders", "lkc-2", "topic", "value"));
    AssociatedNameStrategy strategy = strategy("subject.name.strategy.kafka.cluster.id", "lkc-2");
    List<String> told = new ArrayList<>();
    strategy.onChange(() -> told.add("changed"));

    strategy.useKafkaClusterId("lkc-1");
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("a");
    strategy.useKafkaClusterId("lkc-1");
    assertThat(told).as("told once, on the change only").containsExactly("changed");
    assertThat(asked).containsExactly("lkc-1/orders/topic/value");
  }

  /**
   * The cluster id changes while a lookup is under way: that lookup's answer is the old namespace's, and the next
   * lookup asks in the new one; the old answer never stands for the new namespace.
   */
  @Test
  void clusterIdChange_duringALookup_answerKeptForTheOldNamespaceOnly() {
    registry.associate(new Association("a", "orders", "lkc-1", "topic", "value"));
    registry.associate(new Association("b", "orders", "lkc-2", "topic", "value"));
    AssociatedNameStrategy strategy = strategy();
    strategy.useKafkaClusterId("lkc-1");
    duringLookup = () -> strategy.useKafkaClusterId("lkc-2");
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("a");
    duringLookup = null;

    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("b");
    assertThat(asked).containsExactly("lkc-1/orders/topic/value", "lkc-2/orders/topic/value");
  }

  /** How long a subject stands, for the serializer's routes: what is left of its answer's time. */
  @Test
  void subjectStands_whatIsLeftOfItsTime() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy forGood = strategy();
    forGood.subjectName("orders", false, ORDER);
    assertThat(forGood.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Long.MAX_VALUE);

    AssociatedNameStrategy expiring = strategy("subject.name.strategy.cache.expiry.secs", 60);
    expiring.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(20).toNanos());
    assertThat(expiring.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Duration.ofSeconds(40).toNanos());

    failure = new UnsupportedRegistryApiException("no associations API", 404, 404, null, null);
    AssociatedNameStrategy missing = strategy();
    missing.subjectName("orders", false, ORDER);
    assertThat(missing.subjectStandsNanos("orders", false, ORDER))
        .isEqualTo(UnsupportedRegistryApiException.REMEMBERED_FOR.toNanos());
  }

  @Test
  void clusterId_namespaceOfTheLookup_configuredOrLearnt() {
    registry.associate(new Association("a", "orders", "lkc-1", "topic", "value"));
    registry.associate(new Association("b", "orders", "lkc-2", "topic", "value"));

    assertThat(strategy("subject.name.strategy.kafka.cluster.id", "lkc-2").subjectName("orders", false, ORDER))
        .isEqualTo("b");
    AssociatedNameStrategy learning = strategy();
    learning.useKafkaClusterId("lkc-1");
    assertThat(learning.subjectName("orders", false, ORDER)).isEqualTo("a");
    learning.useKafkaClusterId("lkc-2");
    assertThat(learning.subjectName("orders", false, ORDER)).as("another cluster: asked again").isEqualTo("b");
    assertThat(asked).containsExactly("lkc-2/orders/topic/value", "lkc-1/orders/topic/value",
        "lkc-2/orders/topic/value");
  }

  @Test
  void cacheExpiry_askedAgainAfterIt() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = strategy("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");

    registry.associate(new Association("v2", "orders", "lkc-1", "topic", "value"));
    nanos.addAndGet(Duration.ofSeconds(59).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v2");
  }

  /**
   * The registry's answer that it lacks the API (Apicurio, Confluent before 8.3): the fallback, kept as long as the
   * client remembers the answer, then asked again (the registry may have been upgraded).
   */
  @Test
  void missingApi_fallback_keptFiveMinutes_thenAskedAgain() {
    failure = new UnsupportedRegistryApiException("no associations API", 404, 404, null, null);
    AssociatedNameStrategy strategy = strategy();

    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-value");
    nanos.addAndGet(UnsupportedRegistryApiException.REMEMBERED_FOR.minusSeconds(1).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-value");
    assertThat(asked).hasSize(1);

    failure = null;
    registry.associate(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-contract");
    assertThat(asked).hasSize(2);
  }

  /**
   * Issue 51: when the registry cannot be reached, its last answer kept in {@code schema.cache.dir} names the
   * subject (a consumer restarted during an outage learns its topic's context), kept 30 seconds only; the registry
   * is then asked again and its live answer replaces it.
   */
  @Test
  void outage_storedAnswer_usedOnlyThen_andReplacedByTheLiveOneAfter30Seconds() {
    stored = List.of(new Association(":.a:orders-value", "orders", "-", "topic", "value"));
    registry.associate(new Association(":.b:orders-value", "orders", "-", "topic", "value"));
    AssociatedNameStrategy live = strategy();
    assertThat(live.subjectName("orders", false, ORDER)).as("a live answer wins").isEqualTo(":.b:orders-value");
    assertThat(asked).containsExactly("-/orders/topic/value");

    asked.clear();
    failure = new RegistryUnavailableException("HTTP 503", 503, 50301, "http://registry/associations", null);
    AssociatedNameStrategy restarted = strategy();
    assertThat(restarted.subjectName("orders", false, ORDER)).isEqualTo(":.a:orders-value");
    assertThat(restarted.subjectStandsNanos("orders", false, ORDER))
        .isEqualTo(AssociatedNameStrategy.STORED_ANSWER_KEPT.toNanos());
    assertThat(asked).containsExactly("-/orders/topic/value", "stored:orders");

    failure = null;
    nanos.addAndGet(AssociatedNameStrategy.STORED_ANSWER_KEPT.minusSeconds(1).toNanos());
    assertThat(restarted.subjectName("orders", false, ORDER)).isEqualTo(":.a:orders-value");
    assertThat(asked).as("kept meanwhile").hasSize(2);
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(restarted.subjectName("orders", false, ORDER)).as("the registry's answer replaces it")
        .isEqualTo(":.b:orders-value");
    assertThat(restarted.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Long.MAX_VALUE);
  }

  /**
   * Issue 51, item 2 (the serializer's strategy, {@code refreshInBackground}): an answer whose time is over during an
   * outage is served on while it is asked again off the caller's thread, one asking at a time, backing off (30, 60,
   * 120 seconds...) while the registry stays down; the registry's new answer replaces it and the listeners are told.
   */
  @Test
  void refreshInBackground_expiredAnswer_servedDuringAnOutage_backsOff_thenMoves() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = inBackground("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(asked).hasSize(1);

    failure = new RegistryUnavailableException("HTTP 503", 503, 50301, "http://registry/associations", null);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).as("served on, not asked in line").isEqualTo("v1");
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(asked).as("no registry call on the caller's thread").hasSize(1);
    assertThat(tasks).as("one asking at a time").hasSize(1);
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Duration.ofSeconds(30).toNanos());

    runAll(tasks);
    assertThat(asked).as("asked in the background; the disk not read").containsExactly("-/orders/topic/value",
        "-/orders/topic/value");
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(tasks).as("within the wait: not asked").isEmpty();
    nanos.addAndGet(Duration.ofSeconds(31).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).as("backing off")
        .isEqualTo(Duration.ofSeconds(60).toNanos());
    runAll(tasks);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Duration.ofSeconds(120).toNanos());
    assertThat(told).as("nothing moved yet").hasValue(0);

    failure = null; // the registry is back, the association moved meanwhile
    registry.associate(new Association("v2", "orders", "lkc-1", "topic", "value"));
    runAll(tasks);
    assertThat(told).as("the listeners told of the move").hasValue(1);
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v2");
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Duration.ofSeconds(60).toNanos());
    assertThat(asked).hasSize(4);
  }

  /**
   * Issue 51, item 2: the 30-second answer read from the disk cache (a producer restarted during an outage) is served
   * on while it is asked again in the background; a refusal then (401, 403) withdraws it, and the caller's next
   * lookup asks in line and fails as the registry answers: a stored answer never serves after a refusal.
   */
  @Test
  void refreshInBackground_storedAnswer_withdrawnOnARefusal_neverServedAfter() {
    stored = List.of(new Association(":.a:orders-value", "orders", "-", "topic", "value"));
    failure = new RegistryUnavailableException("HTTP 503", 503, 50301, "http://registry/associations", null);
    AssociatedNameStrategy strategy = inBackground();
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo(":.a:orders-value");
    assertThat(asked).containsExactly("-/orders/topic/value", "stored:orders");

    nanos.addAndGet(AssociatedNameStrategy.STORED_ANSWER_KEPT.plusSeconds(1).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo(":.a:orders-value");
    assertThat(asked).as("not asked in line").hasSize(2);
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).as("the disk's answer counts as a first wait")
        .isEqualTo(Duration.ofSeconds(60).toNanos());
    runAll(tasks);
    assertThat(asked).as("asked again, the disk not read again").containsExactly("-/orders/topic/value",
        "stored:orders", "-/orders/topic/value");
    assertThat(strategy.subjectIsStored("orders", false, ORDER)).isTrue();

    failure = new RegistryAccessDeniedException("HTTP 403", 403, 40301, "http://registry", null);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo(":.a:orders-value");
    runAll(tasks);
    assertThat(told).as("withdrawn: the listeners ask again").hasValue(1);
    assertThatThrownBy(() -> strategy.subjectName("orders", false, ORDER))
        .isInstanceOf(RegistryAccessDeniedException.class);
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).isZero();
  }

  /** Issue 51, item 2: the registry back with the stored answer's subject: the live answer replaces it, no move. */
  @Test
  void refreshInBackground_storedAnswer_confirmedLive_noMove() {
    stored = List.of(new Association("orders-contract", "orders", "-", "topic", "value"));
    failure = new RegistryUnavailableException("HTTP 503", 503, 50301, "http://registry/associations", null);
    AssociatedNameStrategy strategy = inBackground();
    strategy.subjectName("orders", false, ORDER);

    failure = null;
    registry.associate(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    nanos.addAndGet(AssociatedNameStrategy.STORED_ANSWER_KEPT.plusSeconds(1).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-contract");
    runAll(tasks);
    assertThat(strategy.subjectIsStored("orders", false, ORDER)).isFalse();
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Long.MAX_VALUE);
    assertThat(told).hasValue(0);
  }

  /**
   * Review of issue 51, item 2: while the asking in the background is still queued (the shared thread busy) past the
   * answer's wait, the answer stands for that wait again, not 0: a caller that keeps the subject asks again then,
   * not on every record.
   */
  @Test
  void refreshInBackground_askingStillQueued_pastItsWait_answerStillStands() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = inBackground("subject.name.strategy.cache.expiry.secs", 60);
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(strategy.standingSubject("orders", false, ORDER))
        .isEqualTo(new StandingSubject("v1", Duration.ofSeconds(30).toNanos()));

    nanos.addAndGet(Duration.ofSeconds(31).toNanos()); // still queued
    assertThat(strategy.standingSubject("orders", false, ORDER)).as("stands while its asking is queued")
        .isEqualTo(new StandingSubject("v1", Duration.ofSeconds(30).toNanos()));
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).isEqualTo(Duration.ofSeconds(30).toNanos());
    assertThat(tasks).as("still one asking").hasSize(1);
    runAll(tasks);
    assertThat(strategy.standingSubject("orders", false, ORDER))
        .isEqualTo(new StandingSubject("v1", Duration.ofSeconds(60).toNanos()));
  }

  /**
   * Review of issue 51, item 5: an asking still queued when the serde closes (what {@code refreshInBackground}
   * returned closed) asks the registry nothing and keeps nothing.
   */
  @Test
  void refreshInBackground_closedWithAnAskingQueued_registryNotAsked() throws Exception {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = strategy("subject.name.strategy.cache.expiry.secs", 60);
    AutoCloseable background = strategy.refreshInBackground(tasks::add);
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    registry.associate(new Association("v2", "orders", "lkc-1", "topic", "value"));
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(tasks).hasSize(1);

    background.close();
    runAll(tasks);
    assertThat(asked).as("the queued asking asked nothing").containsExactly("-/orders/topic/value");
  }

  /**
   * Review of issue 51, item 6: during a rolling upgrade, a node without the associations API answers the asking in
   * the background of a live association: that is no reason to write under the fallback's subject; the kept answer
   * serves on and the asking backs off, as in an outage, and the association is followed when a node with the API
   * answers again.
   */
  @Test
  void refreshInBackground_liveAnswer_apiMissingOnTheRefresh_keptAsInAnOutage() {
    registry.associate(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = inBackground("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-contract");

    failure = new UnsupportedRegistryApiException("no associations API", 404, 404, "http://registry", null);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    strategy.subjectName("orders", false, ORDER);
    runAll(tasks);
    assertThat(asked).hasSize(2);
    assertThat(strategy.subjectName("orders", false, ORDER)).as("not the fallback's orders-value")
        .isEqualTo("orders-contract");
    assertThat(told).as("nothing moved").hasValue(0);
    assertThat(strategy.subjectStandsNanos("orders", false, ORDER)).as("backing off as in an outage")
        .isEqualTo(Duration.ofSeconds(30).toNanos());

    failure = null;
    registry.associate(new Association("orders-v2", "orders", "lkc-1", "topic", "value"));
    nanos.addAndGet(Duration.ofSeconds(31).toNanos());
    strategy.subjectName("orders", false, ORDER);
    runAll(tasks);
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-v2");
    assertThat(told).hasValue(1);
  }

  /**
   * Review of issue 51, round 2: an executor that drops the asking (refreshInBackground takes any): the kept answer
   * serves on, and once that asking has been queued for {@link OutageBackoff#LONGEST_WAIT}, another is queued.
   */
  @Test
  void refreshInBackground_executorDropsTheAsking_queuedAgainAfterTheLongestWait() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = strategy("subject.name.strategy.cache.expiry.secs", 60);
    AtomicLong queued = new AtomicLong();
    strategy.refreshInBackground(task -> queued.incrementAndGet()); // dropped, never run
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(queued).hasValue(1);

    nanos.addAndGet(OutageBackoff.LONGEST_WAIT.minusSeconds(1).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).as("served on").isEqualTo("v1");
    assertThat(queued).as("within the longest wait: still the one asking").hasValue(1);
    nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(queued).as("that asking queued too long: another").hasValue(2);
    assertThat(asked).as("never asked in line").hasSize(1);
  }

  /**
   * Trust item 4: an asking under way past {@link OutageBackoff#LONGEST_WAIT} (a registry that hangs) stays the only
   * one: no second starts beside it to race it to the kept answer (one did, once it had been queued that long); the
   * kept answer serves meanwhile, and the asking's answer is kept when it ends.
   */
  @Test
  void refreshInBackground_askingUnderWayPastTheLongestWait_noSecondBesideIt() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = inBackground("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(tasks).hasSize(1);

    List<Runnable> besideIt = new ArrayList<>();
    List<String> meanwhile = new ArrayList<>(); // checked after: the asking catches what is thrown in it
    duringLookup = () -> { // the asking under way, held past the longest wait
      duringLookup = null;
      nanos.addAndGet(OutageBackoff.LONGEST_WAIT.plusSeconds(1).toNanos());
      meanwhile.add(strategy.subjectName("orders", false, ORDER));
      besideIt.addAll(tasks);
      tasks.clear();
      registry.associate(new Association("v2", "orders", "lkc-1", "topic", "value"));
    };
    runAll(tasks);
    assertThat(meanwhile).as("served on meanwhile").containsExactly("v1");
    assertThat(besideIt).as("no second asking beside the one under way").isEmpty();
    assertThat(asked).hasSize(2);
    assertThat(strategy.subjectName("orders", false, ORDER)).as("its answer, once it ends").isEqualTo("v2");
    assertThat(told).hasValue(1);
  }

  /**
   * Trust review, item 6: an asking that waited in the executor's queue, then started, is said to be stuck only once
   * it has been under way for {@link OutageBackoff#LONGEST_WAIT}, counted from its start (it was counted from its
   * queueing: "under way" for the minutes it had waited, said as soon as it started), and said once.
   */
  @Test
  void refreshInBackground_askingStuck_warnedOnce_countedFromItsStart() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = inBackground("subject.name.strategy.cache.expiry.secs", 60);
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(OutageBackoff.LONGEST_WAIT.plusSeconds(1).toNanos()); // queued behind a busy executor

    try (io.kavro.registry.LogCapture logs = new io.kavro.registry.LogCapture()) {
      java.util.function.Supplier<List<String>> stuck = () -> logs.lines(org.apache.logging.log4j.Level.WARN)
          .stream().filter(line -> line.contains("has been under way")).toList();
      List<Object> seen = new ArrayList<>(); // checked after: the asking catches what is thrown in it
      duringLookup = () -> { // the asking, just started
        duringLookup = null;
        seen.add(strategy.subjectName("orders", false, ORDER));
        seen.add(stuck.get().size());
        nanos.addAndGet(OutageBackoff.LONGEST_WAIT.toNanos());
        seen.add(strategy.subjectName("orders", false, ORDER));
        seen.add(strategy.subjectName("orders", false, ORDER));
      };
      runAll(tasks);
      assertThat(seen).as("served on; just started, not stuck").containsExactly("v1", 0, "v1", "v1");
      assertThat(stuck.get()).containsExactly("Asking the subject of the values of topic 'orders' again has been "
          + "under way for " + OutageBackoff.LONGEST_WAIT.toSeconds() + " seconds; subject 'v1' serves on until it "
          + "ends, and no other asking starts beside it");
    }
    assertThat(tasks).as("no second asking beside it").isEmpty();
  }

  /**
   * Trust item 4: an asking still queued after {@link OutageBackoff#LONGEST_WAIT} (an executor that dropped it) is
   * given up when another is queued: run late after all, it asks nothing, so two never run for one lookup.
   */
  @Test
  void refreshInBackground_askingQueuedPastTheLongestWait_givenUp_asksNothingWhenRunLate() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = inBackground("subject.name.strategy.cache.expiry.secs", 60);
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    strategy.subjectName("orders", false, ORDER);
    Runnable late = tasks.remove(0);

    nanos.addAndGet(OutageBackoff.LONGEST_WAIT.toNanos());
    registry.associate(new Association("v2", "orders", "lkc-1", "topic", "value"));
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(tasks).as("another asking queued").hasSize(1);
    late.run();
    assertThat(asked).as("the asking given up asked nothing").hasSize(1);
    runAll(tasks);
    assertThat(asked).hasSize(2);
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v2");
  }

  /**
   * Trust item 4 (a guard): the answer of an asking in the background replaces only the answer it was asked for; one
   * asked in line since (the kept one evicted meanwhile) is newer, and stands over the late one. It fails on a
   * refresh that puts its answer whatever is kept. (Replacing by equality instead of identity cannot be told apart
   * here: no answer equal by value to the one a refresh serves, whose outage wait is above 0 and not a stored
   * answer's, is made while that refresh is under way; see the trust review's report.)
   */
  @Test
  void refreshInBackground_lateAnswer_neverOverwritesOneAskedSince() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = inBackground("subject.name.strategy.cache.expiry.secs", 60);
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    strategy.subjectName("orders", false, ORDER);

    List<String> inLine = new ArrayList<>(); // checked after: the asking catches what is thrown in it
    duringLookup = () -> { // while the asking is under way, its answer (v2) already given by the registry
      duringLookup = null;
      strategy.forgetAnswers();
      registry.associate(new Association("v3", "orders", "lkc-1", "topic", "value"));
      inLine.add(strategy.subjectName("orders", false, ORDER));
      registry.associate(new Association("v2", "orders", "lkc-1", "topic", "value"));
    };
    runAll(tasks);
    assertThat(inLine).as("asked in line").containsExactly("v3");
    assertThat(asked).hasSize(3);
    assertThat(strategy.subjectName("orders", false, ORDER)).as("the newer answer stands").isEqualTo("v3");
  }

  /** Review of issue 51, round 2: an Error from the executor never reaches the record; the next lookup queues again. */
  @Test
  void refreshInBackground_executorThrowsAnError_answerServed_askedAgainLater() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = strategy("subject.name.strategy.cache.expiry.secs", 60);
    AtomicLong queued = new AtomicLong();
    strategy.refreshInBackground(task -> {
      queued.incrementAndGet();
      throw new NoClassDefFoundError("the executor's own class");
    });
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).as("served its wait").isEqualTo("v1");
    nanos.addAndGet(Duration.ofSeconds(31).toNanos());
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("v1");
    assertThat(queued).as("queued again after its wait, not marked under way for good").hasValue(2);
  }

  /**
   * Review of issue 51, round 2: the serde closed while an asking in the background is under way, the closed client
   * fails it: nothing is withdrawn, no listener told (the warning "no longer used" would mislead).
   */
  @Test
  void refreshInBackground_closedDuringTheAsking_nothingWithdrawn() {
    registry.associate(new Association("v1", "orders", "lkc-1", "topic", "value"));
    AssociatedNameStrategy strategy = strategy("subject.name.strategy.cache.expiry.secs", 60);
    AutoCloseable background = strategy.refreshInBackground(tasks::add);
    strategy.onChange(told::incrementAndGet);
    strategy.subjectName("orders", false, ORDER);
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    strategy.subjectName("orders", false, ORDER);
    duringLookup = () -> {
      try {
        background.close();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      throw new IllegalStateException("the client is closed");
    };
    runAll(tasks);
    assertThat(asked).hasSize(2);
    assertThat(told).as("nothing withdrawn").hasValue(0);
  }

  /** Askings in the background queued by {@link #inBackground}'s strategies, run by {@link #runAll}. */
  private final List<Runnable> tasks = new ArrayList<>();
  /** How often {@link #inBackground}'s strategies told their listeners. */
  private final AtomicLong told = new AtomicLong();

  /** As {@link #strategy}, asking again in the background ({@link #tasks}), telling {@link #told}. */
  private AssociatedNameStrategy inBackground(Object... keyValues) {
    AssociatedNameStrategy strategy = strategy(keyValues);
    strategy.refreshInBackground(tasks::add);
    strategy.onChange(told::incrementAndGet);
    return strategy;
  }

  private static void runAll(List<Runnable> tasks) {
    List<Runnable> now = new ArrayList<>(tasks);
    tasks.clear();
    now.forEach(Runnable::run);
  }

  /** Only an outage reads the stored answer: a refusal (401, 403, a bad answer) is the registry's, and fails. */
  @Test
  void refusal_neverReadsTheStoredAnswer() {
    stored = List.of(new Association(":.a:orders-value", "orders", "-", "topic", "value"));
    failure = new RegistryAccessDeniedException("HTTP 403", 403, 40301, "http://registry", null);
    AssociatedNameStrategy strategy = strategy();
    assertThatThrownBy(() -> strategy.subjectName("orders", false, ORDER))
        .isInstanceOf(RegistryAccessDeniedException.class);
    stored = null;
    failure = new RegistryUnavailableException("HTTP 503", 503, 50301, "http://registry/associations", null);
    assertThatThrownBy(() -> strategy.subjectName("orders", false, ORDER))
        .as("nothing kept on disk: the outage").isInstanceOf(RegistryUnavailableException.class);
  }

  /** An outage is never a fallback to another subject: the client's exception, not kept, asked again next time. */
  @Test
  void outage_noFallback_notKept() {
    failure = new RegistryUnavailableException("HTTP 503", 503, 50301, "http://registry/associations", null);
    AssociatedNameStrategy strategy = strategy();

    assertThatThrownBy(() -> strategy.subjectName("orders", false, ORDER))
        .isSameAs(failure);
    failure = null;
    registry.associate(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    assertThat(strategy.subjectName("orders", false, ORDER)).isEqualTo("orders-contract");
    assertThat(asked).as("the disk cache asked too, during the outage: it had nothing")
        .containsExactly("-/orders/topic/value", "stored:orders", "-/orders/topic/value");
  }

  @Test
  void noRegistryClient_fallback() {
    AssociatedNameStrategy strategy = new AssociatedNameStrategy();
    assertThat(strategy.subjectName("orders", true, ORDER)).isEqualTo("orders-key");
  }

  @Test
  void confluentsClassName_isThisStrategy_andStreamsWrapperPassesTheClientOn() {
    SubjectNameStrategy made = SubjectNameStrategies.create("value.subject.name.strategy",
        "io.confluent.kafka.serializers.subject.AssociatedNameStrategy", Map.of());
    assertThat(made).isInstanceOf(AssociatedNameStrategy.class);

    registry.associate(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    StreamsInternalTopicSubjects streams = new StreamsInternalTopicSubjects("app", made);
    SubjectNameStrategies.useRegistry(streams, client());
    assertThat(streams.subjectName("orders", false, ORDER)).isEqualTo("orders-contract");
    assertThat(streams.subjectName("app-store-changelog", false, ORDER)).isEqualTo("com.acme.Order");
  }
}
