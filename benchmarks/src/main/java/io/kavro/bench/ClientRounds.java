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
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ratios of {@link KafkaClientBenchmark} from rounds run interleaved: each round runs every serde once, a fork
 * each, in a shuffled order (so that the machine's drift falls on all alike), and writes {@code <round>-<serde>.json}
 * (JMH's JSON of one serde's shots). Single shots of a producer on a shared 2-core machine swing by half from one
 * to the next; one fork per serde cannot tell 0.80 from 0.90, rounds can. Per serde: every shot of every round
 * pooled, its median, and its records/s over the byte-array serde's ({@code BYTES}) with a 95% interval from a
 * bootstrap over rounds (a round's shots resampled together, as they share a fork's JIT and heap).
 *
 * <pre>ClientRounds &lt;folder of round-serde.json files&gt;</pre>
 */
public final class ClientRounds {
  /** Resamples of the bootstrap. */
  static final int RESAMPLES = 2_000;
  private static final Pattern FILE = Pattern.compile("(\\d+)-([A-Z_]+)\\.json");
  private static final String BASELINE = "BYTES";

  /** Per serde, per round: the shots' times in ms/op. */
  private final Map<String, Map<Integer, double[]>> shots;

  ClientRounds(Map<String, Map<Integer, double[]>> shots) {
    if (!shots.containsKey(BASELINE)) {
      throw new IllegalArgumentException("no " + BASELINE + " rounds: the ratios are over the byte-array serde");
    }
    this.shots = shots;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ClientRounds <folder of <round>-<serde>.json files>");
    }
    System.out.print(read(Path.of(args[0])).table());
  }

  /** The rounds in {@code folder}; files of a failed fork (empty, or no shots) are left out. */
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
        JsonNode raw = run.get(0).path("primaryMetric").path("rawData");
        List<Double> times = new ArrayList<>();
        raw.forEach(fork -> fork.forEach(shot -> times.add(shot.asDouble())));
        if (!times.isEmpty()) {
          shots.computeIfAbsent(name.group(2), serde -> new TreeMap<>()).put(Integer.parseInt(name.group(1)),
              times.stream().mapToDouble(Double::doubleValue).toArray());
        }
      }
    }
    return new ClientRounds(shots);
  }

  /** The median of every shot of {@code serde} in {@code rounds} (a round given twice counts twice). */
  double median(String serde, int[] rounds) {
    Map<Integer, double[]> byRound = shots.get(serde);
    double[] all = Arrays.stream(rounds).filter(byRound::containsKey)
        .mapToObj(byRound::get).flatMapToDouble(Arrays::stream).sorted().toArray();
    if (all.length == 0) {
      return Double.NaN;
    }
    int middle = all.length / 2;
    return all.length % 2 == 1 ? all[middle] : (all[middle - 1] + all[middle]) / 2;
  }

  /** {@code serde}'s records/s over the byte-array serde's, from the pooled medians of {@code rounds}. */
  double ratio(String serde, int[] rounds) {
    return median(BASELINE, rounds) / median(serde, rounds);
  }

  /** The rounds in which both {@code serde} and the byte-array serde ran. */
  int[] paired(String serde) {
    return shots.get(serde).keySet().stream().filter(shots.get(BASELINE)::containsKey).mapToInt(Integer::intValue)
        .toArray();
  }

  /** The 2.5th and 97.5th percentiles of {@code serde}'s ratio over rounds resampled with replacement. */
  double[] interval(String serde) {
    int[] rounds = paired(serde);
    Random random = new Random(rounds.length * 31L + serde.hashCode()); // the same table from the same files
    double[] ratios = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      int[] drawn = new int[rounds.length];
      for (int j = 0; j < drawn.length; j++) {
        drawn[j] = rounds[random.nextInt(rounds.length)];
      }
      ratios[i] = ratio(serde, drawn);
    }
    Arrays.sort(ratios);
    return new double[] {ratios[(int) (RESAMPLES * 0.025)], ratios[(int) (RESAMPLES * 0.975) - 1]};
  }

  /** The table: per serde, rounds, shots, median, records/s and the ratio with its interval. */
  String table() {
    StringBuilder md = new StringBuilder();
    md.append("| serde | rounds | shots | median ms/op | records/s (500,000 an op) | /byte[] records/s | 95% interval "
        + "(bootstrap over rounds) |\n|---|---|---|---|---|---|---|\n");
    for (String serde : shots.keySet()) {
      int[] rounds = paired(serde);
      long count = Arrays.stream(rounds).mapToLong(r -> shots.get(serde).get(r).length).sum();
      double median = median(serde, rounds);
      md.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %,.0f | ", serde, rounds.length, count, median,
          KafkaClientBenchmark.RECORDS / (median / 1000)));
      if (serde.equals(BASELINE)) {
        md.append("1 | |\n");
      } else {
        double[] interval = interval(serde);
        md.append(String.format(Locale.ROOT, "%.2f | %.2f to %.2f |\n", ratio(serde, rounds), interval[0],
            interval[1]));
      }
    }
    return md.toString();
  }
}
