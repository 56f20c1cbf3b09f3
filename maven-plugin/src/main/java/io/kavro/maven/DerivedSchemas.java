package io.kavro.maven;

import static io.kavro.maven.MessageTemplates.ITEMS;
import static io.kavro.maven.MessageTemplates.PROPERTIES;
import static io.kavro.maven.MessageTemplates.TAG;
import static io.kavro.maven.MessageTemplates.TYPE;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * What {@code derive-schema} writes, as Confluent's goal writes it for Avro: {@code {"schemas": [{"schema": ...,
 * "messagesMatched": [...]}, ...]}}, one entry per distinct schema, with the indexes (from 0, among the messages,
 * blank lines not counted) of the messages it was derived from, in the order of their first message.
 *
 * <p>Each message is a record named {@code Schema}; a record inside it is named for its field, a record in an
 * array for the array's field, a record that is a union branch for its tag. Messages whose schemas differ are then
 * merged field by field: a field that merges (numbers widened, union branches joined) takes its merged type in
 * every schema that has it, and messages whose schemas are then equal share an entry; a field that does not merge
 * is left as each message had it. Every schema written is one that Avro's {@link Schema.Parser} parses.
 */
final class DerivedSchemas {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();

  private DerivedSchemas() {}

  /**
   * The document for {@code messages}, each a JSON object.
   *
   * @throws IllegalArgumentException naming the message (by its position in {@code lines}) that has no Avro schema
   */
  static ObjectNode derive(List<ObjectNode> messages, List<Integer> lines) {
    MessageTemplates templates = new MessageTemplates();
    List<JsonNode> schemas = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      try {
        schemas.add(templates.of(messages.get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("the message on line " + lines.get(i) + " has no Avro schema: "
            + e.getMessage(), e);
      }
    }
    List<JsonNode> distinct = MessageTemplates.distinct(schemas);
    List<List<Integer>> matched = new ArrayList<>();
    for (JsonNode schema : distinct) {
      List<Integer> indexes = new ArrayList<>();
      for (int i = 0; i < schemas.size(); i++) {
        if (schemas.get(i).equals(schema)) {
          indexes.add(i);
        }
      }
      matched.add(indexes);
    }
    try {
      templates.mergeFields(distinct);
    } catch (IllegalArgumentException fieldsThatDoNotMerge) {
      // The messages keep their own types for those fields, and so their own schemas.
    }
    Map<JsonNode, TreeSet<Integer>> merged = new HashMap<>();
    for (int i = 0; i < distinct.size(); i++) {
      merged.computeIfAbsent(distinct.get(i), s -> new TreeSet<>()).addAll(matched.get(i));
    }
    ArrayNode entries = NODES.arrayNode();
    for (JsonNode schema : MessageTemplates.distinct(distinct)) {
      ObjectNode entry = entries.addObject();
      entry.set("schema", avro(schema, merged.get(schema)));
      ArrayNode indexes = entry.putArray("messagesMatched");
      merged.get(schema).forEach(indexes::add);
    }
    ObjectNode document = NODES.objectNode();
    document.set("schemas", entries);
    return document;
  }

  /** The Avro schema of a message's template, as Avro writes it. */
  private static JsonNode avro(JsonNode template, TreeSet<Integer> indexes) {
    String json = avro(template, "Schema").toString();
    Schema schema;
    try {
      schema = new Schema.Parser().parse(json);
    } catch (AvroRuntimeException e) { // SchemaParseException among them
      String names = e instanceof SchemaParseException ? " (field and record names must be Avro names,"
          + " [A-Za-z_][A-Za-z0-9_]*, and one record name cannot name two different records)" : "";
      throw new IllegalArgumentException("the schema derived from the message(s) " + indexes
          + " (indexes from 0) is no Avro schema: " + e.getMessage() + names + ": " + json, e);
    }
    try {
      return JSON.readTree(schema.toString());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Avro wrote a schema that is not JSON: " + schema, e);
    }
  }

  private static JsonNode avro(JsonNode template, String name) {
    String type = template.get(TYPE).asText();
    switch (type) {
      case "object" -> {
        ObjectNode record = NODES.objectNode().put("type", "record").put("name", name);
        ArrayNode fields = record.putArray("fields");
        JsonNode properties = template.get(PROPERTIES);
        for (String field : MessageTemplates.sortedNames(properties)) {
          fields.addObject().put("name", field).set("type", avro(properties.get(field), field));
        }
        return record;
      }
      case "array" -> {
        ObjectNode array = NODES.objectNode().put("type", "array");
        array.set("items", avro(template.get(ITEMS), name));
        return array;
      }
      case "union" -> {
        ArrayNode branches = NODES.arrayNode();
        for (JsonNode branch : template.get(PROPERTIES)) {
          boolean record = branch.get(TYPE).asText().equals("object") && branch.has(TAG);
          branches.add(avro(branch, record ? branch.get(TAG).asText() : name));
        }
        return branches;
      }
      default -> {
        return TextNode.valueOf(type);
      }
    }
  }
}
