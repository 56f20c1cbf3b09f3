package io.kavro.it.connect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/** Appends {@link JsonConverter}'s rendering of each record's value (schema and payload) to the report file. */
public class JsonReportSinkTask extends SinkTask {
  private Path report;
  private final JsonConverter json = new JsonConverter();

  @Override
  public void start(Map<String, String> props) {
    report = Path.of(props.get("report"));
    json.configure(Map.of("schemas.enable", true), false);
  }

  /** One line per record: the JSON envelope {"schema": ..., "payload": ...}. */
  public static String render(JsonConverter json, String topic, org.apache.kafka.connect.data.Schema schema,
      Object value) {
    return new String(json.fromConnectData(topic, schema, value), StandardCharsets.UTF_8);
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    StringBuilder lines = new StringBuilder();
    for (SinkRecord record : records) {
      lines.append(render(json, record.topic(), record.valueSchema(), record.value())).append('\n');
    }
    try {
      Files.writeString(report, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void stop() {}

  @Override
  public String version() {
    return "test";
  }
}
