package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The harness of {@code peer.js serve} as {@link JsPeer} uses it: a failure of the harness itself is never taken
 * for the client's own exit code 1, and what a command does after it answered neither corrupts the protocol nor
 * passes unnoticed. Drives peer.js's test-only {@code __test} commands (tests/js-peer/README.md).
 */
class JsPeerServeTest {
  private static final String[] CEL = {"cel", "message.s == 'a'", "{\"s\":\"a\"}"};

  /** The first require() of a JVM may run npm ci: here, outside the tests' own timeouts. */
  @BeforeAll
  static void installed() {
    JsPeer.require();
  }

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
  void aRejectionAfterTheAnswer_failsTheNextCommand_blamingTheOneThatLeftIt() throws Exception {
    JsPeer peer = JsPeer.require();
    assertThat(peer.run("__test", "late-failure").line()).isEqualTo("ok");

    assertThatThrownBy(() -> peer.run(CEL)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cel message.s == 'a'")
        .hasMessageContaining("after command #")
        .hasMessageContaining("[\"__test\",\"late-failure\"] answered: unhandled rejection: Error: late rejection")
        .as("its late output is reported, not a failure").hasMessageNotContaining("late output");

    JsPeer.Run next = peer.run(CEL);
    assertThat(next.line()).isEqualTo("{\"value\":true,\"conditionFails\":false}");
    assertThat(next.stderr()).isEmpty();
  }

  /**
   * Review, item 5: output after a command answered (Node's warnings, a console.error on a later tick) is reported
   * on the real stderr and fails nothing: it failed the next, unrelated command with exit code 70 (a flaky CI).
   */
  @Test
  void outputAfterTheAnswer_failsNothing_andIsNotTheNextCommands() throws Exception {
    JsPeer peer = JsPeer.require();
    assertThat(peer.run("__test", "late-output").line()).isEqualTo("ok");

    JsPeer.Run next = peer.run(CEL);
    assertThat(next.line()).isEqualTo("{\"value\":true,\"conditionFails\":false}");
    assertThat(next.stderr()).isEmpty();
  }

  /** Review, item 6: an unknown test command is a usage error (exit code 2), not a failure of the harness (70). */
  @Test
  void unknownTestCommand_usageError() throws Exception {
    JsPeer.Run run = JsPeer.require().run("__test", "no-such-test");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("unknown test command 'no-such-test'");
  }

  /**
   * Review, item 6: a command whose answer cannot be written is answered as the harness's failure, naming it; it
   * used to leave the serve's queue rejected, so that no later line was ever answered (a 60 s timeout each).
   */
  @Test
  @Timeout(value = 50, unit = TimeUnit.SECONDS)
  void anAnswerThatCannotBeWritten_theHarnessFailure_notAHang() throws Exception {
    JsPeer peer = JsPeer.require();
    assertThat(peer.run("__test", "break-next-answer").line()).isEqualTo("ok");

    assertThatThrownBy(() -> peer.run(CEL)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("failed, not the client").hasMessageContaining("cel message.s == 'a'")
        .hasMessageContaining("answer broken on purpose");
    assertThat(peer.run(CEL).line()).contains("\"value\":true");
  }

  /**
   * Review, item 4: a serve that closes its stdout but lives on is stopped after a bounded wait, and the command
   * fails naming it; the JVM waited for it forever, holding the lock every JS peer command takes.
   */
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void aServeThatClosesItsStdoutAndLivesOn_stopped_notWaitedForForever() throws Exception {
    JsPeer peer = JsPeer.require();
    long defaultWait = JsPeer.exitWaitMillis;
    JsPeer.exitWaitMillis = 500; // the bound, not its length, is what this tests
    try {
      assertThatThrownBy(() -> peer.run("__test", "close-stdout")).isInstanceOf(IOException.class)
          .hasMessageContaining("did not exit within 500 ms: stopped")
          .hasMessageContaining("__test close-stdout");
    } finally {
      JsPeer.exitWaitMillis = defaultWait;
    }
    assertThat(peer.run(CEL).line()).as("the next command, on a new serve").contains("\"value\":true");
  }
}
