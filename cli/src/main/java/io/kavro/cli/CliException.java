package io.kavro.cli;

/** A failure the tool reports as one line on standard error, with its exit status (1, or 2 for usage). */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  CliException(String message) {
    this(message, 1);
  }

  CliException(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
