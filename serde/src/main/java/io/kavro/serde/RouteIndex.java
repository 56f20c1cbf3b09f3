package io.kavro.serde;

import io.kavro.serde.ReadPlanner.ReadRoute;
import java.util.Arrays;

/**
 * The deserializer's shared read routes by schema id, in front of their bounded cache: a direct-mapped array, one
 * slot per id modulo its size. A lookup is one array load and the route's own id compare. A lookup in the cache
 * boxes the id and walks the map's node and the cache's entry: on thousands of schemas read in turn that is memory
 * no longer in the CPU's caches, on every record; here it is one slot beside the route the record needs anyway.
 *
 * <p>A slot holds the route last stored for an id of that slot; ids that share a slot fall back to the cache. It
 * holds no route the cache did not hold, and at most one route per slot beyond the cache's bound once the cache
 * evicts. Routes are immutable (their fields are final), so a slot written without a lock publishes its route
 * safely. A slot may hold a route of an older count of changes (a write that raced with {@link #clear}): the
 * caller checks the route's {@code generation}, never the slot's age. Thread-safe.
 */
final class RouteIndex {
  /** The most slots: 65,536 references, 256 KiB with compressed pointers. */
  static final int MAX_SLOTS = 1 << 16;

  private final ReadRoute[] slots;
  private final int mask;

  /**
   * An index of as many slots as the smallest power of two that holds {@code maxRoutes} consecutive ids (registries
   * give ids in turn), at most {@link #MAX_SLOTS}.
   */
  RouteIndex(int maxRoutes) {
    int size = maxRoutes >= MAX_SLOTS ? MAX_SLOTS : maxRoutes <= 1 ? 1 : Integer.highestOneBit(maxRoutes - 1) << 1;
    this.slots = new ReadRoute[size];
    this.mask = size - 1;
  }

  /** The route stored for {@code id}, or {@code null}. */
  ReadRoute get(int id) {
    ReadRoute route = slots[id & mask];
    return route != null && route.id() == id ? route : null;
  }

  /** Stores {@code route} in its id's slot, in place of whatever route held it. */
  void put(ReadRoute route) {
    slots[route.id() & mask] = route;
  }

  /** Empties every slot. */
  void clear() {
    Arrays.fill(slots, null);
  }

  /** The count of slots. */
  int size() {
    return slots.length;
  }
}
