package com.example;

import java.util.List;

/** A user's classes nested in a holder, as a test class of another package declares them. */
public final class Readings {
  private Readings() {}

  /** A nested record with a list of nested records. */
  public record Batch(String site, List<Reading> readings) {}

  /** A nested record. */
  public record Reading(long at, double value) {}
}
