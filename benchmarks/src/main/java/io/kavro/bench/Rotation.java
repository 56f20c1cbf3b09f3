package io.kavro.bench;

/** The next of {@link BenchData#RECORDS} records, round and round. Not thread-safe: one per thread. */
public final class Rotation {
  private int next;

  /** The index of the next record. */
  public int next() {
    int index = next;
    next = (next + 1) & (BenchData.RECORDS - 1);
    return index;
  }
}
