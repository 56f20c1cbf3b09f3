package io.kavro.rules.cel;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * Confluent's {@code timestamp.of} ({@code TimestampUtils} of its {@code schema-rules}) and the value of its
 * variable {@code now}: CEL timestamps as {@code google.protobuf.Timestamp}, as Confluent's runtime has them.
 * Stateless.
 */
final class Timestamps {
  private Timestamps() {}

  /** The present instant, as {@code now} is bound. */
  static Timestamp now() {
    return of(Instant.now());
  }

  /**
   * {@code timestamp.of(value, unit)}: an epoch count in {@code millis}, {@code micros}, {@code nanos} or
   * {@code seconds} (a negative count is before 1970, rounded down).
   */
  static Timestamp ofEpoch(long value, String unit) {
    long perSecond = switch (unit) {
      case "millis" -> 1_000L;
      case "micros" -> 1_000_000L;
      case "nanos" -> 1_000_000_000L;
      case "seconds" -> 1L;
      default -> throw new IllegalArgumentException("Unknown timestamp.of unit '" + unit
          + "'; expected one of millis, micros, nanos, seconds");
    };
    long nanosPerUnit = 1_000_000_000L / perSecond;
    return Timestamp.newBuilder().setSeconds(Math.floorDiv(value, perSecond))
        .setNanos((int) (Math.floorMod(value, perSecond) * nanosPerUnit)).build();
  }

  /**
   * {@code timestamp.of(value)}: a timestamp as it is, an {@link Instant}, {@link OffsetDateTime} or
   * {@link ZonedDateTime}, or an RFC 3339 string with its offset ({@code 2024-01-02T03:04:05Z}). An integer needs
   * a unit, and a {@link LocalDateTime} (Avro's {@code local-timestamp-*}) has no zone: both are errors, as in
   * Confluent's.
   */
  static Timestamp of(Object value) {
    if (value instanceof Timestamp timestamp) {
      return timestamp;
    } else if (value instanceof Instant instant) {
      return of(instant);
    } else if (value instanceof OffsetDateTime dateTime) {
      return of(dateTime.toInstant());
    } else if (value instanceof ZonedDateTime dateTime) {
      return of(dateTime.toInstant());
    } else if (value instanceof String text) {
      try {
        return of(OffsetDateTime.parse(text).toInstant());
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("timestamp.of: not an RFC 3339 timestamp", e);
      }
    } else if (value instanceof Long || value instanceof Integer) {
      throw new IllegalArgumentException("timestamp.of: an integer needs a unit: timestamp.of(value, \"millis\"|"
          + "\"micros\"|\"nanos\"|\"seconds\")");
    } else if (value instanceof LocalDateTime) {
      throw new IllegalArgumentException("timestamp.of: a local timestamp has no time zone");
    }
    throw new IllegalArgumentException("timestamp.of: cannot convert a "
        + (value == null ? "null" : value.getClass().getName()) + " to a timestamp");
  }

  private static Timestamp of(Instant instant) {
    return Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
  }
}
