package io.kavro.serde.rules;

import org.apache.kafka.common.header.Headers;

/**
 * The record a rule runs on: what a rule may need to know of it besides the message.
 *
 * @param topic the record's topic
 * @param isKey whether the message is the record's key
 * @param headers the record's headers, or null when the caller gave none
 */
public record RuleInput(String topic, boolean isKey, Headers headers) {}
