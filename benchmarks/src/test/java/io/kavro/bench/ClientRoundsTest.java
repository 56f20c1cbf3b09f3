package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClientRounds}: pooled medians and ratios worked out by hand from JMH files of rounds, the interval from
 * resampled rounds, and the files it leaves out.
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
  void pooledMedians_andTheRatioOverByteArrays() throws IOException {
    round(1, "BYTES", 100, 300);
    round(2, "BYTES", 200);
    round(1, "KAVRO", 400, 500);
    round(2, "KAVRO", 100);
    round(3, "KAVRO", 900); // no BYTES in round 3: left out of the ratio
    Files.writeString(folder.resolve("4-FLOOR.json"), ""); // a fork that failed
    Files.writeString(folder.resolve("notes.txt"), "not a round");

    ClientRounds rounds = ClientRounds.read(folder);

    int[] paired = rounds.paired("KAVRO");
    assertThat(paired).containsExactly(1, 2);
    // BYTES 100, 200, 300: 200; KAVRO 100, 400, 500: 400; records/s ratio 200/400
    assertThat(rounds.median("BYTES", paired)).isEqualTo(200);
    assertThat(rounds.median("KAVRO", paired)).isEqualTo(400);
    assertThat(rounds.ratio("KAVRO", paired)).isEqualTo(0.5);
    // round 1 twice: BYTES 100, 100, 300, 300 (200); KAVRO 400, 400, 500, 500 (450)
    assertThat(rounds.ratio("KAVRO", new int[] {1, 1})).isCloseTo(200.0 / 450, within(1e-12));
    String table = rounds.table();
    assertThat(table).contains("| BYTES | 2 | 3 | 200.0 | 2,500,000 | 1 | |")
        .contains("| KAVRO | 2 | 3 | 400.0 | 1,250,000 | 0.50 | ").doesNotContain("FLOOR");
  }

  @Test
  void interval_spansTheRoundsRatios_andCollapsesWhenRoundsAgree() throws IOException {
    for (int r = 1; r <= 6; r++) {
      round(r, "BYTES", 100, 100);
      round(r, "FLOOR", 125, 125); // 0.80 in every round
      round(r, "KAVRO", r % 2 == 0 ? 200 : 100, r % 2 == 0 ? 200 : 100); // 0.50 or 1.00 by round
    }

    ClientRounds rounds = ClientRounds.read(folder);

    assertThat(rounds.interval("FLOOR")).containsExactly(0.8, 0.8);
    double[] kavro = rounds.interval("KAVRO");
    assertThat(kavro[0]).isGreaterThanOrEqualTo(0.5).isLessThan(kavro[1]);
    assertThat(kavro[1]).isLessThanOrEqualTo(1.0);
    assertThat(rounds.interval("KAVRO")).as("the same files, the same interval").containsExactly(kavro);
  }

  @Test
  void withoutByteArrayRounds_noRatio() throws IOException {
    round(1, "KAVRO", 100);

    assertThatThrownBy(() -> ClientRounds.read(folder)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BYTES");
  }
}
