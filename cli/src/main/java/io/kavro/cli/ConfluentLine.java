package io.kavro.cli;

import io.kavro.registry.ApicurioId;
import io.kavro.serde.AvroValue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A record as {@code kafka-avro-console-consumer} prints it. The layout follows Confluent's
 * {@code io.confluent.kafka.formatter.SchemaMessageFormatter.writeTo} (confluentinc/schema-registry at 794611b),
 * field by field, each followed by {@code key.separator}, the value by {@code line.separator}:
 * <ol>
 *   <li>{@code print.timestamp}: {@code CreateTime:1700000000000} or {@code LogAppendTime:...} (the type's name),
 *       {@code NO_TIMESTAMP} without one;
 *   <li>{@code print.partition}: {@code Partition:0};
 *   <li>{@code print.offset}: {@code Offset:42};
 *   <li>{@code print.headers}: {@code k1:v1,k2:v2} ({@code headers.separator}), {@code NO_HEADERS} without any;
 *       a value prints through {@code headers.deserializer}, and as {@code null.literal} without one, as
 *       Confluent's does;
 *   <li>{@code print.key}: the key in Avro's JSON encoding ({@code null.literal} when absent), then with
 *       {@code print.schema.ids} {@code schema.id.separator} and its schema id;
 *   <li>the value in Avro's JSON encoding (unions as {@code {"string":"x"}}, as Avro's {@code JsonEncoder} writes
 *       it for Confluent's {@code AvroSchemaUtils.toJson}), then with {@code print.schema.ids} the separator and its
 *       schema id, or {@code null} for a tombstone (Confluent prints the plain word there, not the null literal).
 * </ol>
 * {@code print.value=false} leaves the value out, as Kafka's {@code DefaultMessageFormatter} does (Confluent's
 * formatter always prints it). Unlike Confluent's, which writes as it goes, a record prints whole or not at all.
 * Closing it closes the {@code headers.deserializer}.
 */
final class ConfluentLine implements RecordLayout {
  private final PrintSettings settings;
  private final Optional<Deserializer<?>> headersDeserializer;

  ConfluentLine(PrintSettings settings, Optional<Deserializer<?>> headersDeserializer) {
    this.settings = settings;
    this.headersDeserializer = headersDeserializer;
  }

  @Override
  public String render(ConsumerRecord<byte[], byte[]> record, RecordDecoder.Decoded decoded) {
    List<String> fields = new ArrayList<>();
    if (settings.timestamp()) {
      fields.add(record.timestampType() == TimestampType.NO_TIMESTAMP_TYPE ? "NO_TIMESTAMP"
          : record.timestampType() + ":" + record.timestamp());
    }
    if (settings.partition()) {
      fields.add("Partition:" + record.partition());
    }
    if (settings.offset()) {
      fields.add("Offset:" + record.offset());
    }
    if (settings.headers()) {
      fields.add(headers(record));
    }
    if (settings.key()) {
      fields.add(key(decoded.key().orElseThrow()));
    }
    if (settings.value()) {
      fields.add(value(decoded.value()));
    }
    return fields.isEmpty() ? "" : String.join(settings.keySeparator(), fields) + settings.lineSeparator();
  }

  /** Confluent's console consumer ends at a record its formatter cannot print: so do these lines. */
  @Override
  public Optional<String> failure(ConsumerRecord<byte[], byte[]> record, String error) {
    return Optional.empty();
  }

  @Override
  public void close() {
    headersDeserializer.ifPresent(Deserializer::close);
  }

  private String headers(ConsumerRecord<byte[], byte[]> record) {
    Iterator<Header> headers = record.headers().iterator();
    if (!headers.hasNext()) {
      return "NO_HEADERS";
    }
    List<String> printed = new ArrayList<>();
    headers.forEachRemaining(header -> {
      Object value = header.value() == null ? null : headersDeserializer
          .map(d -> (Object) d.deserialize(record.topic(), record.headers(), header.value())).orElse(null);
      printed.add(header.key() + ":" + (value == null ? settings.nullLiteral() : value.toString()));
    });
    return String.join(settings.headersSeparator(), printed);
  }

  private String key(RecordDecoder.Key key) {
    String text;
    String id;
    if (key instanceof RecordDecoder.AvroKey avro) {
      text = JsonLines.avroJsonText(avro.decoded().datum(), avro.decoded().schema());
      id = schemaId(avro.decoded());
    } else {
      text = key instanceof RecordDecoder.TextKey plain ? plain.text() : settings.nullLiteral();
      // A key that is not Avro has no schema id: Confluent's formatter fails on it; Kavro prints the null literal.
      id = settings.nullLiteral();
    }
    return settings.keySchemaIds() ? text + settings.schemaIdSeparator() + id : text;
  }

  private String value(Optional<AvroValue> value) {
    String text = value.map(v -> JsonLines.avroJsonText(v.datum(), v.schema())).orElse(settings.nullLiteral());
    return settings.schemaIds() ? text + settings.schemaIdSeparator() + value.map(ConfluentLine::schemaId)
        .orElse("null") : text;
  }

  /** The id the record named its schema by: a Confluent id, a GUID, or an Apicurio id, as a number or text. */
  static String schemaId(AvroValue value) {
    Object key = value.schemaKey();
    return key instanceof ApicurioId apicurio ? String.valueOf(apicurio.value()) : String.valueOf(key);
  }
}
