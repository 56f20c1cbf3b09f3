package io.kavro.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

/**
 * Avro datums as JSON and back. Plain JSON ({@code json}): records are objects, unions their value, bytes and
 * fixed Base64. Avro's JSON encoding ({@code avro-json}): unions wrapped as {@code {"type": value}}, bytes as
 * ISO-8859-1 text, what Confluent's console tools read and write.
 */
final class JsonLines {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonLines() {}

  /** The rendering of {@code --format}. */
  enum Format {
    json, avro_json;

    static Format of(String text) {
      return switch (text) {
        case "json" -> json;
        case "avro-json" -> avro_json;
        default -> throw new CliException("--format must be json or avro-json, was '" + text + "'", 2);
      };
    }
  }

  static JsonNode datum(Object datum, Schema schema, Format format) {
    return format == Format.json ? plain(datum) : avroJson(datum, schema);
  }

  /**
   * How deep a value may nest to be printed: a recursive schema lets a small record nest deeper than any stack
   * (or JSON printer) goes; such a record is a clear error of its own, and the others print.
   */
  static final int MAX_DEPTH = 500;

  static JsonNode plain(Object value) {
    return plain(value, 0);
  }

  private static JsonNode plain(Object value, int depth) {
    if (depth > MAX_DEPTH) {
      throw new CliException("the record nests deeper than " + MAX_DEPTH + " levels, too deep to print");
    }
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof IndexedRecord record) {
      ObjectNode object = NODES.objectNode();
      for (Schema.Field field : record.getSchema().getFields()) {
        object.set(field.name(), plain(record.get(field.pos()), depth + 1));
      }
      return object;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      map.forEach((k, v) -> object.set(k.toString(), plain(v, depth + 1)));
      return object;
    }
    if (value instanceof Collection<?> items) {
      ArrayNode array = NODES.arrayNode();
      items.forEach(item -> array.add(plain(item, depth + 1)));
      return array;
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return NODES.textNode(Base64.getEncoder().encodeToString(bytes));
    }
    if (value instanceof GenericFixed fixed) {
      return NODES.textNode(Base64.getEncoder().encodeToString(fixed.bytes()));
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Float f) {
      return NODES.numberNode(f);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    return NODES.textNode(value.toString()); // strings, enum symbols
  }

  static JsonNode avroJson(Object datum, Schema schema) {
    try {
      return MAPPER.readTree(avroJsonText(datum, schema));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A datum in Avro's JSON encoding, as Avro's {@code JsonEncoder} writes it: compact, on one line. */
  static String avroJsonText(Object datum, Schema schema) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      JsonEncoder encoder = EncoderFactory.get().jsonEncoder(schema, out);
      new GenericDatumWriter<Object>(schema, GenericData.get()).write(datum, encoder);
      encoder.flush();
      return out.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (StackOverflowError e) {
      throw new CliException("the record nests too deep to print as Avro JSON");
    }
  }

  /**
   * A datum of {@code schema} from Avro's JSON encoding.
   *
   * @throws IOException with Avro's description when the text does not match the schema
   */
  static Object parse(String text, Schema schema) throws IOException {
    return new GenericDatumReader<>(schema).read(null, DecoderFactory.get().jsonDecoder(schema, text));
  }

  /**
   * How a record named its writer schema, under {@code prefix} ({@code ""} for values, {@code "key"} for keys):
   * {@code schemaId} (a Confluent id), {@code schemaGuid}, {@code apicurioGlobalId} / {@code apicurioContentId},
   * or {@code schemaKey} (a framing resolver's key, as text).
   */
  static void putSchemaKey(ObjectNode line, String prefix, io.kavro.serde.AvroValue value) {
    Object key = value.schemaKey();
    if (key instanceof Integer id) {
      line.put(name(prefix, "schemaId"), id);
    } else if (key instanceof java.util.UUID guid) {
      line.put(name(prefix, "schemaGuid"), guid.toString());
    } else if (key instanceof io.kavro.registry.ApicurioId apicurio) {
      line.put(name(prefix, apicurio.kind() == io.kavro.registry.ApicurioId.Kind.GLOBAL_ID ? "apicurioGlobalId"
          : "apicurioContentId"), apicurio.value());
    } else if (key != null) {
      line.put(name(prefix, "schemaKey"), String.valueOf(key));
    }
  }

  private static String name(String prefix, String field) {
    return prefix.isEmpty() ? field : prefix + Character.toUpperCase(field.charAt(0)) + field.substring(1);
  }

  static String line(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
