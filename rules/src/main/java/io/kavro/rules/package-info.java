/**
 * Kavro's executors of Confluent's data contract rules, found by the serde through {@link java.util.ServiceLoader}:
 * CEL and CEL_FIELD ({@code io.kavro.rules.cel}), ENCRYPT and ENCRYPT_PAYLOAD with the local KMS
 * ({@code io.kavro.rules.encryption}), JSONATA ({@code io.kavro.rules.jsonata}), the DLQ action, and the field
 * walk that field rules share ({@code io.kavro.rules.field}).
 */
package io.kavro.rules;
