package io.kavro.registry.config;

import java.util.Objects;

/**
 * A password or token: its {@link #toString()} never shows it, so it stays out of messages and logs.
 * Immutable.
 */
public final class Secret {
  private final String value;

  private Secret(String value) {
    this.value = Objects.requireNonNull(value, "value");
  }

  /** The secret {@code value}, or {@code null} for {@code null}. */
  public static Secret of(String value) {
    return value == null ? null : new Secret(value);
  }

  /** The secret itself: only for the wire or a key store, never for a message. */
  public String value() {
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Secret secret && secret.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return "[hidden]";
  }
}
