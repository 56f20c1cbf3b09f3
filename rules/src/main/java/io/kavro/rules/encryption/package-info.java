/**
 * Confluent's client-side field level encryption (CSFLE): {@code ENCRYPT} (fields tagged by the rule) and
 * {@code ENCRYPT_PAYLOAD} (the whole encoded body), byte-compatible with Confluent's Java and JavaScript clients.
 * DEKs live in the DEK registry ({@link io.kavro.registry.DekRegistry}), encrypted by a KEK in a KMS; a
 * KMS is a {@link io.kavro.rules.encryption.KmsDriver} ({@code local-kms} is built in, cloud KMSs are plug-ins).
 */
package io.kavro.rules.encryption;
