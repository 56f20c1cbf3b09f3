package io.kavro.it.connect;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * A test sink. With {@code collector}, it keeps every record in memory ({@link CollectingSinkTask}), for a
 * worker in the test's JVM; with {@code report}, it writes each record as JSON to that file
 * ({@link JsonReportSinkTask}), for a worker in a JVM of its own.
 */
public class TestSinkConnector extends SinkConnector {
  private Map<String, String> props;

  @Override
  public void start(Map<String, String> props) {
    this.props = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return props.containsKey("report") ? JsonReportSinkTask.class : CollectingSinkTask.class;
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
        .define("collector", ConfigDef.Type.STRING, null, ConfigDef.Importance.HIGH, "in-memory bucket name")
        .define("report", ConfigDef.Type.STRING, null, ConfigDef.Importance.HIGH, "file to append JSON lines to");
  }

  @Override
  public String version() {
    return "test";
  }
}
