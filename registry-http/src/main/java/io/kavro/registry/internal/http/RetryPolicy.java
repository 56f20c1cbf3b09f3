package io.kavro.registry.internal.http;

import java.time.Duration;

/**
 * Bounded retries with exponential backoff and full jitter.
 *
 * @param maxRetries how many times a failed request is repeated
 * @param baseWait the backoff of the first retry, doubled at each retry
 * @param maxWait the cap of one backoff
 */
public record RetryPolicy(int maxRetries, Duration baseWait, Duration maxWait) {

  /**
   * The wait before retry number {@code retry} (0 for the first): uniformly random in
   * {@code [0, min(maxWait, baseWait * 2^retry)]}, drawn from {@code random01} in {@code [0, 1)}.
   */
  public long backoffMillis(int retry, double random01) {
    return (long) (random01 * (ceilingMillis(retry) + 1));
  }

  /** The upper bound of {@link #backoffMillis} for this retry. */
  public long ceilingMillis(int retry) {
    long base = baseWait.toMillis();
    long cap = maxWait.toMillis();
    int shift = Math.min(retry, 30);
    return base > (cap >> shift) ? cap : Math.min(cap, base << shift);
  }
}
