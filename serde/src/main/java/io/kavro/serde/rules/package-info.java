/**
 * Data contract rules as the serde runs them: the plug-in interfaces for rule executors ({@link
 * io.kavro.serde.rules.RuleExecutor}) and actions ({@link io.kavro.serde.rules.RuleAction}). The executors of
 * Confluent's rule types (CEL, CEL_FIELD, ENCRYPT, ENCRYPT_PAYLOAD, JSONATA) and the DLQ action come in
 * {@code kavro-rules}; without it, a schema with rules is refused and the message names the artifact.
 */
package io.kavro.serde.rules;
