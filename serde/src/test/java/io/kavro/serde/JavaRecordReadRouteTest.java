package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.reflect.ReflectData;
import org.junit.jupiter.api.Test;

/**
 * The read route of a Java record ({@code schema.reflection=true}): Avro's datum reader is made only where no
 * compiled decoder reads, as for generic and generated records (each of Avro's readers holds maps of its own, kept
 * per route); either reads the same record.
 */
class JavaRecordReadRouteTest {
  /** A consumer's record. */
  public record Point(long id, String name) {}

  /** id 7 (zig-zag 14), then "ab". */
  private static final byte[] BODY = {0x0e, 0x04, 'a', 'b'};

  @Test
  void compiledDecoder_noAvroReaderBesideIt() throws Exception {
    ReadPlanner.ReadRoute route = plan(true);

    assertThat(route.decoder()).isNotNull();
    assertThat(route.datumReader()).isNull();
    assertThat(route.read(new BoundedBinaryDecoder().reset(BODY, 0, BODY.length))).isEqualTo(new Point(7, "ab"));
  }

  @Test
  void fastCodecOff_avrosReaderReads() throws Exception {
    ReadPlanner.ReadRoute route = plan(false);

    assertThat(route.decoder()).isNull();
    assertThat(route.datumReader()).isInstanceOf(JavaRecordReader.class);
    assertThat(route.read(new BoundedBinaryDecoder().reset(BODY, 0, BODY.length))).isEqualTo(new Point(7, "ab"));
  }

  private static ReadPlanner.ReadRoute plan(boolean fastCodec) {
    Schema schema = ReflectData.get().getSchema(Point.class);
    ClassTrust.trust(Point.class, schema); // as the application's serializer would
    ReadPlanner planner = new ReadPlanner(new AvroSerdeConfig(Map.of(
        "schema.registry.url", "mock://java-record-read-route",
        AvroSerdeConfig.SCHEMA_REFLECTION_CONFIG, true,
        AvroSerdeConfig.AVRO_FAST_CODEC_CONFIG, fastCodec), false));
    return planner.plan(1, schema, schema, "a Point");
  }
}
