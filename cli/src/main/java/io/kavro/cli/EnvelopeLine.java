package io.kavro.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.serde.AvroValue;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record as Kavro's JSON envelope ({@code --format json} or {@code avro-json}): one JSON object with partition,
 * offset, timestamp, key and value, and the schema ids; or, for a record that cannot be decoded, its error and
 * payload.
 */
final class EnvelopeLine implements RecordLayout {
  /** Payloads up to this size go into their error line, in hex, for {@code kavro decode --hex}. */
  static final int MAX_PAYLOAD_SHOWN = 64 * 1024;

  private final JsonLines.Format rendering;
  private final boolean printKey;
  private final boolean schemaIds;

  EnvelopeLine(JsonLines.Format rendering, PrintSettings settings) {
    this.rendering = rendering;
    this.printKey = settings.key();
    this.schemaIds = settings.schemaIds();
  }

  @Override
  public String render(ConsumerRecord<byte[], byte[]> record, RecordDecoder.Decoded decoded) {
    ObjectNode line = start(record);
    if (printKey) {
      putKey(line, decoded.key().orElseThrow());
    }
    line.set("value", decoded.value().map(v -> JsonLines.datum(v.datum(), v.schema(), rendering))
        .orElse(JsonLines.MAPPER.nullNode()));
    if (schemaIds) {
      decoded.value().ifPresent(value -> JsonLines.putSchemaKey(line, "", value));
    }
    return JsonLines.line(line) + "\n";
  }

  /** The line of a record that could not be decoded: its place, the error and the payload for {@code decode}. */
  @Override
  public Optional<String> failure(ConsumerRecord<byte[], byte[]> record, String error) {
    ObjectNode line = start(record);
    line.put("error", error);
    byte[] payload = record.value();
    if (payload != null && payload.length <= MAX_PAYLOAD_SHOWN) {
      line.put("payload", HexFormat.of().formatHex(payload));
    } else if (payload != null) {
      line.put("payloadBytes", payload.length);
    }
    return Optional.of(JsonLines.line(line) + "\n");
  }

  private static ObjectNode start(ConsumerRecord<byte[], byte[]> record) {
    ObjectNode line = JsonLines.MAPPER.createObjectNode();
    line.put("partition", record.partition());
    line.put("offset", record.offset());
    line.put("timestamp", record.timestamp());
    return line;
  }

  private void putKey(ObjectNode line, RecordDecoder.Key key) {
    if (key instanceof RecordDecoder.AvroKey avro) {
      AvroValue decoded = avro.decoded();
      line.set("key", JsonLines.datum(decoded.datum(), decoded.schema(), rendering));
      if (schemaIds) {
        JsonLines.putSchemaKey(line, "key", decoded);
      }
    } else if (key instanceof RecordDecoder.TextKey text) {
      line.put("key", text.text());
    } else {
      line.putNull("key");
    }
  }
}
