package io.kavro.registry.internal.schema;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Parses the schema texts that a registry holds (or the disk cache kept) as Avro up to 1.12.1 reads them, on every
 * Avro line Kavro supports: defaults are not checked ({@link SchemaDefaults#lenientParser()}), and a reference to a
 * named type written as an object, {@code {"type":"ns.Place"}}, is read as the type it names.
 *
 * <p>Avro 1.12.2 refuses that form (AVRO-4176: "A schema "type" MUST be a primitive type or one of ..."), which
 * Avro 1.11.4 to 1.12.1 read as the name alone, ignoring the object's other attributes; registries hold schemas
 * written so. When Avro's parser refuses a text, each such object, wherever a schema stands (the text itself, a
 * field's type, array items, map values, union branches; never a default or a property), is replaced by its name,
 * which resolves as the name does there, and the text is parsed again. A text that Avro accepts is parsed once, as
 * it is; the registry's text is never changed where it is kept or looked up.
 *
 * <p>Texts parsed one after the other share their names, as with one {@link Schema.Parser} (a schema's referenced
 * versions, then the schema). Not thread-safe: one instance per schema being read.
 */
public final class HeldSchemaParser {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(JsonParser.Feature.ALLOW_COMMENTS) // as Avro's parser reads schemas
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS); // dropping them would accept what Avro refuses
  /** The values of "type" that Avro 1.12.2 takes for a schema defined in place, not a name. */
  private static final Set<String> DEFINING = Set.of("null", "boolean", "int", "long", "float", "double", "bytes",
      "string", "record", "error", "enum", "fixed", "array", "map");

  private Schema.Parser parser = SchemaDefaults.lenientParser();
  /** The texts parsed so far, as parsed, to define their names again in a fresh parser. */
  private final List<String> parsed = new ArrayList<>();
  /** Whether a text needed its references rewritten: the texts that follow are rewritten before they are parsed. */
  private boolean rewriting;

  /**
   * The schema of {@code text}, with the names of the texts this parser read before known.
   *
   * @throws AvroRuntimeException as {@link Schema.Parser#parse(String)} does, when Avro 1.12.1 would refuse it too
   */
  public Schema parse(String text) {
    if (rewriting) {
      String read = withNamedReferences(text);
      return parsed(read != null ? read : text);
    }
    try {
      return parsed(text);
    } catch (AvroRuntimeException refused) {
      String read = withNamedReferences(text);
      if (read == null) {
        throw refused;
      }
      // A failed parse may have left some of the text's names in the parser (Avro 1.11 does): start again, once.
      rewriting = true;
      parser = SchemaDefaults.lenientParser();
      parsed.forEach(parser::parse);
      return parsed(read);
    }
  }

  private Schema parsed(String text) {
    Schema schema;
    try {
      schema = parser.parse(text);
    } catch (AvroRuntimeException e) {
      throw e;
    } catch (RuntimeException e) {
      // Avro 1.12's NullPointerException for a whole schema that is a name no type has ("ns.Nope").
      throw new SchemaParseException("Avro cannot resolve the schema (a name that no type has?): " + e);
    }
    parsed.add(text);
    return schema;
  }

  /**
   * {@code text} with each named type referenced as an object written as the name, or {@code null} when it has
   * none (or is not JSON).
   */
  public static String withNamedReferences(String text) {
    JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (IOException e) {
      return null;
    }
    int[] replaced = {0};
    JsonNode rewritten = rewrite(json, replaced);
    if (replaced[0] == 0) {
      return null;
    }
    try {
      return JSON.writeValueAsString(rewritten);
    } catch (IOException e) {
      return null;
    }
  }

  /** The schema {@code schema}, with its object-form references replaced (in place, but for {@code schema}). */
  private static JsonNode rewrite(JsonNode schema, int[] replaced) {
    if (schema.isArray()) { // a union
      ArrayNode branches = (ArrayNode) schema;
      for (int i = 0; i < branches.size(); i++) {
        branches.set(i, rewrite(branches.get(i), replaced));
      }
      return schema;
    }
    JsonNode type = schema.get("type");
    if (!schema.isObject() || type == null || !type.isTextual()) {
      return schema; // a name, or what Avro refuses whichever way it is written
    }
    String name = type.textValue();
    if (!DEFINING.contains(name)) {
      replaced[0]++;
      return TextNode.valueOf(name);
    }
    ObjectNode object = (ObjectNode) schema;
    switch (name) {
      case "record", "error" -> {
        for (JsonNode field : object.path("fields")) {
          if (field.isObject() && field.has("type")) {
            ((ObjectNode) field).set("type", rewrite(field.get("type"), replaced));
          }
        }
      }
      case "array" -> replaceChild(object, "items", replaced);
      case "map" -> replaceChild(object, "values", replaced);
      default -> { }
    }
    return schema;
  }

  private static void replaceChild(ObjectNode schema, String key, int[] replaced) {
    JsonNode child = schema.get(key);
    if (child != null) {
      schema.set(key, rewrite(child, replaced));
    }
  }
}
