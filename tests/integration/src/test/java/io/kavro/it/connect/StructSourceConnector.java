package io.kavro.it.connect;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.source.SourceConnector;

/** A test source that emits {@code count} Structs of a rich schema to {@code topic}, then nothing. */
public class StructSourceConnector extends SourceConnector {
  static final Schema LOCATION = SchemaBuilder.struct().name("io.kavro.it.connect.Location")
      .field("site", Schema.STRING_SCHEMA)
      .field("floor", Schema.OPTIONAL_INT16_SCHEMA)
      .build();
  /** The schema of every record. */
  public static final Schema SCHEMA = SchemaBuilder.struct().name("io.kavro.it.connect.Reading").doc("a reading")
      .field("id", Schema.INT64_SCHEMA)
      .field("sensor", Schema.STRING_SCHEMA)
      .field("value", Decimal.builder(3).build())
      .field("at", Timestamp.SCHEMA)
      .field("note", Schema.OPTIONAL_STRING_SCHEMA)
      .field("unit", SchemaBuilder.string().optional().defaultValue("celsius").build())
      .field("samples", SchemaBuilder.array(Schema.FLOAT64_SCHEMA).build())
      .field("labels", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).build())
      .field("location", LOCATION)
      .build();

  private Map<String, String> props;

  /** Record number {@code i}, the same every time. */
  public static Struct reading(int i) {
    return new Struct(SCHEMA)
        .put("id", (long) i)
        .put("sensor", "sensor-" + (i % 3))
        .put("value", new BigDecimal(i + ".125"))
        .put("at", new java.util.Date(1_750_000_000_000L + i))
        .put("note", i % 2 == 0 ? null : "odd")
        .put("unit", i % 4 == 0 ? "kelvin" : "celsius")
        .put("samples", List.of(i * 1.5, -i * 0.5))
        .put("labels", Map.of("index", Integer.toString(i)))
        .put("location", new Struct(LOCATION).put("site", "lab").put("floor", (short) (i % 5)));
  }

  @Override
  public void start(Map<String, String> props) {
    this.props = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return StructSourceTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return List.of(props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef()
        .define("topic", ConfigDef.Type.STRING, ConfigDef.Importance.HIGH, "topic to write to")
        .define("count", ConfigDef.Type.INT, ConfigDef.Importance.HIGH, "records to emit");
  }

  @Override
  public String version() {
    return "test";
  }
}
