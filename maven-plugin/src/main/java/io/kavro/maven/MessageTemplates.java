package io.kavro.maven;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The type templates of {@code derive-schema}, with the rules of Confluent's {@code DeriveAvroSchema} (read from
 * its source, 8.x): a template is a JSON node {@code {"type": ...}} where the type is an Avro primitive, {@code
 * object} (with {@code properties}, the fields by name), {@code array} (with {@code items}) or {@code union} (with
 * {@code properties}, the branches, sorted by type).
 *
 * <p>Numbers are {@code int} when they fit 32 bits, {@code long} when they fit 64, else {@code double}. Merging
 * templates (the values of an array, one field across records) widens numbers ({@code int} to {@code long} to
 * {@code double}), merges records field by field, and reads a record of one field named for a type, {@code
 * {"int": 5}}, or for a record, {@code {"Address": {...}}}, as Avro's JSON encoding of a union branch: such
 * records, and a {@code null} beside them, make a union. Anything else that differs (a string beside a number) does
 * not merge, and the merge fails naming the types.
 *
 * <p>Merging works in place, as Confluent's does: merged templates are written back into every node that took
 * part, so a record's field keeps what merging made of it even where a later merge fails. The output depends on
 * that (a field merged across messages is merged in every schema that has it), so the same steps are kept here.
 * Not thread-safe: one instance per goal run.
 */
final class MessageTemplates {
  static final String TYPE = "type";
  static final String PROPERTIES = "properties";
  static final String ITEMS = "items";
  /** The tag a record or {@code null} took as a union branch: the field name it was found under. */
  static final String TAG = "__name";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> NUMBERS = List.of("int", "long", "double");
  /** Types a union branch tag names as itself, beside the numbers (any number tag takes any number). */
  private static final List<String> SELF_TAGGED = List.of("string", "boolean", "array");
  /** A union of one branch is a union only when the branch is one of these. */
  private static final List<String> SINGLE_BRANCH = List.of("int", "long", "double", "string", "boolean");

  /**
   * The most records and arrays a message may nest, below the message. Merging takes time exponential in the
   * nesting (each record's fields are merged once as union branches and once as fields, each level down), in
   * Confluent's goal too, which does not return on a message 60 levels deep; 16 levels take milliseconds.
   */
  static final int MAX_NESTING = 16;

  /** The template of a message; {@code path} names it in a failure. */
  ObjectNode of(ObjectNode message) {
    return of(message, "", 0);
  }

  private ObjectNode of(JsonNode value, String path, int nesting) {
    if (value.isContainerNode() && nesting > MAX_NESTING) {
      throw new IllegalArgumentException(path + " nests records and arrays more than " + MAX_NESTING
          + " levels deep, the most derive-schema takes (merging takes time exponential in the nesting)");
    }
    return switch (value.getNodeType()) {
      case OBJECT -> record(value, path, nesting + 1);
      case ARRAY -> array(value, path, nesting + 1);
      case NUMBER -> primitive(value.isInt() ? "int" : value.isLong() ? "long" : "double");
      case STRING -> primitive("string");
      case BOOLEAN -> primitive("boolean");
      case NULL, MISSING -> primitive("null");
      default -> throw new IllegalArgumentException(path + " holds a " + value.getNodeType() + ", not JSON");
    };
  }

  private ObjectNode record(JsonNode value, String path, int nesting) {
    ObjectNode fields = NODES.objectNode();
    for (String name : sortedNames(value)) {
      fields.set(name, of(value.get(name), path.isEmpty() ? name : path + "." + name, nesting));
    }
    ObjectNode record = NODES.objectNode().put(TYPE, "object");
    record.set(PROPERTIES, fields);
    return record;
  }

  private ObjectNode array(JsonNode value, String path, int nesting) {
    String where = path.isEmpty() ? "[]" : path + "[]";
    List<JsonNode> elements = new ArrayList<>();
    value.forEach(element -> elements.add(of(element, where, nesting)));
    ObjectNode array = NODES.objectNode().put(TYPE, "array");
    try {
      array.set(ITEMS, merge(elements, false));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the values of " + where + " have no one Avro type: " + e.getMessage(), e);
    }
    return array;
  }

  /**
   * One template for all of {@code templates} (their {@code items} when {@code itemsOf}), written in place into the
   * nodes it merged; {@code null} when there are none.
   *
   * @throws IllegalArgumentException naming the types that do not merge
   */
  JsonNode merge(List<JsonNode> templates, boolean itemsOf) {
    List<JsonNode> primitives = new ArrayList<>();
    List<JsonNode> records = new ArrayList<>();
    List<JsonNode> arrays = new ArrayList<>();
    for (JsonNode template : distinct(templates)) {
      JsonNode node = itemsOf ? template.get(ITEMS) : template;
      if (node.isEmpty() || primitives.contains(node)) {
        continue;
      }
      switch (node.get(TYPE).asText()) {
        case "object" -> records.add(node);
        case "array" -> arrays.add(node);
        default -> primitives.add(node); // a union too
      }
    }
    makeUnions(records, primitives);
    widenNumbers(primitives);
    primitives = distinct(primitives);
    List<JsonNode> types = new ArrayList<>();
    if (!records.isEmpty()) {
      mergeFields(records);
    }
    if (!arrays.isEmpty()) {
      ObjectNode array = NODES.objectNode().put(TYPE, "array");
      array.set(ITEMS, merge(arrays, true));
      types.add(array);
    }
    types.addAll(records);
    types.addAll(primitives);
    types = distinct(types);
    if (types.size() > 1) {
      throw new IllegalArgumentException("found several types: " + types);
    }
    return types.isEmpty() ? primitive("null") : types.get(0);
  }

  /**
   * Merges each field across {@code records}, writing the merged template into every record's field; a field that
   * does not merge is left as it is and named once the others are merged.
   *
   * @throws IllegalArgumentException naming a field that does not merge
   */
  void mergeFields(List<JsonNode> records) {
    // A HashMap, as Confluent's: the order of merging decides which failure is named.
    Map<String, List<JsonNode>> byName = new HashMap<>();
    for (JsonNode record : records) {
      JsonNode fields = record.get(PROPERTIES);
      for (String name : sortedNames(fields)) {
        byName.computeIfAbsent(name, n -> new ArrayList<>()).add(fields.get(name));
      }
    }
    IllegalArgumentException failure = null;
    for (Map.Entry<String, List<JsonNode>> field : byName.entrySet()) {
      try {
        JsonNode merged = merge(field.getValue(), false).deepCopy();
        writeInto(merged, field.getValue());
      } catch (IllegalArgumentException e) {
        failure = new IllegalArgumentException("field " + field.getKey() + " does not merge: " + e.getMessage(), e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Reads records that are union branches in Avro's JSON encoding ({@code {"int": 5}}, {@code {"Address": {...}}})
   * into one union, with {@code null} and the unions among {@code primitives}. Each record's fields that can be
   * branches are tagged and merged by name whether or not the records make a union.
   */
  private void makeUnions(List<JsonNode> records, List<JsonNode> primitives) {
    // A HashMap, as Confluent's: its order is the order of record branches in the union.
    Map<String, List<JsonNode>> byTag = new HashMap<>();
    boolean union = true;
    for (JsonNode record : records) {
      JsonNode fields = record.get(PROPERTIES);
      if (fields.size() != 1) {
        union = false;
      }
      for (String name : names(fields)) {
        if (!tagBranch(name, (ObjectNode) fields.get(name), byTag)) {
          union = false;
        }
      }
    }
    List<JsonNode> branches = new ArrayList<>();
    for (List<JsonNode> tagged : byTag.values()) {
      List<JsonNode> distinct = distinct(tagged);
      writeInto(merge(distinct, false), tagged);
      branches.add(distinct.get(0));
    }
    if (union) {
      toUnion(records, primitives, branches);
    }
  }

  /** Whether the field {@code name} can be a union branch, tagged so: a record or null, or a type named as itself. */
  private static boolean tagBranch(String name, ObjectNode field, Map<String, List<JsonNode>> byTag) {
    String type = field.get(TYPE).asText();
    boolean branch = false;
    if (type.equals("object") || type.equals("null")) {
      field.put(TAG, name);
      branch = true;
    } else if (NUMBERS.contains(name) && NUMBERS.contains(type) || SELF_TAGGED.contains(type) && type.equals(name)) {
      field.put(TYPE, name); // {"long": 5} is a long
      branch = true;
    }
    if (branch) {
      byTag.computeIfAbsent(name, n -> new ArrayList<>()).add(field);
    }
    return branch;
  }

  private static void toUnion(List<JsonNode> records, List<JsonNode> primitives, List<JsonNode> branches) {
    boolean hasNull = primitives.stream().anyMatch(p -> p.get(TYPE).asText().equals("null"));
    if (hasNull) {
      branches.add(primitive("null"));
    }
    List<JsonNode> unions = primitives.stream().filter(p -> p.get(TYPE).asText().equals("union")).toList();
    unions.forEach(u -> u.get(PROPERTIES).forEach(branches::add));
    List<JsonNode> distinct = distinct(branches);
    boolean oneBranch = distinct.size() == 1 && SINGLE_BRANCH.contains(distinct.get(0).get(TYPE).asText());
    if (distinct.size() < 2 && !oneBranch) {
      return;
    }
    if (hasNull) {
      primitives.removeIf(p -> p.get(TYPE).asText().equals("null"));
    }
    ArrayNode sorted = NODES.arrayNode().addAll(distinct.stream()
        .sorted(Comparator.comparing((JsonNode b) -> b.get(TYPE).asText())).toList());
    for (List<JsonNode> nodes : List.of(records, unions)) {
      for (JsonNode node : nodes) {
        ((ObjectNode) node).put(TYPE, "union").set(PROPERTIES, sorted);
      }
    }
  }

  /** With a {@code double} among them, every int and long is a double; else, with a long, every int a long. */
  private static void widenNumbers(List<JsonNode> primitives) {
    String widest = null;
    for (String type : List.of("long", "double")) {
      if (primitives.stream().anyMatch(p -> p.get(TYPE).asText().equals(type))) {
        widest = type;
      }
    }
    if (widest == null) {
      return;
    }
    for (JsonNode primitive : primitives) {
      String type = primitive.get(TYPE).asText();
      if (type.equals("int") || type.equals("long")) {
        ((ObjectNode) primitive).put(TYPE, widest);
      }
    }
  }

  /** Writes {@code merged}'s keys into each of {@code nodes}. */
  private static void writeInto(JsonNode merged, List<JsonNode> nodes) {
    List<String> keys = sortedNames(merged);
    for (JsonNode node : nodes) {
      keys.forEach(key -> ((ObjectNode) node).set(key, merged.get(key)));
    }
  }

  static ObjectNode primitive(String type) {
    return NODES.objectNode().put(TYPE, type);
  }

  static List<JsonNode> distinct(List<JsonNode> nodes) {
    return nodes.stream().distinct().collect(Collectors.toCollection(ArrayList::new));
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  static List<String> sortedNames(JsonNode node) {
    List<String> names = names(node);
    names.sort(null);
    return names;
  }
}
