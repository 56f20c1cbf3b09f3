package io.kavro.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A JVM that the testkit starts beside the test's (the registry; the broker when it cannot run in the test's JVM),
 * on a class path of its own plus the testkit's code, with its output in a temporary log file.
 *
 * <p>The child is stopped by {@link #close()}, by a shutdown hook if this JVM exits without closing it, and by
 * {@link ParentWatchdog} inside the child if this JVM is killed outright.
 */
final class ChildJvm implements AutoCloseable {
  /** One look at whether the child is ready: its answer when it is, empty or an {@link IOException} when not yet. */
  @FunctionalInterface
  interface Probe<T> {
    Optional<T> poll() throws IOException, InterruptedException;
  }

  private final String what;
  private final Process process;
  private final Path log;
  private final Thread hook;

  private ChildJvm(String what, Process process, Path log) {
    this.what = what;
    this.process = process;
    this.log = log;
    this.hook = new Thread(process::destroyForcibly, "kavro-child-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Starts {@code java <options> -cp <classPath>:<the testkit's code> ParentWatchdog <this pid> <mainClass> <args>}.
   *
   * @param what what the child is, for messages ("the schema registry")
   */
  static ChildJvm start(String what, Path java, List<String> options, List<Path> classPath, String mainClass,
      List<String> args) {
    return start(what, java, options, classPath, mainClass, args, Optional.empty());
  }

  /**
   * As {@link #start(String, Path, List, List, String, List)}, in the working directory {@code directory} (for a
   * child that writes files relative to it), else in this JVM's.
   */
  static ChildJvm start(String what, Path java, List<String> options, List<Path> classPath, String mainClass,
      List<String> args, Optional<Path> directory) {
    List<String> entries = new ArrayList<>();
    classPath.forEach(entry -> entries.add(entry.toString()));
    entries.add(testkitCode().toString());
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(options);
    command.add("-cp");
    command.add(String.join(File.pathSeparator, entries));
    command.add(ParentWatchdog.class.getName());
    command.add(Long.toString(ProcessHandle.current().pid()));
    command.add(mainClass);
    command.addAll(args);
    try {
      Path log = Files.createTempFile("kavro-child-", ".log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      directory.ifPresent(folder -> builder.directory(folder.toFile()));
      Process process = builder.start();
      return new ChildJvm(what, process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + what + " with " + java, e);
    }
  }

  /**
   * Polls {@code probe} every 100 ms until it answers.
   *
   * @throws IllegalStateException when the child exits first (with a {@link BindException} cause if its log says
   *     that its port was taken) or {@code timeout} passes; the message ends with the tail of the child's log
   */
  <T> T await(Probe<T> probe, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        if (!process.isAlive()) {
          throw exited();
        }
        try {
          Optional<T> answer = probe.poll();
          if (answer.isPresent()) {
            return answer.get();
          }
        } catch (IOException e) {
          // not ready yet
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(what + " was not ready within " + timeout.toSeconds() + " s; its log: "
              + tail());
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    }
  }

  private IllegalStateException exited() {
    String tail = tail();
    IllegalStateException exited = new IllegalStateException(what + " exited with status " + process.exitValue()
        + " during startup; its log: " + tail);
    // Quarkus: "Port N seems to be in use by another process."; the JDK: "Address already in use".
    if (tail.contains("seems to be in use") || tail.contains("Address already in use")) {
      exited.initCause(new BindException(what + ": its port on 127.0.0.1 is already in use"));
    }
    return exited;
  }

  /** What the child has printed so far. */
  List<String> output() throws IOException {
    return Files.readAllLines(log);
  }

  private String tail() {
    try {
      List<String> lines = output();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** Stops the child and waits for it to exit; deletes its log. Idempotent. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook runs anyway
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // leftover temp file
    }
  }

  /** The testkit's classes (a jar, or a folder in its own build): the child's entry point and watchdog. */
  static Path testkitCode() {
    try {
      return Path.of(ParentWatchdog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
