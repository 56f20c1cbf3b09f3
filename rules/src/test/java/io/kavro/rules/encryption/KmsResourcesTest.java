package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What drivers' clients share: one resource per key, closed by the last share released, once. */
class KmsResourcesTest {
  private final List<String> closed = new CopyOnWriteArrayList<>();
  private final AtomicInteger made = new AtomicInteger();
  private final KmsResources<String, Resource> resources = new KmsResources<>("test SDK client");

  private record Resource(String name, List<String> closed) implements AutoCloseable {
    @Override
    public void close() {
      closed.add(name);
    }
  }

  private KmsResources.Lease<Resource> acquire(String key) {
    return resources.acquire(key, k -> new Resource(k + "#" + made.incrementAndGet(), closed));
  }

  @Test
  void sameKey_oneResource_closedByTheLastShareOnly() {
    KmsResources.Lease<Resource> first = acquire("eu");
    KmsResources.Lease<Resource> second = acquire("eu");
    KmsResources.Lease<Resource> other = acquire("us");

    assertThat(second.get()).isSameAs(first.get());
    assertThat(other.get()).isNotSameAs(first.get());
    assertThat(resources.open()).isEqualTo(2);

    first.close();
    first.close(); // a second close of one share releases nothing more
    assertThat(closed).isEmpty();
    assertThat(resources.open()).isEqualTo(2);

    second.close();
    assertThat(closed).containsExactly("eu#1");
    other.close();
    assertThat(closed).containsExactly("eu#1", "us#2");
    assertThat(resources.open()).isZero();
  }

  @Test
  void afterTheLastShare_aNewShareMakesANewResource() {
    acquire("eu").close();

    KmsResources.Lease<Resource> again = acquire("eu");

    assertThat(again.get().name()).isEqualTo("eu#2");
    assertThat(resources.open()).isEqualTo(1);
  }

  @Test
  void factoryFails_nothingAcquired() {
    assertThatThrownBy(() -> resources.acquire("eu", k -> {
      throw new IllegalStateException("no credentials");
    })).hasMessage("no credentials");

    assertThat(resources.open()).isZero();
  }

  @Test
  void toString_namesTheResource_notTheKey() {
    KmsResources<String, Resource> secretKeyed = new KmsResources<>("test SDK client");
    KmsResources.Lease<Resource> lease = secretKeyed.acquire("secret=hunter2", k -> new Resource("r", closed));

    assertThat(lease).hasToString("a share of a test SDK client");
    lease.close();
    assertThat(lease.toString()).doesNotContain("hunter2").endsWith("(released)");
  }

  @Test
  void twoThreadsMakeTheSameResource_oneIsKept_theOtherClosed_theLeasesCountBoth() throws Exception {
    CountDownLatch making = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<KmsResources.Lease<Resource>> slow = thread.submit(() -> resources.acquire("eu", k -> {
        Resource resource = new Resource(k + "#" + made.incrementAndGet(), closed);
        making.countDown();
        await(release);
        return resource;
      }));
      await(making);

      KmsResources.Lease<Resource> fast = acquire("eu"); // made while the other thread still makes one
      release.countDown();
      KmsResources.Lease<Resource> late = slow.get(30, TimeUnit.SECONDS);

      assertThat(fast.get().name()).isEqualTo("eu#2");
      assertThat(late.get()).isSameAs(fast.get());
      assertThat(closed).containsExactly("eu#1");
      assertThat(resources.open()).isEqualTo(1);

      fast.close();
      assertThat(closed).as("the other thread's lease still holds it").containsExactly("eu#1");
      late.close();
      assertThat(closed).containsExactly("eu#1", "eu#2");
      assertThat(resources.open()).isZero();
    } finally {
      release.countDown();
      thread.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the latch was never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
