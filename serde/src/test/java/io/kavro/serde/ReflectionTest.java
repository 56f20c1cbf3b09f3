package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Plain Java classes and records, with schemas derived by reflection. */
class ReflectionTest {
  private final Serdes serdes = new Serdes();

  /** A Java record. */
  public record Point(int x, int y, String label) {}

  /** A plain class with a no-arg constructor. */
  public static class Pojo {
    public String name;
    public long count;
    public List<String> tags;

    public Pojo() {}

    Pojo(String name, long count, List<String> tags) {
      this.name = name;
      this.count = count;
      this.tags = tags;
    }
  }

  @AfterEach
  void close() {
    serdes.close();
  }

  @Test
  void javaRecord_roundTrips() {
    Point point = new Point(3, 4, "p");
    byte[] bytes = serdes.serializer("schema.reflection", true).serialize("points", point);

    Object read = serdes.deserializer("schema.reflection", true).deserialize("points", bytes);

    assertThat(read).isEqualTo(point);
    Schema registered = serdes.registry().latestVersion("points-value").schema();
    assertThat(registered.getFields()).extracting(Schema.Field::name).containsExactlyInAnyOrder("x", "y", "label");
  }

  @Test
  void pojo_roundTrips() {
    Pojo pojo = new Pojo("n", 7, List.of("a"));
    byte[] bytes = serdes.serializer("schema.reflection", true).serialize("pojos", pojo);

    Pojo read = (Pojo) serdes.deserializer("schema.reflection", true).deserialize("pojos", bytes);

    assertThat(read.name).isEqualTo("n");
    assertThat(read.count).isEqualTo(7);
    assertThat(read.tags).containsExactly("a");
  }

  @Test
  void allowNull_nullFieldsAccepted() {
    Pojo pojo = new Pojo(null, 1, null);
    byte[] bytes = serdes.serializer("schema.reflection", true, "avro.reflection.allow.null", true)
        .serialize("pojos", pojo);

    Pojo read = (Pojo) serdes.deserializer("schema.reflection", true, "avro.reflection.allow.null", true)
        .deserialize("pojos", bytes);

    assertThat(read.name).isNull();
    assertThat(read.count).isEqualTo(1);
  }
}
