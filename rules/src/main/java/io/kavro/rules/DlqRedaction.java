package io.kavro.rules;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.rules.field.FieldWalker;
import io.kavro.serde.rules.RuleTarget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * What a dead letter queue may hold of a message on write, by its contract: never what the contract encrypts.
 *
 * <ul>
 *   <li>A contract with an {@code ENCRYPT_PAYLOAD} rule (or a rule of a redacted type among its encoding rules)
 *       encrypts the whole body: nothing of the message is sent, the record's value (or key) is null.
 *   <li>Else the message as Avro's JSON encoding, with every non-null value that a rule of a redacted type
 *       ({@code ENCRYPT}, and the types {@code dlq.redact.rule.types} adds) selects written as
 *       {@code "<REDACTED>"}, whatever its type (string, bytes, fixed, enum, number) and wherever it is (in a
 *       union, an array, a map, a nested record). The rules count whatever their mode, kind or {@code disabled}
 *       flag: what the contract says to encrypt is never sent in clear.
 *   <li>A schema with no field under such a rule (a {@code string} key subject), and a message that cannot be
 *       walked or written, send nothing either.
 * </ul>
 * Stateless; thread-safe.
 */
final class DlqRedaction {
  /** What a redacted value is written as. */
  static final String REDACTED = "<REDACTED>";
  /** The rule type whose fields are always redacted. */
  static final String ENCRYPT = "ENCRYPT";
  /** The rule type that encrypts the whole payload: with it, nothing of the message is sent. */
  static final String ENCRYPT_PAYLOAD = "ENCRYPT_PAYLOAD";
  private static final JsonFactory JSON = new JsonFactory();

  private DlqRedaction() {}

  /**
   * The bytes a dead letter queue gets for {@code message}, a generic datum of {@code target}'s schema.
   *
   * @param types the redacted rule types (ENCRYPT and ENCRYPT_PAYLOAD always among them)
   * @return the redacted Avro JSON, or null when nothing of the message may be sent
   */
  static byte[] json(RuleTarget target, Object message, Set<String> types) {
    DataContract contract = target.contract();
    RuleSet rules = contract.ruleSet();
    if (encryptsPayload(rules, types)) {
      return null;
    }
    List<Rule> fieldRules = new ArrayList<>();
    for (List<Rule> list : List.of(rules.domainRules(), rules.migrationRules())) {
      for (Rule rule : list) {
        if (types.contains(type(rule))) {
          fieldRules.add(rule);
        }
      }
    }
    try {
      Object redacted = message;
      if (!fieldRules.isEmpty()) {
        Rule all = union(fieldRules);
        FieldWalker walker = FieldWalker.of(new RuleTarget(all, Rule.Mode.WRITE, target.subject(), target.schema(),
            contract, List.of(all), 0, target.registry()));
        if (!walker.hasFields()) {
          return null;
        }
        redacted = walker.walk(message, (field, value) -> value == null ? null : new Redacted(value));
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (JsonGenerator json = JSON.createGenerator(out)) {
        write(target.schema(), redacted, json);
      }
      return out.toByteArray();
    } catch (IOException | RuntimeException e) {
      return null; // never the message in clear
    }
  }

  /** Whether the contract encrypts the whole body: an ENCRYPT_PAYLOAD rule anywhere, a redacted type on the body. */
  private static boolean encryptsPayload(RuleSet rules, Set<String> types) {
    for (Rule rule : rules.encodingRules()) {
      if (types.contains(type(rule))) {
        return true;
      }
    }
    for (List<Rule> list : List.of(rules.domainRules(), rules.migrationRules())) {
      for (Rule rule : list) {
        if (type(rule).equals(ENCRYPT_PAYLOAD)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String type(Rule rule) {
    return rule.type().toUpperCase(java.util.Locale.ROOT);
  }

  /**
   * One transform that selects what any of {@code rules} selects: the union of their tags, or every field when
   * one of them has none.
   */
  private static Rule union(List<Rule> rules) {
    Set<String> tags = new LinkedHashSet<>();
    for (Rule rule : rules) {
      if (rule.tags().isEmpty()) {
        tags.clear();
        break;
      }
      tags.addAll(rule.tags());
    }
    return new Rule("dlq-redaction", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITE, ENCRYPT, tags, Map.of(), null,
        null, null, false);
  }

  /** A value the walk redacted; the value itself is only kept to find its branch of a union. */
  private record Redacted(Object value) {
    Object branchValue() {
      return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
    }

    @Override
    public String toString() {
      return REDACTED;
    }
  }

  /** Writes {@code datum} as Avro's JSON encoding of {@code schema} writes it, redacted values as the marker. */
  private static void write(Schema schema, Object datum, JsonGenerator json) throws IOException {
    if (datum instanceof Redacted redacted) {
      if (schema.getType() == Schema.Type.UNION) {
        Schema branch = schema.getTypes().get(GenericData.get().resolveUnion(schema, redacted.branchValue()));
        json.writeStartObject();
        json.writeFieldName(branch.getFullName());
        json.writeString(REDACTED);
        json.writeEndObject();
      } else {
        json.writeString(REDACTED);
      }
      return;
    }
    switch (schema.getType()) {
      case RECORD -> {
        IndexedRecord record = (IndexedRecord) datum;
        json.writeStartObject();
        for (Schema.Field field : schema.getFields()) {
          json.writeFieldName(field.name());
          write(field.schema(), record.get(field.pos()), json);
        }
        json.writeEndObject();
      }
      case UNION -> {
        Schema branch = schema.getTypes().get(GenericData.get().resolveUnion(schema, datum));
        if (branch.getType() == Schema.Type.NULL) {
          json.writeNull();
        } else {
          json.writeStartObject();
          json.writeFieldName(branch.getFullName());
          write(branch, datum, json);
          json.writeEndObject();
        }
      }
      case ARRAY -> {
        json.writeStartArray();
        for (Object element : (Collection<?>) datum) {
          write(schema.getElementType(), element, json);
        }
        json.writeEndArray();
      }
      case MAP -> {
        json.writeStartObject();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) datum).entrySet()) {
          json.writeFieldName(entry.getKey().toString());
          write(schema.getValueType(), entry.getValue(), json);
        }
        json.writeEndObject();
      }
      case ENUM, STRING -> json.writeString(datum.toString());
      case FIXED -> json.writeString(new String(((GenericFixed) datum).bytes(), StandardCharsets.ISO_8859_1));
      case BYTES -> {
        ByteBuffer buffer = ((ByteBuffer) datum).duplicate();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        json.writeString(new String(bytes, StandardCharsets.ISO_8859_1));
      }
      case INT -> json.writeNumber(((Number) datum).intValue());
      case LONG -> json.writeNumber(((Number) datum).longValue());
      case FLOAT -> json.writeNumber(((Number) datum).floatValue());
      case DOUBLE -> json.writeNumber(((Number) datum).doubleValue());
      case BOOLEAN -> json.writeBoolean((Boolean) datum);
      case NULL -> {
        if (datum != null) {
          throw new IllegalArgumentException("not null");
        }
        json.writeNull();
      }
    }
  }
}
