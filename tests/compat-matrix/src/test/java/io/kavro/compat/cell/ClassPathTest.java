package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.connect.AvroConverter;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Properties;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** The cell runs on the versions it names, so that no other test here passes on the wrong ones. */
class ClassPathTest {
  @Test
  void kafkaAvroAndSerdeAreTheCells() throws Exception {
    assertThat(kafkaVersion()).isEqualTo(Cell.kafka());
    assertThat(Schema.class.getPackage().getImplementationVersion()).isEqualTo(Cell.avro());
    boolean kip877 = Cell.artifact().equals("kavro-serde");
    assertThat(implementsKafkasMonitorable(KafkaAvroSerializer.class)).isEqualTo(kip877);
    assertThat(implementsKafkasMonitorable(AvroConverter.class)).isEqualTo(kip877);
  }

  /** kafka-clients' version, from the resource every line of it carries. */
  private static String kafkaVersion() throws Exception {
    Properties properties = new Properties();
    try (InputStream in = org.apache.kafka.common.serialization.Serializer.class.getClassLoader()
        .getResourceAsStream("kafka/kafka-version.properties")) {
      properties.load(in);
    }
    return properties.getProperty("version");
  }

  private static boolean implementsKafkasMonitorable(Class<?> type) {
    return Arrays.stream(type.getInterfaces())
        .anyMatch(i -> i.getName().equals("org.apache.kafka.common.metrics.Monitorable"));
  }
}
