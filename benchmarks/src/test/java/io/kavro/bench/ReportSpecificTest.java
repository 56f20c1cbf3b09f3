package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link Report}'s floors under the generated-class reads: each column from its own benchmark, the sentence stating
 * the floor, the n/a target rows, and a JMH result of a run before the floors existed still rendering.
 */
class ReportSpecificTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> READS = List.of("kavroDeserialize", "handWrittenDeserialize",
      "allocationOnlyDeserialize", "rawDeserialize");
  /** ns/op of each read, S2 then S3: all distinct, so a wrong column shows. */
  private static final Map<String, double[]> NANOS = Map.of("kavroDeserialize", new double[] {1400, 700},
      "handWrittenDeserialize", new double[] {1600, 560}, "allocationOnlyDeserialize", new double[] {1050, 350},
      "rawDeserialize", new double[] {1750, 1120});

  @Test
  void readFloors_columnsAndSentence_comeFromEachBenchmark() {
    String md = Report.specificAndTargets(List.of(jmh(true)));

    // 1400/1750, 1600/1750, 1050/1750, 1400/1600; bytes: 4 a nanosecond
    assertThat(readRow(md, "S2")).containsEntry("Kavro ns/op", "1,400").containsEntry("hand-written ns/op", "1,600")
        .containsEntry("allocation and copy ns/op", "1,050").containsEntry("raw Avro ns/op", "1,750")
        .containsEntry("Kavro/raw", "0.80").containsEntry("hand-written/raw", "0.91")
        .containsEntry("allocation and copy/raw", "0.60").containsEntry("Kavro/hand-written", "0.88")
        .containsEntry("Kavro B/op", "5,600").containsEntry("hand-written B/op", "6,400")
        .containsEntry("allocation and copy B/op", "4,200");
    assertThat(readRow(md, "S3")).containsEntry("allocation and copy/raw", "0.31").containsEntry("hand-written/raw",
        "0.50");
    // 0.70 of 1,750 is 1,225: 175 beyond the floor's 1,050; Kavro 350 beyond it, the hand-written reader 550
    assertThat(md).contains("Generated S2: Kavro reads at 0.80 of Avro's `SpecificDatumReader`, a reader written by "
        + "hand for the class at 0.91, and merely building the same objects takes 0.60 (1,050 of 1,750 ns): no "
        + "reader returning the generated class reads at less than that. For 0.70 a reader may take 1,225 ns, 175 ns "
        + "beyond the objects alone; Kavro takes 350 ns beyond the objects alone, the hand-written reader on Avro's "
        + "decoder 550 ns.");
    assertThat(target(md, "Generated classes: deserialize floor/raw, S2")).containsExactly("0.60, 0.91", "n/a");
    assertThat(target(md, "Generated classes: deserialize floor/raw, S3")).containsExactly("0.31, 0.50", "n/a");
    assertThat(target(md, "Generated classes: deserialize Kavro/raw, S2")).containsExactly("0.80", "**no**");
  }

  @Test
  void readFloors_ofARunWithoutThem_renderNoTableAndUnmeasuredTargets() {
    String md = Report.specificAndTargets(List.of(jmh(false)));

    assertThat(md).doesNotContain("Under the reads").doesNotContain("Generated S2:");
    assertThat(target(md, "Generated classes: deserialize floor/raw, S2")).containsExactly("not measured", "n/a");
    assertThat(target(md, "Generated classes: deserialize Kavro/raw, S3")).containsExactly("0.63", "yes");
  }

  @Test
  void readFloors_aFloorOver070OnlyWithinNoise_isNotCalledUnreachable() {
    // 0.70 of 1,750 is 1,225, under the floor's 1,300; with errors of 60: 0.70 of 1,810 is 1,267, over 1,240
    Map<String, double[]> nanos = new java.util.HashMap<>(NANOS);
    nanos.put("allocationOnlyDeserialize", new double[] {1300, 350});

    String exact = Report.specificAndTargets(List.of(jmh(true, nanos, 0)));
    String noisy = Report.specificAndTargets(List.of(jmh(true, nanos, 60)));

    assertThat(exact).contains("0.70 (1,225 ns) is under that floor beyond this run's noise: no such reader can "
        + "meet it;");
    assertThat(noisy).contains("0.70 (1,225 ns) is within this run's noise of that floor;")
        .doesNotContain("no such reader can meet it");
  }

  /** A JMH result of {@code SpecificBenchmark}'s reads, with or without the floors' rows. */
  private static JsonNode jmh(boolean withFloors) {
    return jmh(withFloors, NANOS, 0);
  }

  /** A JMH result of {@code SpecificBenchmark}'s reads with these ns/op and this error on every one (0: none). */
  private static JsonNode jmh(boolean withFloors, Map<String, double[]> nanos, double error) {
    ArrayNode runs = JSON.createArrayNode();
    for (String read : READS) {
      if (!withFloors && (read.startsWith("hand") || read.startsWith("allocation"))) {
        continue;
      }
      for (int s = 0; s < 2; s++) {
        ObjectNode run = runs.addObject();
        run.put("benchmark", "io.kavro.bench.SpecificBenchmark." + read);
        run.putObject("params").put("shape", s == 0 ? "S2" : "S3");
        ObjectNode metric = run.putObject("primaryMetric").put("score", nanos.get(read)[s]);
        if (error > 0) {
          metric.put("scoreError", error);
        }
        run.putObject("secondaryMetrics").putObject("gc.alloc.rate.norm").put("score", nanos.get(read)[s] * 4);
      }
    }
    return runs;
  }

  /** The cells of the reads' floor table row of {@code shape}, by column header. */
  private static Map<String, String> readRow(String md, String shape) {
    String section = md.substring(md.indexOf("Under the reads"), md.indexOf("## Targets"));
    List<String> lines = section.lines().filter(l -> l.startsWith("| ")).toList();
    String[] header = cells(lines.get(0));
    String[] row = cells(lines.stream().filter(l -> l.startsWith("| " + shape + " |")).findFirst().orElseThrow());
    assertThat(row).hasSameSizeAs(header);
    Map<String, String> byHeader = new LinkedHashMap<>();
    for (int i = 0; i < header.length; i++) {
      byHeader.put(header[i], row[i]);
    }
    return byHeader;
  }

  /** The measured and met cells of the target whose name starts with {@code name}. */
  private static String[] target(String md, String name) {
    String line = md.lines().filter(l -> l.startsWith("| " + name)).findFirst().orElseThrow();
    return Arrays.copyOfRange(cells(line), 1, 3);
  }

  private static String[] cells(String line) {
    return Stream.of(line.substring(1, line.length() - 1).split("\\|")).map(String::trim).toArray(String[]::new);
  }
}
