package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClientRounds}: medians, ratios and intervals worked out by hand from JMH files of rounds, and the files
 * it leaves out or refuses.
 */
class ClientRoundsTest {
  @TempDir
  Path folder;

  private void round(int round, String serde, double... shots) throws IOException {
    StringBuilder raw = new StringBuilder();
    for (double shot : shots) {
      raw.append(raw.length() == 0 ? "" : ",").append(shot);
    }
    Files.writeString(folder.resolve(round + "-" + serde + ".json"), "[{\"benchmark\":\"io.kavro.bench."
        + "KafkaClientBenchmark.produce\",\"params\":{\"serde\":\"" + serde + "\"},\"primaryMetric\":{\"rawData\":[["
        + raw + "]]}}]");
  }

  @Test
  void roundRatios_fromEachForksMedian_andPooledMedians() throws IOException {
    round(1, "BYTES", 100, 300);
    round(2, "BYTES", 200);
    round(1, "KAVRO", 400, 500);
    round(2, "KAVRO", 100);
    round(3, "KAVRO", 900); // no BYTES in round 3: no ratio
    Files.writeString(folder.resolve("4-FLOOR.json"), ""); // a fork that failed
    Files.writeString(folder.resolve("notes.txt"), "not a round");

    ClientRounds rounds = ClientRounds.read(folder);

    assertThat(rounds.paired("KAVRO")).containsExactly(1, 2);
    // round 1: BYTES median 200, KAVRO 450; round 2: 200 over 100
    assertThat(rounds.roundRatios("KAVRO")).containsExactly(200.0 / 450, 2.0);
    // pooled over the paired rounds: BYTES 100, 200, 300; KAVRO 100, 400, 500 (round 3's 900 left out)
    assertThat(rounds.pooledMedian("BYTES")).isEqualTo(200);
    assertThat(rounds.pooledMedian("KAVRO")).isEqualTo(400);
    assertThat(rounds.table()).contains("| BYTES | 2 | 3 | 200.0 | 2,500,000 | 1 | | |")
        // the geometric mean of 0.444 and 2: sqrt(0.888...) = 0.943
        .contains("| KAVRO | 2 | 3 | 400.0 | 1,250,000 | 0.943 | n/a: fewer than 3 rounds | 0.44 2.00 |")
        .doesNotContain("FLOOR");
  }

  /** Worked by hand: logs ln 0.5 and 0 alternating over 6 rounds, mean -0.34657, sd 0.37965, t(5) 2.5706. */
  @Test
  void interval_isStudentsTOverTheRoundsLogRatios() throws IOException {
    for (int r = 1; r <= 6; r++) {
      round(r, "BYTES", 100, 100, 100);
      round(r, "FLOOR", 125, 125, 125); // 0.80 in every round
      round(r, "KAVRO", r % 2 == 0 ? 200 : 100, r % 2 == 0 ? 200 : 100, 999); // 0.50 or 1.00 by round
    }

    ClientRounds rounds = ClientRounds.read(folder);

    double[] kavro = ClientRounds.estimate(rounds.roundRatios("KAVRO"));
    assertThat(kavro[0]).isCloseTo(Math.sqrt(0.5), within(1e-9));
    assertThat(kavro[1]).isCloseTo(Math.exp(-0.34657 - 0.39843), within(1e-4));
    assertThat(kavro[2]).isCloseTo(Math.exp(-0.34657 + 0.39843), within(1e-4));
    assertThat(ClientRounds.estimate(rounds.roundRatios("FLOOR"))).containsExactly(new double[] {0.8, 0.8, 0.8},
        within(1e-12));
    assertThat(rounds.table()).contains("| FLOOR | 6 | 18 | 125.0 | 4,000,000 | 0.800 | 0.800 to 0.800 | "
        + "0.80 0.80 0.80 0.80 0.80 0.80 |");
  }

  @Test
  void estimate_ofManyRounds_usesThirtyDegreesOfFreedomsT() {
    double[] ratios = new double[40];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = i % 2 == 0 ? 1 : Math.E; // logs 0 and 1: mean 0.5, sd sqrt(10/39)
    }

    double[] estimate = ClientRounds.estimate(ratios);

    double half = 2.042 * Math.sqrt(10.0 / 39) / Math.sqrt(40);
    assertThat(estimate[1]).isCloseTo(Math.exp(0.5 - half), within(1e-9));
    assertThat(estimate[2]).isCloseTo(Math.exp(0.5 + half), within(1e-9));
  }

  @Test
  void aSerdeNeverPairedWithByteArrays_hasARowWithoutRatio() throws IOException {
    round(1, "BYTES", 100);
    round(2, "KAVRO", 200); // BYTES failed in round 2, KAVRO in round 1

    assertThat(ClientRounds.read(folder).table()).contains("| KAVRO | 0 | | | | n/a: no round paired with byte[] |")
        .contains("| BYTES | 1 | 1 | 100.0 | 5,000,000 | 1 |");
  }

  @Test
  void filesNotOfTheirSerde_orWithoutByteArrayRounds_areRefused() throws IOException {
    round(1, "KAVRO", 100);

    assertThatThrownBy(() -> ClientRounds.read(folder)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BYTES");

    Files.writeString(folder.resolve("1-BYTES.json"), Files.readString(folder.resolve("1-KAVRO.json")));
    assertThatThrownBy(() -> ClientRounds.read(folder)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1-BYTES.json holds shots of serde 'KAVRO'");
  }

  /**
   * Six rounds: the floor at 0.80 in every one (below 0.85 beyond noise), Kavro at 0.50 or 1.00 by round (0.707,
   * from 0.475 to 1.053: not settled), Kavro over the floor 125/100 or 125/200 (0.884, from 0.593 to 1.317: the
   * floor is not outrun, so it stops the target).
   */
  @Test
  void section_saysWhatTheRoundsSayOfTheTarget_forKavroAndTheFloor() throws IOException {
    for (int r = 1; r <= 6; r++) {
      round(r, "BYTES", 100);
      round(r, "FLOOR", 125);
      round(r, "KAVRO", r % 2 == 0 ? 200 : 100);
    }

    String section = ClientRounds.read(folder).section("produce", "2026-12-07. Machine: M.");

    assertThat(section).startsWith("## In Kafka's clients, interleaved rounds (S3, produce)\n\n"
            + "`benchmarks/run --client-rounds 6 produce` on 2026-12-07. Machine: M. `KafkaClientBenchmark.produce` "
            + "in 6 rounds:")
        .contains("| FLOOR | 6 | 6 | 125.0 | 4,000,000 | 0.800 | 0.800 to 0.800 |")
        .contains("\n- Kavro/byte[]: 0.707 (0.475 to 1.053) against 0.85: within this machine's noise of it: these "
            + "rounds do not settle it.\n")
        .contains("\n- The floor/byte[]: 0.800 (0.800 to 0.800) against 0.85: below it beyond this machine's noise: "
            + "no serializer that reads each value of these records and allocates its output reaches it in this "
            + "loop here, so the floor stops the target.\n")
        .endsWith("\n- Kavro/floor (records/s): 0.884 (0.593 to 1.317), over the 6 rounds that ran both.\n\n");
    double[] overFloor = ClientRounds.estimate(ClientRounds.read(folder).roundRatios("KAVRO", "FLOOR"));
    assertThat(overFloor[0]).isCloseTo(Math.sqrt(1.25 * 0.625), within(1e-12));
    assertThatThrownBy(() -> ClientRounds.read(folder).section("both", "today.")).isInstanceOf(
        IllegalArgumentException.class).hasMessageContaining("produce or consume, not both");
  }

  /**
   * Kavro at 0.909 in three rounds meets 0.85; the floor at 0.8, 0.8 and 0.769 (0.790, from 0.746 to 0.835) is below
   * it, yet Kavro outruns it in every round (1.136, 1.136, 1.182): a floor that bounds nothing stops nothing.
   */
  @Test
  void section_kavroAboveTheTarget_meetsIt_andAFloorItOutrunsStopsNothing() throws IOException {
    for (int r = 1; r <= 3; r++) {
      round(r, "BYTES", 100, 100);
      round(r, "KAVRO", 110, 110);
      round(r, "FLOOR", r == 3 ? 130 : 125);
    }

    String section = ClientRounds.read(folder).section("consume", "today.");

    assertThat(section).contains("- Kavro/byte[]: 0.909 (0.909 to 0.909) against 0.85: meets it beyond this "
            + "machine's noise.\n")
        .contains("- The floor/byte[]: 0.790 (0.746 to 0.835) against 0.85: below it beyond this machine's noise, "
            + "yet Kavro outruns the floor beyond noise in these rounds: the floor bounds nothing here, so measure "
            + "again before reading either.\n")
        .doesNotContain("stops the target");

    Files.delete(folder.resolve("3-KAVRO.json")); // two rounds of Kavro: no verdict on it, nor on it over the floor
    assertThat(ClientRounds.read(folder).section("consume", "today.")).doesNotContain("- Kavro")
        .contains("`benchmarks/run --client-rounds 3 consume`")
        .contains("- The floor/byte[]: 0.790 (0.746 to 0.835) against 0.85: below it beyond this machine's noise: "
            + "no deserializer returning the object graph Kavro returns reaches it in this loop here, so the floor "
            + "stops the target.\n");
  }

  /**
   * Four rounds: Kavro at 0.667 misses 0.85 beyond noise; the floor at 0.870 and 0.800 (0.834, from 0.773 to 0.900:
   * its mean below 0.85, its interval across it) does not rule it out; then at 0.952 it is above it.
   */
  @Test
  void section_kavroBelowTheTarget_missesIt_aFloorAcrossItOrAboveDoesNotRuleItOut() throws IOException {
    for (int r = 1; r <= 4; r++) {
      round(r, "BYTES", 100);
      round(r, "KAVRO", 150);
      round(r, "FLOOR", r % 2 == 0 ? 125 : 115);
    }

    assertThat(ClientRounds.read(folder).section("produce", "today."))
        .contains("- Kavro/byte[]: 0.667 (0.667 to 0.667) against 0.85: misses it beyond this machine's noise.\n")
        .contains("- The floor/byte[]: 0.834 (0.773 to 0.900) against 0.85: within this machine's noise of it: the "
            + "floor does not rule it out.\n");

    for (int r = 1; r <= 4; r++) {
      round(r, "FLOOR", 105);
    }
    assertThat(ClientRounds.read(folder).section("produce", "today."))
        .contains("- The floor/byte[]: 0.952 (0.952 to 0.952) against 0.85: above it beyond this machine's noise: "
            + "the floor does not rule it out.\n");
  }

  @Test
  void spliced_replacesItsOwnOperationsSection_elseGoesAfterTheClientsAndTheirRounds() {
    String results = "# R\n\n## In Kafka's clients (S3)\n\nclients\n\n## Data contract rules (S3)\n\nrules\n\n"
        + "## Targets\n\ntargets\n";
    String produce = ClientRounds.header("produce") + "\n\nfirst\n\n";

    String once = ClientRounds.spliced(results, produce);
    String consume = ClientRounds.spliced(once, ClientRounds.header("consume") + "\n\nreads\n\n");
    String again = ClientRounds.spliced(consume, ClientRounds.header("produce") + "\n\nsecond\n\n");

    assertThat(once).isEqualTo("# R\n\n## In Kafka's clients (S3)\n\nclients\n\n" + produce
        + "## Data contract rules (S3)\n\nrules\n\n## Targets\n\ntargets\n");
    assertThat(again).isEqualTo("# R\n\n## In Kafka's clients (S3)\n\nclients\n\n"
        + "## In Kafka's clients, interleaved rounds (S3, produce)\n\nsecond\n\n"
        + "## In Kafka's clients, interleaved rounds (S3, consume)\n\nreads\n\n"
        + "## Data contract rules (S3)\n\nrules\n\n## Targets\n\ntargets\n");
    assertThat(ClientRounds.sectionsIn(again)).isEqualTo(
        "## In Kafka's clients, interleaved rounds (S3, produce)\n\nsecond\n\n"
        + "## In Kafka's clients, interleaved rounds (S3, consume)\n\nreads\n\n");
    assertThat(ClientRounds.sectionsIn(results)).isEmpty();
    assertThat(ClientRounds.spliced("# R\n\n## In Kafka's clients (S3)\n\nlast\n", produce))
        .isEqualTo("# R\n\n## In Kafka's clients (S3)\n\nlast\n" + produce);
    assertThat(ClientRounds.sectionsIn("# R\n\n" + produce)).isEqualTo(produce);
    assertThatThrownBy(() -> ClientRounds.spliced("# R\n\n## Targets\n", produce))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no section \"## In Kafka's clients (S3)\"");
  }

  /** Rounds are measured apart from the run that renders the rest: a new rendering keeps their sections. */
  @Test
  void report_keepsTheSectionsOfRounds_whenItRendersTheResultsAgain() throws Exception {
    String rounds = ClientRounds.header("produce") + "\n\nmeasured apart\n\n";
    String old = ClientRounds.spliced("# Kavro benchmark results\n\n## In Kafka's clients (S3)\n\nold\n\n"
        + "## Targets\n\nold targets\n", rounds);

    String rendered = Report.renderedWithoutOwnMeasures(List.of(new ObjectMapper().readTree("[]")), old, "quick");

    assertThat(rendered).contains(rounds).containsOnlyOnce(ClientRounds.SECTION);
    assertThat(rendered.indexOf(rounds)).isGreaterThan(rendered.indexOf("## In Kafka's clients (S3)"))
        .isLessThan(rendered.indexOf("## Targets"));
  }
}
