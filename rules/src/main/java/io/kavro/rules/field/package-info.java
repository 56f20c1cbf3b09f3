/**
 * The field walk that field rules (CEL_FIELD, ENCRYPT) share: {@link io.kavro.rules.field.FieldWalker} applies a
 * {@link io.kavro.rules.field.FieldTransform} to the fields a rule's tags select, with Confluent's semantics.
 */
package io.kavro.rules.field;
