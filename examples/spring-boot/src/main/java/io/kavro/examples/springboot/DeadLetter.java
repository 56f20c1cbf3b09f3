package io.kavro.examples.springboot;

/**
 * A record of a dead-letter topic as Spring's {@code DeadLetterPublishingRecoverer} writes it: the original key
 * and bytes, where it came from, and the exception that put it there (Spring's {@code kafka_dlt-*} headers).
 *
 * @param key the original key
 * @param value the original value's bytes, as they were on the original topic
 * @param originalTopic the topic it was read from
 * @param originalOffset its offset there
 * @param exception the class of the exception the error handler was given
 * @param cause the class of that exception's cause: Kavro's, for a record Kavro could not read
 * @param message the exception's message
 */
public record DeadLetter(String key, byte[] value, String originalTopic, long originalOffset, String exception,
    String cause, String message) {}
