package io.kavro.serde.subject;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The strategies that wrap another (a context's, Streams' internal topics') pass on all that a registry-aware
 * strategy is told and tells: the client, the cluster id, how long a subject stands and when subjects change. A
 * wrapper that dropped one would keep a warm route on an association that has moved.
 */
class StrategyWrappersTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[]}""");

  /** Records what it is told; a subject stands 42 ns. */
  private static final class Inner implements RegistryAwareStrategy {
    final List<String> told = new ArrayList<>();
    Runnable listener;

    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      return topic + "-value";
    }

    @Override
    public void useRegistry(SchemaRegistryClient client) {
      told.add("registry");
    }

    @Override
    public void useKafkaClusterId(String clusterId) {
      told.add("cluster " + clusterId);
    }

    @Override
    public StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
      return new StandingSubject(subjectName(topic, isKey, schema), 43);
    }

    @Override
    public AutoCloseable refreshInBackground(Executor executor) {
      told.add("background");
      return () -> told.add("background closed");
    }

    @Override
    public AutoCloseable onChange(Runnable listener) {
      this.listener = listener;
      return () -> this.listener = null;
    }
  }

  @Test
  void contextSubjects_passOnEverything() throws Exception {
    Inner inner = new Inner();
    checkPassesOn(new ContextSubjects(topic -> "ctx", inner), inner, "orders");
  }

  @Test
  void streamsInternalTopicSubjects_passOnEverything_forOtherTopics() throws Exception {
    Inner inner = new Inner();
    StreamsInternalTopicSubjects wrapper = new StreamsInternalTopicSubjects("shop", inner);
    checkPassesOn(wrapper, inner, "orders");
    assertThat(wrapper.standingSubject("shop-store-changelog", false, ORDER).standsNanos())
        .isEqualTo(Long.MAX_VALUE);
  }

  private static void checkPassesOn(RegistryAwareStrategy wrapper, Inner inner, String topic) throws Exception {
    wrapper.useRegistry(null);
    wrapper.useKafkaClusterId("lkc-1");
    assertThat(inner.told).containsExactly("registry", "cluster lkc-1");
    StandingSubject standing = wrapper.standingSubject(topic, false, ORDER);
    assertThat(standing.subject()).isEqualTo(wrapper.subjectName(topic, false, ORDER));
    assertThat(standing.standsNanos()).as("the inner strategy's one answer").isEqualTo(43);
    wrapper.refreshInBackground(Runnable::run).close();
    assertThat(inner.told).containsExactly("registry", "cluster lkc-1", "background", "background closed");
    int[] runs = new int[1];
    AutoCloseable removal = wrapper.onChange(() -> runs[0]++);
    inner.listener.run();
    assertThat(runs[0]).isEqualTo(1);
    removal.close();
    assertThat(inner.listener).isNull();
  }
}
