package io.kavro.rules.field;

import java.util.Objects;
import java.util.Set;
import org.apache.avro.generic.IndexedRecord;

/**
 * The field a {@link FieldTransform} is applied to, as Confluent's {@code RuleContext.FieldContext} describes it.
 *
 * @param fullName the record's full name, a dot and the field's name: {@code com.acme.User.ssn}
 * @param name the field's name
 * @param type the type of the value handed to the transform: for a union, the branch the value is of (so
 *     {@link FieldType#NULL} for a null in a nullable field); for an array or a map, its element type
 * @param inCombined whether the field is declared as a {@link FieldType#COMBINED} union
 * @param tags the field's tags: its {@code confluent:tags} and those that {@code metadata.tags} gives its full name
 * @param record the record that holds the field (on a transform, with the fields before it already transformed)
 */
public record FieldContext(String fullName, String name, FieldType type, boolean inCombined, Set<String> tags,
    IndexedRecord record) {
  /** Checks the components. */
  public FieldContext {
    Objects.requireNonNull(fullName, "fullName");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(tags, "tags");
  }

  /** The field's full name and type: its value and record may hold secrets. */
  @Override
  public String toString() {
    return "field '" + fullName + "' (" + type + ", tags " + tags + ")";
  }
}
