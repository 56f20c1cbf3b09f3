package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The bound of the deserializer's topic contexts: least recently used first, in a fixed order. */
class BoundedLruTest {
  @Test
  void full_evictsTheLeastRecentlyRead() {
    BoundedLru<String, String> lru = new BoundedLru<>(3);
    lru.putIfAbsent("a", "A");
    lru.putIfAbsent("b", "B");
    lru.putIfAbsent("c", "C");
    assertThat(lru.get("a")).isEqualTo("A");
    lru.putIfAbsent("d", "D");
    assertThat(lru.get("b")).as("read least recently").isNull();
    assertThat(lru.get("a")).isEqualTo("A");
    assertThat(lru.get("c")).isEqualTo("C");
    assertThat(lru.size()).isEqualTo(3);
  }

  @Test
  void neverRead_evictedInArrivalOrder() {
    BoundedLru<Integer, Integer> lru = new BoundedLru<>(40);
    for (int i = 0; i < 100; i++) {
      lru.putIfAbsent(i, i);
    }
    for (int i = 0; i < 100; i++) {
      assertThat(lru.get(i)).as("key %s", i).isEqualTo(i < 60 ? null : i);
    }
    assertThat(lru.size()).isEqualTo(40);
  }

  @Test
  void keyReadBetweenArrivals_outlivesThemAll() {
    BoundedLru<String, String> lru = new BoundedLru<>(2);
    lru.putIfAbsent("hot", "H");
    for (int i = 0; i < 1000; i++) {
      assertThat(lru.get("hot")).as("after %s arrivals", i).isEqualTo("H");
      lru.putIfAbsent("k" + i, "K");
      lru.get("k" + i);
    }
  }

  @Test
  void boundZero_keepsNothing() {
    BoundedLru<String, String> lru = new BoundedLru<>(0);
    assertThat(lru.putIfAbsent("a", "A")).isEqualTo("A");
    assertThat(lru.get("a")).isNull();
    assertThat(lru.size()).isZero();
  }

  @Test
  void putIfAbsent_keepsTheValueKept() {
    BoundedLru<String, String> lru = new BoundedLru<>(2);
    String first = new String("A");
    assertThat(lru.putIfAbsent("a", first)).isSameAs(first);
    assertThat(lru.putIfAbsent("a", new String("A"))).isSameAs(first);
  }

  @Test
  void replaceAndRemove_onlyOverTheValueExpected_byIdentity() {
    BoundedLru<String, String> lru = new BoundedLru<>(2);
    String kept = new String("A");
    lru.putIfAbsent("a", kept);
    assertThat(lru.replace("a", new String("A"), "B")).isFalse();
    assertThat(lru.remove("a", new String("A"))).isFalse();
    assertThat(lru.replace("a", kept, "B")).isTrue();
    assertThat(lru.get("a")).isEqualTo("B");
    assertThat(lru.remove("a", kept)).isFalse();
    lru.remove("a");
    assertThat(lru.get("a")).isNull();
    assertThat(lru.size()).isZero();
    lru.putIfAbsent("b", "B");
    lru.putIfAbsent("c", "C");
    lru.putIfAbsent("d", "D");
    assertThat(lru.size()).as("a removed key's place taken, then one evicted").isEqualTo(2);
    assertThat(lru.get("b")).isNull();
  }
}
