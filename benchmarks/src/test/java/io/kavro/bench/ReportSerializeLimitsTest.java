package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link Report}'s serialize limits: each column comes from its own benchmark method's result, and a run without
 * {@code SerializeLimitsBenchmark} (or without one of its shapes) still renders.
 */
class ReportSerializeLimitsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** S3's nanoseconds an operation: each method's distinct, so a wrong one shows. */
  private static final Map<String, Double> S3 = Map.of("kavro", 400.0, "handWritten", 250.0, "outputOnly", 50.0,
      "valuesReadAndOutput", 160.0, "raw", 500.0);

  @Test
  void serializeLimits_columnsAreEachMethodsOwnResult() {
    String md = Report.serializeLimits(List.of(jmh()));

    Map<String, String> s3 = row(md, "S3");
    assertThat(s3).containsEntry("Kavro ns/op", "400").containsEntry("hand-written ns/op", "250")
        .containsEntry("output only ns/op", "50.0").containsEntry("values read and output ns/op", "160")
        .containsEntry("Kavro/floor (time)", "2.50").containsEntry("values read and output B/op", "1,600")
        .containsEntry("raw Avro ns/op", "500")
        .containsEntry("Kavro/raw", "0.80").containsEntry("hand-written/raw", "0.50")
        .containsEntry("Kavro/hand-written", "1.60").containsEntry("Kavro B/op", "4,000")
        .containsEntry("hand-written B/op", "2,500");
    assertThat(row(md, "S2")).containsEntry("Kavro ns/op", "n/a").containsEntry("Kavro/hand-written", "n/a");
  }

  @Test
  void serializeLimits_ofARunWithoutThem_renderUnmeasured() {
    String md = Report.serializeLimits(List.of(JSON.createArrayNode()));

    assertThat(row(md, "S3")).containsEntry("hand-written ns/op", "n/a").containsEntry("Kavro/hand-written", "n/a");
  }

  /** A JMH result of {@code SerializeLimitsBenchmark}, S3 only; 10 bytes allocated a nanosecond. */
  private static JsonNode jmh() {
    ArrayNode runs = JSON.createArrayNode();
    S3.forEach((method, score) -> {
      ObjectNode run = runs.addObject();
      run.put("benchmark", "io.kavro.bench.SerializeLimitsBenchmark." + method);
      run.putObject("params").put("shape", "S3");
      run.putObject("primaryMetric").put("score", score);
      run.putObject("secondaryMetrics").putObject("gc.alloc.rate.norm").put("score", score * 10);
    });
    return runs;
  }

  /** The cells of the table's row {@code shape}, by column header. */
  private static Map<String, String> row(String md, String shape) {
    List<String> lines = md.lines().filter(l -> l.startsWith("| ")).toList();
    String[] header = cells(lines.get(0));
    String[] row = cells(lines.stream().filter(l -> l.startsWith("| " + shape + " |")).findFirst().orElseThrow());
    assertThat(row).hasSameSizeAs(header);
    java.util.LinkedHashMap<String, String> byHeader = new java.util.LinkedHashMap<>();
    for (int i = 0; i < header.length; i++) {
      byHeader.put(header[i], row[i]);
    }
    return byHeader;
  }

  private static String[] cells(String line) {
    return Stream.of(line.substring(1, line.length() - 1).split("\\|")).map(String::trim).toArray(String[]::new);
  }
}
