package io.kavro.it.connect;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * A test sink for a worker in another JVM: writes each record's value schema and value, as Connect's own
 * JsonConverter renders them (schemas.enable=true), one line each, to the file named by {@code report}.
 */
public class JsonReportSinkConnector extends SinkConnector {
  private Map<String, String> props;

  @Override
  public void start(Map<String, String> props) {
    this.props = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return JsonReportSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return List.of(props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef().define("report", ConfigDef.Type.STRING, ConfigDef.Importance.HIGH, "file to append to");
  }

  @Override
  public String version() {
    return "test";
  }
}
