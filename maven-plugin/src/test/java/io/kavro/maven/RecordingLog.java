package io.kavro.maven;

import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.Log;

/** A mojo's log that keeps each line, "LEVEL text", for the tests to read. */
final class RecordingLog implements Log {
  private final List<String> lines = new ArrayList<>();

  List<String> lines() {
    return List.copyOf(lines);
  }

  private void add(String level, CharSequence content) {
    lines.add(level + " " + content);
  }

  @Override
  public boolean isDebugEnabled() {
    return true;
  }

  @Override
  public void debug(CharSequence content) {
    add("DEBUG", content);
  }

  @Override
  public void debug(CharSequence content, Throwable error) {
    add("DEBUG", content);
  }

  @Override
  public void debug(Throwable error) {
    add("DEBUG", String.valueOf(error));
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public void info(CharSequence content) {
    add("INFO", content);
  }

  @Override
  public void info(CharSequence content, Throwable error) {
    add("INFO", content);
  }

  @Override
  public void info(Throwable error) {
    add("INFO", String.valueOf(error));
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public void warn(CharSequence content) {
    add("WARN", content);
  }

  @Override
  public void warn(CharSequence content, Throwable error) {
    add("WARN", content);
  }

  @Override
  public void warn(Throwable error) {
    add("WARN", String.valueOf(error));
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }

  @Override
  public void error(CharSequence content) {
    add("ERROR", content);
  }

  @Override
  public void error(CharSequence content, Throwable error) {
    add("ERROR", content);
  }

  @Override
  public void error(Throwable error) {
    add("ERROR", String.valueOf(error));
  }
}
