package io.kavro.rules.field;

/**
 * What a field rule does to one field value, for {@link FieldWalker#walk}: CEL_FIELD evaluates its expression,
 * ENCRYPT encrypts or decrypts. Called for values of the primitive types, enums and fixed, on the fields the rule's
 * tags select. Implementations are thread-safe when the executor shares them across records.
 */
@FunctionalInterface
public interface FieldTransform {
  /**
   * The new value of a field, or for a condition, {@link Boolean#FALSE} to fail.
   *
   * @param field the field
   * @param value the value: a {@code String} for a string, a {@code byte[]} (the walk's own copy) for bytes, as
   *     in the datum otherwise ({@code Integer}, {@code GenericData.EnumSymbol}, {@code GenericFixed}, null)
   * @return the new value: a {@code byte[]} result is written back as a {@code ByteBuffer}
   * @throws io.kavro.serde.rules.RuleException when the value cannot be transformed; name the field
   */
  Object apply(FieldContext field, Object value);
}
