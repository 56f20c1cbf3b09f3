package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37, item 8: {@code produce} against a broker that does not answer is one line naming the bootstrap servers
 * and the timeout, with no warning of a Kafka client beside it (it logged a consumer's, which produce never asked
 * for). The logs are caught behind the tool's own log configuration, as they reach its stderr.
 */
class ProduceUnreachableBrokerTest {
  @TempDir
  Path dir;

  /** What reaches the tool's appenders, past its log configuration's filters. */
  private static final class CaughtLogs extends AbstractAppender {
    final List<String> lines = new CopyOnWriteArrayList<>();

    CaughtLogs() {
      super("caught", null, null, true, Property.EMPTY_ARRAY);
    }

    @Override
    public void append(LogEvent event) {
      lines.add(event.getLevel() + " " + event.getLoggerName() + " - " + event.getMessage().getFormattedMessage());
    }
  }

  @Test
  void produce_unreachableBroker_oneLineNamingBootstrapAndTimeout_noClientWarnings() throws Exception {
    String deadBroker = "127.0.0.1:" + KavroCliTest.closedPort();
    Path schema = Files.writeString(dir.resolve("order.avsc"),
        "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CaughtLogs logs = new CaughtLogs();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    LoggerConfig root = context.getConfiguration().getRootLogger();
    logs.start();
    root.addAppender(logs, null, null);
    context.updateLoggers();
    InputStream stdin = System.in;
    System.setIn(new ByteArrayInputStream("{\"id\": 1}\n".getBytes(StandardCharsets.UTF_8)));
    int status;
    try {
      status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), "produce", "--topic", "orders",
          "--bootstrap-server", deadBroker, "--schema-registry-url", "http://127.0.0.1:1", "--value-schema",
          schema.toString(), "--property", "max.block.ms=2000");
    } finally {
      System.setIn(stdin);
      root.removeAppender(logs.getName());
      context.updateLoggers();
      logs.stop();
    }

    assertThat(status).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).isEqualTo("kavro: cannot reach the Kafka broker at " + deadBroker
        + " within 2000 ms (max.block.ms): no broker answered: is one running there, and is --bootstrap-server "
        + "right?" + System.lineSeparator());
    assertThat(logs.lines).as("logged beside the tool's line").noneMatch(line -> line.contains("[Consumer clientId="))
        .noneMatch(line -> line.contains("clientId=")).isEmpty();
  }
}
