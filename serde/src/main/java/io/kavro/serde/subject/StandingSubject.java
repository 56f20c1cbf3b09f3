package io.kavro.serde.subject;

/**
 * A subject that a {@link RegistryAwareStrategy} gives, with how long it stands, both read from the one answer the
 * strategy holds: a caller that keeps the subject (the serializer's routes) never pairs one answer's subject with
 * another's time. Immutable.
 *
 * @param subject the subject
 * @param standsNanos how long from now, in nanoseconds, the subject stands: the caller asks again after that;
 *     {@link Long#MAX_VALUE} for good
 */
public record StandingSubject(String subject, long standsNanos) {}
