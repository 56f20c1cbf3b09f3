package io.kavro.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ratios of {@link KafkaClientBenchmark} from rounds run interleaved: each round runs every serde once, a fork
 * each, in a shuffled order (so that the machine's drift falls on all alike), and writes {@code <round>-<serde>.json}
 * (JMH's JSON of one serde's shots). Single shots of a producer on a shared 2-core machine swing by half from one
 * to the next; one fork per serde cannot tell 0.80 from 0.90, rounds can. Per serde and round, its records/s over
 * the byte-array serde's ({@code BYTES}) is the ratio of the two forks' median shots; over rounds, the geometric mean
 * of those ratios, with a 95% interval from Student's t over the rounds' log ratios (rounds are the units: a round's
 * shots share a fork's JIT and heap). Each serde's shots of those rounds are also pooled for its median time.
 *
 * <pre>ClientRounds &lt;folder of round-serde.json files&gt;</pre>
 */
public final class ClientRounds {
  /** Fewer paired rounds than this give no interval. */
  static final int LEAST_ROUNDS = 3;
  private static final Pattern FILE = Pattern.compile("(\\d+)-([A-Z_]+)\\.json");
  private static final String BASELINE = "BYTES";
  /** Student's t, two-sided 95%, for 1 to 30 degrees of freedom; above 30, 30's (a little wide). */
  private static final double[] T_975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
      2.052, 2.048, 2.045, 2.042};

  /** Per serde, per round: the shots' times in ms/op. */
  private final Map<String, Map<Integer, double[]>> shots;

  ClientRounds(Map<String, Map<Integer, double[]>> shots) {
    if (!shots.containsKey(BASELINE)) {
      throw new IllegalArgumentException("no " + BASELINE + " rounds: the ratios are over the byte-array serde");
    }
    this.shots = shots;
  }

  /** Prints the table of the rounds in the folder {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ClientRounds <folder of <round>-<serde>.json files>");
    }
    System.out.print(read(Path.of(args[0])).table());
  }

  /**
   * The rounds in {@code folder}; files of a failed fork (empty, or no shots) are left out.
   *
   * @throws IllegalArgumentException if a file's shots are of another serde than its name says
   */
  static ClientRounds read(Path folder) throws IOException {
    Map<String, Map<Integer, double[]>> shots = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.sorted().toList()) {
        Matcher name = FILE.matcher(file.getFileName().toString());
        if (!name.matches() || Files.size(file) == 0) {
          continue;
        }
        JsonNode run = json.readTree(file.toFile());
        if (run.size() == 0) {
          continue;
        }
        String serde = run.get(0).path("params").path("serde").asText();
        if (!serde.equals(name.group(2))) {
          throw new IllegalArgumentException(file + " holds shots of serde '" + serde + "'");
        }
        List<Double> times = new ArrayList<>();
        run.get(0).path("primaryMetric").path("rawData").forEach(fork -> fork.forEach(shot -> times.add(
            shot.asDouble())));
        if (!times.isEmpty()) {
          shots.computeIfAbsent(serde, s -> new TreeMap<>()).put(Integer.parseInt(name.group(1)),
              times.stream().mapToDouble(Double::doubleValue).toArray());
        }
      }
    }
    return new ClientRounds(shots);
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /** The median of every shot of {@code serde} in the rounds paired with the byte-array serde's, pooled. */
  double pooledMedian(String serde) {
    return median(pairedShots(serde));
  }

  private double[] pairedShots(String serde) {
    return Arrays.stream(paired(serde)).mapToObj(shots.get(serde)::get).flatMapToDouble(Arrays::stream).toArray();
  }

  /** The rounds in which both {@code serde} and the byte-array serde ran. */
  int[] paired(String serde) {
    return shots.get(serde).keySet().stream().filter(shots.get(BASELINE)::containsKey).mapToInt(Integer::intValue)
        .toArray();
  }

  /** Per paired round, {@code serde}'s records/s over the byte-array serde's: the forks' median shots. */
  double[] roundRatios(String serde) {
    return Arrays.stream(paired(serde))
        .mapToDouble(r -> median(shots.get(BASELINE).get(r)) / median(shots.get(serde).get(r))).toArray();
  }

  /**
   * The geometric mean of {@code ratios} and its 95% interval from Student's t over their logs: {@code {mean, low,
   * high}}, or only {@code {mean}} for fewer than {@link #LEAST_ROUNDS} ratios.
   */
  static double[] estimate(double[] ratios) {
    double[] logs = Arrays.stream(ratios).map(Math::log).toArray();
    double mean = Arrays.stream(logs).average().orElse(Double.NaN);
    if (logs.length < LEAST_ROUNDS) {
      return new double[] {Math.exp(mean)};
    }
    double squares = Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum();
    int freedom = logs.length - 1;
    double half = T_975[Math.min(freedom, T_975.length) - 1] * Math.sqrt(squares / freedom / logs.length);
    return new double[] {Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half)};
  }

  /**
   * The table: per serde, the rounds paired with the byte-array serde's, its shots and their pooled median,
   * records/s, the ratio with its interval, each round's.
   */
  String table() {
    StringBuilder md = new StringBuilder();
    md.append("| serde | rounds | shots | median ms/op (pooled) | records/s (500,000 an op) | /byte[] records/s "
        + "(geometric mean over rounds) | 95% interval (t over rounds) | each round's |\n"
        + "|---|---|---|---|---|---|---|---|\n");
    for (String serde : shots.keySet()) {
      if (paired(serde).length == 0) {
        md.append("| ").append(serde).append(" | 0 | | | | n/a: no round paired with byte[] | | |\n");
        continue;
      }
      int count = pairedShots(serde).length;
      double median = pooledMedian(serde);
      md.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %,.0f | ", serde, paired(serde).length, count,
          median, KafkaClientBenchmark.RECORDS / (median / 1000)));
      if (serde.equals(BASELINE)) {
        md.append("1 | | |\n");
        continue;
      }
      double[] ratios = roundRatios(serde);
      double[] estimate = estimate(ratios);
      md.append(String.format(Locale.ROOT, "%.3f | %s | %s |\n", estimate[0], estimate.length == 1
          ? "n/a: fewer than " + LEAST_ROUNDS + " rounds"
          : String.format(Locale.ROOT, "%.3f to %.3f", estimate[1], estimate[2]),
          Arrays.stream(ratios).mapToObj(r -> String.format(Locale.ROOT, "%.2f", r))
              .collect(java.util.stream.Collectors.joining(" "))));
    }
    return md.toString();
  }
}
