package io.kavro.registry.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private final RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofMillis(1000));

  @Test
  void ceiling_doublesUntilCap() {
    assertThat(policy.ceilingMillis(0)).isEqualTo(100);
    assertThat(policy.ceilingMillis(1)).isEqualTo(200);
    assertThat(policy.ceilingMillis(3)).isEqualTo(800);
    assertThat(policy.ceilingMillis(4)).isEqualTo(1000);
    assertThat(policy.ceilingMillis(200)).isEqualTo(1000);
  }

  @Test
  void backoff_fullJitter_coversZeroToCeiling() {
    for (int retry = 0; retry < 40; retry++) {
      assertThat(policy.backoffMillis(retry, 0.0)).isZero();
      assertThat(policy.backoffMillis(retry, 0.999_999_9)).isEqualTo(policy.ceilingMillis(retry));
      assertThat(policy.backoffMillis(retry, 0.5)).isBetween(0L, policy.ceilingMillis(retry));
    }
  }

  @Test
  void ceiling_hugeBase_noOverflow() {
    RetryPolicy big = new RetryPolicy(3, Duration.ofMillis(Long.MAX_VALUE / 4), Duration.ofMillis(Long.MAX_VALUE / 2));

    assertThat(big.ceilingMillis(10)).isEqualTo(Long.MAX_VALUE / 2);
  }
}
