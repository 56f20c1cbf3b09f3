package io.kavro.serde;

/**
 * What code allocates on the calling thread, measured so that a loaded machine cannot fail a test: after a warm-up,
 * the least of several batches counts, so that a batch run before the JIT finished compiling the path (C1's code
 * keeps allocations that C2 removes) or slowed by the machine does not. A real regression allocates in every batch.
 */
final class Allocations {
  /** Looked up once: the lookup allocates, and would count in what it measures. */
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  private Allocations() {}

  /** The bytes the calling thread has allocated so far. */
  static long ofThisThread() {
    long bytes = THREADS.getCurrentThreadAllocatedBytes();
    if (bytes < 0) {
      throw new IllegalStateException("this JVM does not count the bytes a thread allocates: nothing is measured");
    }
    return bytes;
  }

  /**
   * The least bytes a call of {@code call} allocated, on average over a batch of {@code perBatch} calls, in
   * {@code batches} batches run after {@code warm} calls.
   */
  static long leastPerCall(Runnable call, int warm, int batches, int perBatch) {
    for (int i = 0; i < warm; i++) {
      call.run();
    }
    long least = Long.MAX_VALUE;
    for (int batch = 0; batch < batches; batch++) {
      long before = ofThisThread();
      for (int i = 0; i < perBatch; i++) {
        call.run();
      }
      least = Math.min(least, (ofThisThread() - before) / perBatch);
    }
    return least;
  }
}
