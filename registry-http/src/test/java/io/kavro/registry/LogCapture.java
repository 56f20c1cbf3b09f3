package io.kavro.registry;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Captures every log line (message and exception) written while it is open, once each, with Kavro's loggers at
 * DEBUG; closing it puts the logging configuration back. Shared by the client's and the end-to-end tests (test-jar).
 */
public final class LogCapture implements AutoCloseable {
  private static final String NAME = "kavro-test-capture";
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final List<Map.Entry<Level, String>> messages = new CopyOnWriteArrayList<>();
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
  private final LoggerConfig kavro = context.getConfiguration().getLoggerConfig("io.kavro");
  private final Level previous = kavro.getLevel();

  /** Starts capturing. */
  public LogCapture() {
    AbstractAppender appender = new AbstractAppender(NAME, null, null, true, Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent event) {
        lines.add(event.getMessage().getFormattedMessage());
        messages.add(Map.entry(event.getLevel(), event.getMessage().getFormattedMessage()));
        if (event.getThrown() != null) {
          lines.add(String.valueOf(event.getThrown()));
        }
      }
    };
    appender.start();
    // On the root only: Kavro's loggers pass their lines on to it (additivity), so each line is captured once.
    context.getConfiguration().getRootLogger().addAppender(appender, Level.ALL, null);
    kavro.setLevel(Level.DEBUG);
    context.updateLoggers();
  }

  /** The lines captured so far. */
  public List<String> lines() {
    return lines;
  }

  /** The messages captured so far at {@code level}, without exceptions. */
  public List<String> lines(Level level) {
    return messages.stream().filter(message -> message.getKey().equals(level)).map(Map.Entry::getValue).toList();
  }

  @Override
  public void close() {
    context.getConfiguration().getRootLogger().removeAppender(NAME);
    kavro.setLevel(previous);
    context.updateLoggers();
  }
}
