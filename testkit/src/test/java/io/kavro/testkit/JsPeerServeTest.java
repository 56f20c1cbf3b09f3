package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The harness of {@code peer.js serve} as {@link JsPeer} uses it: a failure of the harness itself is never taken
 * for the client's own exit code 1, and what a command does after it answered neither corrupts the protocol nor
 * passes unnoticed. Drives peer.js's test-only {@code __test} commands (tests/js-peer/README.md).
 */
class JsPeerServeTest {
  private static final String[] CEL = {"cel", "message.s == 'a'", "{\"s\":\"a\"}"};

  @Test
  void aFailedReset_throwsNamingTheCommand_notTheClientsExitCode1() throws Exception {
    JsPeer peer = JsPeer.require();
    assertThat(peer.run("__test", "break-next-reset").line()).isEqualTo("ok");

    assertThatThrownBy(() -> peer.run(CEL)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("failed, not the client")
        .hasMessageContaining("cel message.s == 'a'")
        .hasMessageContaining("reset broken on purpose");

    assertThat(peer.run(CEL).line()).as("the next command, on a new serve").contains("\"value\":true");
  }

  @Test
  void outputAndARejectionAfterTheAnswer_failTheNextCommand_blamingTheOneThatLeftThem() throws Exception {
    JsPeer peer = JsPeer.require();
    assertThat(peer.run("__test", "late-failure").line()).isEqualTo("ok");

    assertThatThrownBy(() -> peer.run(CEL)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cel message.s == 'a'")
        .hasMessageContaining("after command #")
        .hasMessageContaining("[\"__test\",\"late-failure\"] answered: it printed on stdout: late output")
        .hasMessageContaining("unhandled rejection: Error: late rejection");

    JsPeer.Run next = peer.run(CEL);
    assertThat(next.line()).isEqualTo("{\"value\":true,\"conditionFails\":false}");
    assertThat(next.stderr()).isEmpty();
  }
}
