package io.kavro.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code consume} prints of a record, from the properties Confluent's console consumer takes with
 * {@code --property}, parsed once. The names, defaults and meanings follow Confluent's
 * {@code io.confluent.kafka.formatter.SchemaMessageFormatter} (confluentinc/schema-registry, read at 794611b), the
 * formatter behind {@code kafka-avro-console-consumer}; {@code print.value} is Kafka's own
 * ({@code org.apache.kafka.tools.consumer.DefaultMessageFormatter}), which Confluent's formatter does not read.
 *
 * @param timestamp {@code print.timestamp}: the timestamp's type and value first
 * @param partition {@code print.partition}
 * @param offset {@code print.offset}
 * @param headers {@code print.headers}
 * @param key {@code print.key}
 * @param value {@code print.value}
 * @param schemaIds {@code print.schema.ids}: each Avro key's and value's schema id after it
 * @param keySeparator {@code key.separator}: between the fields of a line (a tab)
 * @param lineSeparator {@code line.separator}: after each record (a newline)
 * @param headersSeparator {@code headers.separator}: between headers (a comma)
 * @param schemaIdSeparator {@code schema.id.separator}: between a key or value and its schema id (a tab)
 * @param nullLiteral {@code null.literal}: what a null key, value or header value prints as ({@code null})
 * @param keyDeserializer {@code key.deserializer}: a Kafka deserializer class for keys, printed by their
 *     {@code toString()}; without one, keys print as Avro
 * @param headersDeserializer {@code headers.deserializer}: a Kafka deserializer class for header values; without
 *     one, Confluent's formatter prints every header value as the null literal
 */
record PrintSettings(boolean timestamp, boolean partition, boolean offset, boolean headers, boolean key,
    boolean value, boolean schemaIds, String keySeparator, String lineSeparator, String headersSeparator,
    String schemaIdSeparator, String nullLiteral, Optional<String> keyDeserializer,
    Optional<String> headersDeserializer) {

  static final String PRINT_KEY = "print.key";
  static final String PRINT_SCHEMA_IDS = "print.schema.ids";
  static final String KEY_DESERIALIZER = "key.deserializer";
  static final String HEADERS_DESERIALIZER = "headers.deserializer";

  /** The properties that shape Confluent's lines; JSON envelopes take only {@link #ENVELOPE_KEYS}. */
  static final List<String> KEYS = List.of("print.timestamp", "print.partition", "print.offset", "print.headers",
      PRINT_KEY, "print.value", PRINT_SCHEMA_IDS, "key.separator", "line.separator", "headers.separator",
      "schema.id.separator", "null.literal", KEY_DESERIALIZER, HEADERS_DESERIALIZER);

  /** The properties JSON envelopes honour: the rest of {@link #KEYS} lay out Confluent's lines. */
  static final List<String> ENVELOPE_KEYS = List.of(PRINT_KEY, PRINT_SCHEMA_IDS);

  /** Prefixes of the deserializers' own settings, handed to them without the prefix (as Kafka's formatter does). */
  static final List<String> PREFIXES = List.of(KEY_DESERIALIZER + ".", HEADERS_DESERIALIZER + ".");

  /** Confluent's lines: nothing but the value unless asked, as {@code kafka-avro-console-consumer}. */
  static PrintSettings confluent(Map<String, ?> config) {
    return parse(config, false);
  }

  /** Kavro's JSON envelopes: key and schema ids print unless {@code print.key} or {@code print.schema.ids} say not. */
  static PrintSettings envelope(Map<String, ?> config) {
    for (String name : KEYS) {
      if (config.containsKey(name) && !ENVELOPE_KEYS.contains(name)) {
        throw new CliException(name + " lays out Confluent's lines, which --format json and avro-json do not "
            + "print: leave --format out for Confluent's lines (JSON envelopes take only "
            + String.join(" and ", ENVELOPE_KEYS) + ")", 2);
      }
    }
    return parse(config, true);
  }

  private static PrintSettings parse(Map<String, ?> config, boolean envelope) {
    return new PrintSettings(flag(config, "print.timestamp", false), flag(config, "print.partition", false),
        flag(config, "print.offset", false), flag(config, "print.headers", false),
        flag(config, PRINT_KEY, envelope), flag(config, "print.value", true),
        flag(config, PRINT_SCHEMA_IDS, envelope), text(config, "key.separator", "\t"),
        text(config, "line.separator", "\n"), text(config, "headers.separator", ","),
        text(config, "schema.id.separator", "\t"), text(config, "null.literal", "null"),
        Optional.ofNullable(config.get(KEY_DESERIALIZER)).map(Object::toString),
        Optional.ofNullable(config.get(HEADERS_DESERIALIZER)).map(Object::toString));
  }

  /** Whether a key's schema id prints: as Confluent's, only for keys read as Avro (no {@code key.deserializer}). */
  boolean keySchemaIds() {
    return schemaIds && keyDeserializer.isEmpty();
  }

  /** Confluent's formatter takes anything but {@code true} as false; a value that is neither is refused here. */
  private static boolean flag(Map<String, ?> config, String name, boolean otherwise) {
    Object value = config.get(name);
    if (value == null) {
      return otherwise;
    }
    String text = value.toString().trim().toLowerCase(Locale.ROOT);
    if (!text.equals("true") && !text.equals("false")) {
      throw new CliException(name + " must be true or false, was '" + value + "'", 2);
    }
    return text.equals("true");
  }

  /** A separator or literal exactly as given, spaces and all, as Confluent's formatter takes it. */
  private static String text(Map<String, ?> config, String name, String otherwise) {
    Object value = config.get(name);
    return value == null ? otherwise : value.toString();
  }
}
