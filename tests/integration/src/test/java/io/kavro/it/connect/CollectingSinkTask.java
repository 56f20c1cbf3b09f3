package io.kavro.it.connect;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/** Adds every record to {@link #RECEIVED} under the connector's {@code collector} name. */
public class CollectingSinkTask extends SinkTask {
  /** Records received per collector name. */
  public static final Map<String, List<SinkRecord>> RECEIVED = new ConcurrentHashMap<>();
  private List<SinkRecord> bucket;

  @Override
  public void start(Map<String, String> props) {
    bucket = RECEIVED.computeIfAbsent(props.get("collector"), k -> new CopyOnWriteArrayList<>());
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    bucket.addAll(records);
  }

  @Override
  public void stop() {}

  @Override
  public String version() {
    return "test";
  }
}
