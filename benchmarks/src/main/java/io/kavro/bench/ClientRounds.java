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
 * <pre>ClientRounds &lt;folder of round-serde.json files&gt; [--into RESULTS.md produce|consume]</pre>
 *
 * <p>With {@code --into}, the table and what it says of the 0.85 target go into the results file as its section
 * {@value #SECTION} (the operation's own, replaced if there, else put after the section "In Kafka's clients (S3)"
 * and its other rounds), which {@link Report} carries over when it renders the file again.
 */
public final class ClientRounds {
  /** Fewer paired rounds than this give no interval. */
  static final int LEAST_ROUNDS = 3;
  private static final Pattern FILE = Pattern.compile("(\\d+)-([A-Z_]+)\\.json");
  private static final String BASELINE = "BYTES";
  /** The start of the header of a results file's section of rounds; the operation and shape follow. */
  static final String SECTION = "## In Kafka's clients, interleaved rounds";
  /** The target for Kavro over the byte-array serde, in records/s. */
  static final double TARGET = 0.85;
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

  /**
   * Prints the table of the rounds in the folder {@code args[0]}; with {@code --into <results> <operation>}, puts
   * them into the results file as that operation's section of rounds.
   */
  public static void main(String[] args) throws IOException {
    if (args.length == 4 && args[1].equals("--into")) {
      ClientRounds rounds = read(Path.of(args[0]));
      Path results = Path.of(args[2]);
      String section = rounds.section(args[3], java.time.LocalDate.now() + ". " + Report.machine());
      Files.writeString(results, spliced(Files.readString(results), section));
      System.out.print(section);
      return;
    }
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ClientRounds <folder of <round>-<serde>.json files> "
          + "[--into <RESULTS.md> produce|consume]");
    }
    System.out.print(read(Path.of(args[0])).table());
  }

  /**
   * The section of these rounds of {@code operation} for a results file: how they ran ({@code when}: the day and
   * the machine), their table, and what they say of the target, for Kavro and for the floor.
   *
   * @throws IllegalArgumentException if {@code operation} is neither {@code produce} nor {@code consume}
   */
  String section(String operation, String when) {
    if (!operation.equals("produce") && !operation.equals("consume")) {
      throw new IllegalArgumentException("produce or consume, not " + operation);
    }
    StringBuilder md = new StringBuilder();
    md.append(header(operation)).append("\n\n`benchmarks/run --client-rounds ").append(rounds()).append(' ')
        .append(operation).append("` on ").append(when).append(" `KafkaClientBenchmark.").append(operation)
        .append("` in ").append(rounds()).append(" rounds: each round runs each serde below once, a fork each, in a "
            + "shuffled order. A serde's ratio in a round is its records/s over the byte-array serde's, from the two "
            + "forks' median shots; over the rounds, the geometric mean with a 95% interval from Student's t over "
            + "their logs. The serdes are those of the section \"In Kafka's clients (S3)\".\n\n")
        .append(table()).append('\n');
    double[] kavro = estimateOver("KAVRO", BASELINE);
    double[] floor = estimateOver("FLOOR", BASELINE);
    double[] overFloor = estimateOver("KAVRO", "FLOOR");
    if (kavro != null) {
      md.append(line("Kavro/byte[]", kavro)).append(" against ").append(TARGET).append(": ").append(kavroVerdict(kavro))
          .append(".\n");
    }
    if (floor != null) {
      md.append(line("The floor/byte[]", floor)).append(" against ").append(TARGET).append(": ")
          .append(floorVerdict(floor, overFloor, operation)).append(".\n");
    }
    if (overFloor != null) {
      md.append(line("Kavro/floor (records/s)", overFloor)).append(", over the ")
          .append(roundRatios("KAVRO", "FLOOR").length).append(" rounds that ran both.\n");
    }
    return md.append('\n').toString();
  }

  /** {@code serde}'s records/s over {@code over}'s, with its interval, or null for too few rounds of both. */
  private double[] estimateOver(String serde, String over) {
    if (!shots.containsKey(serde) || !shots.containsKey(over)) {
      return null;
    }
    double[] ratios = roundRatios(serde, over);
    return ratios.length < LEAST_ROUNDS ? null : estimate(ratios);
  }

  private static String line(String what, double[] estimate) {
    return String.format(Locale.ROOT, "- %s: %.3f (%.3f to %.3f)", what, estimate[0], estimate[1], estimate[2]);
  }

  private static String kavroVerdict(double[] kavro) {
    if (kavro[1] >= TARGET) {
      return "meets it beyond this machine's noise";
    }
    return kavro[2] < TARGET ? "misses it beyond this machine's noise"
        : "within this machine's noise of it: these rounds do not settle it";
  }

  /**
   * What the floor says of the target. Below it beyond noise, it stops the target, unless Kavro outruns the floor
   * beyond noise in the same rounds: then the floor bounds nothing there, and neither verdict stands.
   */
  private static String floorVerdict(double[] floor, double[] overFloor, String operation) {
    if (floor[1] >= TARGET) {
      return "above it beyond this machine's noise: the floor does not rule it out";
    }
    if (floor[2] >= TARGET) {
      return "within this machine's noise of it: the floor does not rule it out";
    }
    if (overFloor != null && overFloor[1] > 1) {
      return "below it beyond this machine's noise, yet Kavro outruns the floor beyond noise in these rounds: the "
          + "floor bounds nothing here, so measure again before reading either";
    }
    return "below it beyond this machine's noise: no " + (operation.equals("produce")
        ? "serializer that reads each value of these records and allocates its output"
        : "deserializer returning the object graph Kavro returns") + " reaches it in this loop here, so the floor "
        + "stops the target";
  }

  /** The rounds that ran, whatever ran in them. */
  private int rounds() {
    return (int) shots.values().stream().flatMap(byRound -> byRound.keySet().stream()).distinct().count();
  }

  static String header(String operation) {
    return SECTION + " (S3, " + operation + ")";
  }

  /**
   * {@code results} with {@code section} in place of the section of the same header, else after the section "In
   * Kafka's clients (S3)" and the sections of rounds that follow it, where {@link Report} renders them.
   *
   * @throws IllegalArgumentException if the results have no section "In Kafka's clients (S3)"
   */
  static String spliced(String results, String section) {
    String header = section.substring(0, section.indexOf('\n'));
    int at = results.indexOf(header + "\n");
    if (at >= 0) {
      int end = results.indexOf("\n## ", at + header.length());
      return results.substring(0, at) + section + (end < 0 ? "" : results.substring(end + 1));
    }
    int clients = results.indexOf(Report.CLIENTS + "\n");
    if (clients < 0) {
      throw new IllegalArgumentException("the results have no section \"" + Report.CLIENTS + "\" to put " + header
          + " after");
    }
    int end = results.indexOf("\n## ", clients);
    while (end >= 0 && results.startsWith(SECTION, end + 1)) {
      end = results.indexOf("\n## ", end + 1);
    }
    return end < 0 ? results + section : results.substring(0, end + 1) + section + results.substring(end + 1);
  }

  /** Every section of rounds in {@code results}, in order, each ending in a blank line; empty if none. */
  static String sectionsIn(String results) {
    StringBuilder sections = new StringBuilder();
    int at = results.indexOf(SECTION);
    while (at >= 0) {
      int end = results.indexOf("\n## ", at);
      sections.append(results, at, end < 0 ? results.length() : end + 1);
      at = end < 0 ? -1 : results.indexOf(SECTION, end);
    }
    return sections.toString();
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
    return roundRatios(serde, BASELINE);
  }

  /** Per round that ran both, {@code serde}'s records/s over {@code over}'s: the forks' median shots. */
  double[] roundRatios(String serde, String over) {
    return shots.get(serde).keySet().stream().filter(shots.get(over)::containsKey)
        .mapToDouble(r -> median(shots.get(over).get(r)) / median(shots.get(serde).get(r))).toArray();
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
