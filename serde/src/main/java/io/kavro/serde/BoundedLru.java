package io.kavro.serde;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A map of at most {@code bound} entries that evicts the least recently used one, in a fixed order, at once, on the
 * writing thread: no background maintenance, no sampling, no randomness, so the same reads and writes always evict
 * the same entries. Reads ({@link #get}) are lock-free, allocate nothing and count as uses; writes take a lock.
 *
 * <p>Recency is counted in arrivals: each new key starts an epoch, and a read stamps its entry with the current one
 * (a write to the entry only when its stamp is older, so a key read steadily costs one compare per read). An
 * arrival into a full map evicts, scanning from where the last eviction was, the first entry unused during the last
 * {@code bound} arrivals, else the one least recently used; of entries last used in the same epoch, the one that
 * arrived last (an entry still read after many arrivals is worth more than a newcomer). So an entry read between
 * arrivals outlives those that were not, whichever thread reads it. Values are compared by identity in
 * {@link #replace} and {@link #remove(Object, Object)}. Thread-safe.
 */
final class BoundedLru<K, V> {
  /** A key's entry: its value ({@code null} once removed), the epochs of its arrival and of its last use. */
  private static final class Entry<K, V> {
    final K key;
    final long arrived;
    volatile V value;
    volatile long used;
    /** Its place in {@link #slots}; guarded by the map's lock. */
    final int slot;

    Entry(K key, V value, long arrived, int slot) {
      this.key = key;
      this.value = value;
      this.arrived = arrived;
      this.used = arrived;
      this.slot = slot;
    }
  }

  private final ConcurrentHashMap<K, Entry<K, V>> entries = new ConcurrentHashMap<>();
  private final int bound;
  /** The count of arrivals: the epoch a read stamps. */
  private volatile long epoch;
  /** The entries in the order the eviction scans; {@code null} where free. Guarded by {@code this}. */
  private Entry<K, V>[] slots;
  private int size;
  /** Where the next eviction scan starts. */
  private int hand;

  /** @param bound the most entries kept, 0 or more (0: none is) */
  @SuppressWarnings("unchecked")
  BoundedLru(int bound) {
    if (bound < 0) {
      throw new IllegalArgumentException("bound " + bound + " < 0");
    }
    this.bound = bound;
    this.slots = (Entry<K, V>[]) new Entry<?, ?>[Math.min(bound, 16)];
  }

  /** The value of {@code key}, or {@code null}; a use of it. No lock, no allocation. */
  V get(K key) {
    Entry<K, V> entry = entries.get(key);
    if (entry == null) {
      return null;
    }
    long now = epoch;
    if (entry.used != now) {
      entry.used = now;
    }
    return entry.value;
  }

  /**
   * Keeps {@code value} for {@code key} unless it has one, evicting the least recently used entry when full.
   *
   * @return the value kept: the one {@code key} had, else {@code value}
   */
  synchronized V putIfAbsent(K key, V value) {
    Entry<K, V> kept = entries.get(key);
    if (kept != null) {
      kept.used = epoch;
      return kept.value;
    }
    if (bound == 0) {
      return value;
    }
    long now = ++epoch;
    int slot = freeSlot(now);
    Entry<K, V> entry = new Entry<>(key, value, now, slot);
    slots[slot] = entry;
    size++;
    entries.put(key, entry);
    return value;
  }

  /** Replaces {@code key}'s value by {@code value} if it is {@code expected} (by identity). */
  synchronized boolean replace(K key, V expected, V value) {
    Entry<K, V> entry = entries.get(key);
    if (entry == null || entry.value != expected) {
      return false;
    }
    entry.value = value;
    return true;
  }

  /** Removes {@code key} if its value is {@code expected} (by identity). */
  synchronized boolean remove(K key, V expected) {
    Entry<K, V> entry = entries.get(key);
    if (entry == null || entry.value != expected) {
      return false;
    }
    drop(entry);
    return true;
  }

  /** Removes {@code key}, whatever its value. */
  synchronized void remove(K key) {
    Entry<K, V> entry = entries.get(key);
    if (entry != null) {
      drop(entry);
    }
  }

  /** The count of entries. */
  synchronized int size() {
    return size;
  }

  /** A free slot for an arrival in epoch {@code now}: one left by a removal, a new one, else an evicted entry's. */
  private int freeSlot(long now) {
    if (size < slots.length) {
      for (int i = 0; i < slots.length; i++) {
        int at = (hand + i) % slots.length;
        if (slots[at] == null) {
          return at;
        }
      }
    }
    if (slots.length < bound) {
      int at = slots.length;
      slots = java.util.Arrays.copyOf(slots, (int) Math.min(bound, 2L * slots.length));
      return at;
    }
    Entry<K, V> victim = null;
    long oldest = Long.MAX_VALUE;
    for (int i = 0; i < slots.length; i++) {
      Entry<K, V> entry = slots[(hand + i) % slots.length];
      long used = entry.used;
      if (used < oldest || (used == oldest && entry.arrived > victim.arrived)) {
        oldest = used;
        victim = entry;
        if (used <= now - bound) {
          break; // unused during the last bound arrivals: among the least recent, no need to look further
        }
      }
    }
    drop(victim);
    hand = (victim.slot + 1) % slots.length;
    return victim.slot;
  }

  private void drop(Entry<K, V> entry) {
    entries.remove(entry.key, entry);
    entry.value = null;
    slots[entry.slot] = null;
    size--;
  }
}
