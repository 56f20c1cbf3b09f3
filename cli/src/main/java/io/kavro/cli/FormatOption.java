package io.kavro.cli;

import picocli.CommandLine.Option;

/** {@code --format json|avro-json}: how a command prints Avro values. */
final class FormatOption {
  @Option(names = "--format", paramLabel = "json|avro-json", defaultValue = "json",
      description = "Values as plain JSON (default) or Avro's JSON encoding.")
  String format;

  JsonLines.Format rendering() {
    return JsonLines.Format.of(format);
  }
}
