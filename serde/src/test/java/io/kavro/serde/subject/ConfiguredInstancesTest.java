package io.kavro.serde.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Both kinds of configured strategy are made by one rule, each failure naming the key and the class. */
class ConfiguredInstancesTest {

  /** A strategy whose constructor fails. */
  public static final class Failing implements SubjectNameStrategy {
    public Failing() {
      throw new IllegalStateException("no");
    }

    @Override
    public String subjectName(String topic, boolean isKey, org.apache.avro.Schema schema) {
      return topic;
    }
  }

  @Test
  void aClassOfAnotherKind_refused_namingKeyClassAndWhatToImplement() {
    assertThatThrownBy(() -> SubjectNameStrategies.create("value.subject.name.strategy", "java.lang.String", Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("value.subject.name.strategy")
        .hasMessageContaining("java.lang.String")
        .hasMessageContaining("does not implement " + SubjectNameStrategy.class.getName())
        .hasMessageContaining("implement Kavro's");
    assertThatThrownBy(() -> ContextNameStrategies.create("context.name.strategy", String.class, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("context.name.strategy")
        .hasMessageContaining("does not implement " + ContextNameStrategy.class.getName());
  }

  @Test
  void unknownClass_andFailingConstructor_refusedByName() {
    assertThatThrownBy(() -> ContextNameStrategies.create("context.name.strategy", "com.acme.Nope", Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("com.acme.Nope").hasMessageContaining("not found");
    assertThatThrownBy(() -> SubjectNameStrategies.create("key.subject.name.strategy", Failing.class, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining(Failing.class.getName())
        .hasMessageContaining("cannot be instantiated");
  }

  @Test
  void confluentsNames_standForKavrosStrategies() {
    assertThat(SubjectNameStrategies.create("k", "io.confluent.kafka.serializers.subject.TopicNameStrategy",
        Map.of())).isInstanceOf(TopicNameStrategy.class);
    assertThat(ContextNameStrategies.create("k", ContextNameStrategies.CONFLUENT_DEFAULT, Map.of()))
        .isInstanceOf(NullContextNameStrategy.class);
  }
}
