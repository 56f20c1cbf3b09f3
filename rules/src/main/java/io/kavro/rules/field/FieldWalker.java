package io.kavro.rules.field;

import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Walks a generic datum of a rule's target schema field by field and applies a {@link FieldTransform} to the fields
 * the rule selects, as Confluent's {@code FieldRuleExecutor} and {@code AvroSchema.transformMessage} do: the walk
 * that CEL_FIELD and ENCRYPT share.
 *
 * <p>Built once per {@link RuleTarget} (in {@code prepare}), it works out every field's full name
 * ({@code com.acme.User.ssn}), tags and types from the target schema then; a walk only follows the datum. Thread-safe.
 *
 * <p>Which fields: a field's tags are its {@code confluent:tags} with the tags of every {@code metadata.tags}
 * pattern ({@link WildcardMatcher}) that matches its full name. A rule without tags selects every field; a rule
 * with tags, the fields that have one of them. The transform gets the values of primitive types, enums and fixed:
 * unions are resolved to the value's branch, arrays and maps are walked element by element, records field by field.
 * As in Confluent's walk, a field of a record, array, map, enum, fixed or union type that the rule does not select
 * still passes its selection down to the fields of the records it holds, that is the untagged primitive fields of a
 * selected record field are selected (and the transform sees the outer field).
 *
 * <p>A transform walk returns a new datum (records copied, the fields before a field already transformed when the
 * transform sees their record) and leaves the given one as it was. A condition walk fails with a
 * {@link RuleException} naming the field whose value the transform answered {@link Boolean#FALSE} for; as in
 * Confluent's, a false for an element of an array or a map is not a failure, and the walk returns the message. As
 * in Confluent's Java serde, a field the rule does not select hands its own value back as the check's result: an
 * unselected boolean {@code false} fails a condition, naming that field (docs/data-contracts.md says so, and how to
 * write a rule that checks the tagged fields only).
 *
 * <p>Two identical field transforms (same mode, type and non-empty tags) run once: on write and upgrade the rule
 * is skipped when an earlier rule of {@link RuleTarget#rules()} is such a twin, on read and downgrade when a later
 * one is ({@link #skips()}).
 */
public final class FieldWalker {
  /** The field property that holds a field's inline tags, a JSON array of strings. */
  public static final String TAGS_PROP = "confluent:tags";

  private final Rule rule;
  private final boolean condition;
  private final boolean skips;
  private final Node root;

  private FieldWalker(Rule rule, boolean skips, Node root) {
    this.rule = rule;
    this.condition = rule.kind() == Rule.Kind.CONDITION;
    this.skips = skips;
    this.root = root;
  }

  /**
   * The walker of {@code target}'s rule over {@code target}'s schema.
   *
   * @throws RuleException when a {@code metadata.tags} pattern is not a valid wildcard
   */
  public static FieldWalker of(RuleTarget target) {
    Rule rule = target.rule();
    Map<WildcardMatcher, Set<String>> metadataTags = new LinkedHashMap<>();
    target.contract().metadata().tags().forEach((glob, tags) -> {
      try {
        metadataTags.put(WildcardMatcher.of(glob), tags);
      } catch (PatternSyntaxException e) {
        throw new RuleException(rule + ": metadata tag pattern '" + glob + "' is not a valid wildcard", e);
      }
    });
    Node root = new Planner(rule.tags(), metadataTags).node(target.schema());
    return new FieldWalker(rule, hasTwin(target), root);
  }

  /** The rule the walker applies. */
  public Rule rule() {
    return rule;
  }

  /**
   * Whether the target schema holds a record field anywhere (at its root, or inside a union, an array or a map): a
   * schema without one, such as a {@code string} key's, gives the walk no field to apply a transform to.
   */
  public boolean hasFields() {
    return hasFields(root);
  }

  private static boolean hasFields(Node node) {
    if (node instanceof RecordNode record) {
      return record.fields.length > 0;
    } else if (node instanceof UnionNode union) {
      for (Node branch : union.branches) {
        if (hasFields(branch)) {
          return true;
        }
      }
      return false;
    } else if (node instanceof ArrayNode array) {
      return hasFields(array.element);
    } else if (node instanceof MapNode map) {
      return hasFields(map.value);
    }
    return false;
  }

  /**
   * Whether the rule selects a field anywhere in the target schema: a field with one of its tags (inline or by the
   * contract's {@code metadata.tags}), or any field when the rule names no tag. False when the tags match no field
   * (a typo, say): the walk then applies the transform to nothing.
   */
  public boolean selectsAny() {
    return selectsAny(root, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
  }

  private static boolean selectsAny(Node node, Set<RecordNode> seen) {
    if (node instanceof RecordNode record) {
      if (!seen.add(record)) {
        return false; // a recursive record: its fields are being looked at already
      }
      for (FieldNode field : record.fields) {
        if (field.selected || selectsAny(field.node, seen)) {
          return true;
        }
      }
    } else if (node instanceof UnionNode union) {
      for (Node branch : union.branches) {
        if (selectsAny(branch, seen)) {
          return true;
        }
      }
    } else if (node instanceof ArrayNode array) {
      return selectsAny(array.element, seen);
    } else if (node instanceof MapNode map) {
      return selectsAny(map.value, seen);
    }
    return false;
  }

  /** Whether the rule is skipped because an identical transform runs in its place: then a walk does nothing. */
  public boolean skips() {
    return skips;
  }

  /**
   * Walks {@code message}, a generic datum of the target schema.
   *
   * @return the transformed datum (a new one), or for a condition, {@code message}; {@code message} itself when
   *     the rule {@link #skips() is skipped}; null for a null message
   * @throws RuleException when a condition fails on a field, when the transform fails, or when the datum does not
   *     fit the schema; the message names the rule and the field
   */
  public Object walk(Object message, FieldTransform transform) {
    if (skips || message == null) {
      return message;
    }
    Object result = walk(root, message, null, null, transform);
    return condition ? message : result;
  }

  private Object walk(Node node, Object value, FieldNode current, IndexedRecord container, FieldTransform transform) {
    if (node instanceof LeafNode leaf) {
      return walkLeaf(leaf, value, current, container, transform);
    } else if (node instanceof UnionNode union) {
      return walk(union.branch(value, this, current), value, current, container, transform);
    } else if (node instanceof RecordNode record) {
      return walkRecord(record, value, current, transform);
    } else if (node instanceof ArrayNode array) {
      return walkArray(array, value, current, container, transform);
    }
    return walkMap((MapNode) node, value, current, container, transform);
  }

  private Object walkRecord(RecordNode node, Object value, FieldNode current, FieldTransform transform) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof IndexedRecord record) || !node.fits(record.getSchema())) {
      throw misfit(current, "a record of schema " + node.schema.getFullName(), value);
    }
    IndexedRecord out = condition ? record : copy(record, node.schema);
    for (FieldNode field : node.fields) {
      FieldNode scope = field.enters ? field : current;
      IndexedRecord scopeRecord = field.enters ? out : null;
      Object result = walk(field.node, out.get(field.pos), scope, scopeRecord, transform);
      if (condition) {
        if (Boolean.FALSE.equals(result)) {
          throw conditionFailed(field);
        }
      } else {
        out.put(field.pos, result);
      }
    }
    return out;
  }

  private Object walkArray(ArrayNode node, Object value, FieldNode current, IndexedRecord container,
      FieldTransform transform) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Collection<?> elements)) {
      throw misfit(current, "an array", value);
    }
    if (condition) {
      for (Object element : elements) {
        walk(node.element, element, current, container, transform);
      }
      return value;
    }
    GenericData.Array<Object> out = new GenericData.Array<>(elements.size(), node.schema);
    for (Object element : elements) {
      out.add(walk(node.element, element, current, container, transform));
    }
    return out;
  }

  private Object walkMap(MapNode node, Object value, FieldNode current, IndexedRecord container,
      FieldTransform transform) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> entries)) {
      throw misfit(current, "a map", value);
    }
    if (condition) {
      for (Object entry : entries.values()) {
        walk(node.value, entry, current, container, transform);
      }
      return value;
    }
    Map<Object, Object> out = new LinkedHashMap<>(Math.max(4, entries.size() * 4 / 3 + 1));
    for (Map.Entry<?, ?> entry : entries.entrySet()) {
      out.put(entry.getKey(), walk(node.value, entry.getValue(), current, container, transform));
    }
    return out;
  }

  private Object walkLeaf(LeafNode leaf, Object value, FieldNode current, IndexedRecord container,
      FieldTransform transform) {
    if (current == null || !current.selected) {
      // Not selected: the value as it is, which a condition reads as its result, as Confluent's Java serde does
      // (an unselected boolean false fails the condition). Fail-closed and the same outcome as Confluent's serde.
      return value;
    }
    Object input = value;
    if (input instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      input = bytes;
    } else if (leaf.type == FieldType.STRING && input instanceof CharSequence chars) {
      input = chars.toString();
    }
    FieldContext field = new FieldContext(current.fullName, current.name, leaf.type, current.inCombined,
        current.tags, container);
    Object result;
    try {
      result = transform.apply(field, input);
    } catch (RuleException e) {
      throw e;
    } catch (SchemaRegistryException | RetriableException e) {
      // a fault of the registry or the KMS, not of the value: kept whole, for the serde to retry
      throw new RuleException(rule + " failed on field '" + current.fullName + "': " + e.getClass().getName(), e);
    } catch (RuntimeException e) {
      // another exception may quote the value: its class and stack trace only
      throw RuleException.hidingValues(rule + " failed on field '" + current.fullName + "': "
          + e.getClass().getName(), e);
    }
    return result instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : result;
  }

  private static IndexedRecord copy(IndexedRecord record, Schema schema) {
    GenericData.Record copy = new GenericData.Record(schema);
    for (int i = 0, n = schema.getFields().size(); i < n; i++) {
      copy.put(i, record.get(i));
    }
    return copy;
  }

  private RuleException conditionFailed(FieldNode field) {
    String why = rule.doc() != null && !rule.doc().isEmpty() ? ": " + rule.doc()
        : rule.expr() != null ? ": expr failed: '" + rule.expr() + "'" : "";
    return new RuleException(rule + ": condition failed on field '" + field.fullName + "'" + why);
  }

  private RuleException misfit(FieldNode field, String expected, Object value) {
    String where = field == null ? "the message" : "field '" + field.fullName + "'";
    String held = value == null ? "null" : value.getClass().getName();
    return new RuleException(rule + ": " + where + " holds " + held + ", not " + expected);
  }

  private static boolean hasTwin(RuleTarget target) {
    Rule rule = target.rule();
    if (rule.kind() != Rule.Kind.TRANSFORM || rule.tags().isEmpty()) {
      return false;
    }
    List<Rule> rules = target.rules();
    int index = target.index();
    List<Rule> others = target.phase().isForward()
        ? rules.subList(0, Math.min(index, rules.size()))
        : rules.subList(Math.min(index + 1, rules.size()), rules.size());
    for (Rule other : others) {
      if (other.kind() == Rule.Kind.TRANSFORM && other.mode() == rule.mode() && other.type().equals(rule.type())
          && other.tags().equals(rule.tags())) {
        return true;
      }
    }
    return false;
  }

  /** A part of the target schema, with what the walk needs of it. */
  private sealed interface Node permits RecordNode, UnionNode, ArrayNode, MapNode, LeafNode {}

  private static final class RecordNode implements Node {
    final Schema schema;
    FieldNode[] fields;

    RecordNode(Schema schema) {
      this.schema = schema;
    }

    boolean fits(Schema actual) {
      return actual == schema || actual.equals(schema);
    }
  }

  private record FieldNode(int pos, String fullName, String name, Set<String> tags, boolean inCombined,
      boolean enters, boolean selected, Node node) {}

  private record ArrayNode(Schema schema, Node element) implements Node {}

  private record MapNode(Node value) implements Node {}

  private record LeafNode(FieldType type) implements Node {}

  private record UnionNode(Schema schema, Node[] branches) implements Node {
    Node branch(Object value, FieldWalker walker, FieldNode current) {
      try {
        return branches[GenericData.get().resolveUnion(schema, value)];
      } catch (AvroRuntimeException e) {
        throw walker.misfit(current, "a value of union " + schema, value);
      }
    }
  }

  /** Builds the nodes of a schema for one rule. */
  private static final class Planner {
    private final Set<String> ruleTags;
    private final Map<WildcardMatcher, Set<String>> metadataTags;
    private final Map<String, RecordNode> records = new HashMap<>();

    Planner(Set<String> ruleTags, Map<WildcardMatcher, Set<String>> metadataTags) {
      this.ruleTags = ruleTags;
      this.metadataTags = metadataTags;
    }

    Node node(Schema schema) {
      return switch (schema.getType()) {
        case RECORD -> record(schema);
        case UNION -> new UnionNode(schema, schema.getTypes().stream().map(this::node).toArray(Node[]::new));
        case ARRAY -> new ArrayNode(schema, node(schema.getElementType()));
        case MAP -> new MapNode(node(schema.getValueType()));
        default -> new LeafNode(FieldType.of(schema));
      };
    }

    private RecordNode record(Schema schema) {
      RecordNode known = records.get(schema.getFullName());
      if (known != null) {
        return known;
      }
      RecordNode record = new RecordNode(schema);
      records.put(schema.getFullName(), record);
      List<FieldNode> fields = new ArrayList<>(schema.getFields().size());
      for (Schema.Field field : schema.getFields()) {
        fields.add(field(schema, field));
      }
      record.fields = fields.toArray(FieldNode[]::new);
      return record;
    }

    private FieldNode field(Schema record, Schema.Field field) {
      String fullName = record.getFullName() + "." + field.name();
      Set<String> tags = tags(field, fullName);
      FieldType declared = FieldType.of(field.schema());
      boolean selected = ruleTags.isEmpty() || !Collections.disjoint(tags, ruleTags);
      boolean enters = !declared.isPrimitive() || selected;
      return new FieldNode(field.pos(), fullName, field.name(), tags, declared == FieldType.COMBINED, enters,
          selected, node(field.schema()));
    }

    private Set<String> tags(Schema.Field field, String fullName) {
      Set<String> tags = new LinkedHashSet<>();
      if (field.getObjectProp(TAGS_PROP) instanceof List<?> inline) {
        for (Object tag : inline) {
          if (tag != null) {
            tags.add(tag.toString());
          }
        }
      }
      metadataTags.forEach((matcher, matched) -> {
        if (matcher.matches(fullName)) {
          tags.addAll(matched);
        }
      });
      return Collections.unmodifiableSet(tags);
    }
  }
}
