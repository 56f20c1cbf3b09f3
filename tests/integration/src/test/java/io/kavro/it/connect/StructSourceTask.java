package io.kavro.it.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/** Emits the connector's records once, then idles. */
public class StructSourceTask extends SourceTask {
  private String topic;
  private int count;
  private int next;

  @Override
  public void start(Map<String, String> props) {
    topic = props.get("topic");
    count = Integer.parseInt(props.get("count"));
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    if (next >= count) {
      Thread.sleep(200); // nothing more to emit: do not spin
      return null;
    }
    List<SourceRecord> batch = new ArrayList<>();
    for (; next < count; next++) {
      batch.add(new SourceRecord(Map.of("source", "test"), Map.of("position", next), topic, null,
          Schema.STRING_SCHEMA, "key-" + next, StructSourceConnector.SCHEMA, StructSourceConnector.reading(next)));
    }
    return batch;
  }

  @Override
  public void stop() {}

  @Override
  public String version() {
    return "test";
  }
}
