package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.AvroValue;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.util.Utf8;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 7: the parts of Confluent's lines a broker does not easily show (a log-append time, no timestamp,
 * a GUID schema id, print.value), and the property checks. Expected text from Confluent's
 * {@code SchemaMessageFormatter.writeTo} and Kafka's {@code DefaultMessageFormatter} (for print.value).
 */
class ConfluentLineTest {
  private static final Schema STRING = Schema.create(Schema.Type.STRING);

  private static ConsumerRecord<byte[], byte[]> record(long timestamp, TimestampType type) {
    return new ConsumerRecord<>("t", 3, 42, timestamp, type, 0, 0, new byte[] {1}, new byte[] {2},
        new RecordHeaders(), Optional.empty());
  }

  private static RecordDecoder.Decoded decoded(Object schemaKey) {
    return new RecordDecoder.Decoded(Optional.of(new RecordDecoder.TextKey("k")),
        Optional.of(new AvroValue(-1, STRING, new Utf8("v"), schemaKey)));
  }

  private static String render(Map<String, String> properties, ConsumerRecord<byte[], byte[]> record,
      RecordDecoder.Decoded decoded) {
    return new ConfluentLine(PrintSettings.confluent(properties), Optional.empty()).render(record, decoded);
  }

  @Test
  void timestamp_logAppendTimeOrNone() {
    Map<String, String> timestamps = Map.of("print.timestamp", "true");
    assertThat(render(timestamps, record(5, TimestampType.LOG_APPEND_TIME), decoded(7)))
        .isEqualTo("LogAppendTime:5\t\"v\"\n");
    assertThat(render(timestamps, record(-1, TimestampType.NO_TIMESTAMP_TYPE), decoded(7)))
        .isEqualTo("NO_TIMESTAMP\t\"v\"\n");
  }

  @Test
  void schemaIds_aGuidPrintsAsText() {
    UUID guid = UUID.fromString("0f8e2a34-5b6c-4d7e-8f90-a1b2c3d4e5f6");
    assertThat(render(Map.of("print.schema.ids", " TRUE "), record(5, TimestampType.CREATE_TIME), decoded(guid)))
        .isEqualTo("\"v\"\t" + guid + "\n");
  }

  @Test
  void printValueFalse_asKafkasFormatter_theLastFieldEndsTheLine() {
    assertThat(render(Map.of("print.value", "false", "print.key", "true", "print.offset", "true"),
        record(5, TimestampType.CREATE_TIME), decoded(7))).isEqualTo("Offset:42\tk\n");
    assertThat(render(Map.of("print.value", "false"), record(5, TimestampType.CREATE_TIME), decoded(7))).isEmpty();
  }

  @Test
  void unknownProperty_nearestKeyNamed() {
    assertThatThrownBy(() -> ConsumeProperties.check(Map.of("key.seperator", ",")))
        .hasMessage("unknown --property 'key.seperator': did you mean key.separator?");
    ConsumeProperties.check(Map.of("print.key", "true", "schema.registry.url", "http://r", "max.poll.records",
        "5", "key.deserializer.encoding", "UTF-8", "rule.executors._default_.param.secret", "s"));
    // The serde's measure of a typo: a swap of neighbouring letters is one edit, and case is ignored.
    assertThatThrownBy(() -> ConsumeProperties.check(Map.of("pritn.kye", "true")))
        .hasMessage("unknown --property 'pritn.kye': did you mean print.key?");
    assertThatThrownBy(() -> ConsumeProperties.check(Map.of("Print.Keys", "true")))
        .hasMessage("unknown --property 'Print.Keys': did you mean print.key?");
  }
}
