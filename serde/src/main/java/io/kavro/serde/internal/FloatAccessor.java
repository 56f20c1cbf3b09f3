package io.kavro.serde.internal;

/**
 * Reads a {@code float} from an object without boxing or widening it: the functional type the compiled encoder
 * spins a Java record's {@code float} accessor into (the JDK has none; a {@code ToDoubleFunction} would widen the
 * float and so quiet a signaling NaN, whose bits Avro writes as they are). Public only for that spinning, which
 * happens in the record class's own lookup; no API.
 */
@FunctionalInterface
public interface FloatAccessor {
  /** The float {@code value} holds. */
  float applyAsFloat(Object value);
}
