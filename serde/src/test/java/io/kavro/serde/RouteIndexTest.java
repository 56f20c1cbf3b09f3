package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.ReadPlanner.ReadRoute;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class RouteIndexTest {
  private static final Schema SCHEMA = Schema.create(Schema.Type.STRING);

  private static ReadRoute route(int id) {
    return new ReadRoute(id, SCHEMA, SCHEMA, null, null, null, Long.MAX_VALUE, 0);
  }

  @Test
  void size_smallestPowerOfTwoThatHoldsTheBound() {
    assertThat(new RouteIndex(1).size()).isEqualTo(1);
    assertThat(new RouteIndex(1000).size()).isEqualTo(1024);
    assertThat(new RouteIndex(1024).size()).isEqualTo(1024);
    assertThat(new RouteIndex(1025).size()).isEqualTo(2048);
    assertThat(new RouteIndex(Integer.MAX_VALUE).size()).isEqualTo(RouteIndex.MAX_SLOTS);
  }

  @Test
  void get_consecutiveIdsUpToTheBound_eachInItsOwnSlot() {
    RouteIndex index = new RouteIndex(1000);
    for (int id = 5000; id < 6000; id++) {
      index.put(route(id));
    }
    for (int id = 5000; id < 6000; id++) {
      assertThat(index.get(id).id()).isEqualTo(id);
    }
    assertThat(index.get(4999)).isNull();
  }

  @Test
  void get_idsSharingASlot_onlyTheLastStoredAnswers() {
    RouteIndex index = new RouteIndex(1024);
    index.put(route(7));
    index.put(route(7 + 1024));

    assertThat(index.get(7)).as("its slot holds another id's route").isNull();
    assertThat(index.get(7 + 1024).id()).isEqualTo(7 + 1024);
  }

  @Test
  void get_negativeIds_inRange() {
    RouteIndex index = new RouteIndex(16);
    index.put(route(-3));

    assertThat(index.get(-3).id()).isEqualTo(-3);
    assertThat(index.get(13)).isNull();
  }

  @Test
  void clear_emptiesEverySlot() {
    RouteIndex index = new RouteIndex(16);
    index.put(route(1));
    index.clear();

    assertThat(index.get(1)).isNull();
  }
}
