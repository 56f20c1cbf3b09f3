package io.kavro.schematools;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A schema file that cannot be used: it cannot be read, it is not JSON, it is not an Avro schema, or the types it
 * takes from elsewhere (schema references, a directory of imported files) do not resolve. The message names the
 * file and what is wrong, in one line, and never quotes the file's text (which may be a secret given by mistake).
 */
public class SchemaFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The file Avro refused, when that is what failed; not serialized (a path need not be). */
  private final transient Path file;

  /**
   * A failure that is no one file's refusal by Avro (a directory, a reference, a type defined twice), said in
   * {@code message}.
   *
   * @param message what failed, naming the file or option
   */
  public SchemaFileException(String message) {
    super(message);
    this.file = null;
  }

  /**
   * A file that Avro refused, or that cannot be read.
   *
   * @param file the file
   * @param message what failed, naming the file
   */
  public SchemaFileException(Path file, String message) {
    super(message);
    this.file = Objects.requireNonNull(file, "file");
  }

  /**
   * The file whose reading or parsing failed, when that is what failed: a tool that reads files more than one way
   * (Avro 1.12.2's, a registry's) tells from it which file to speak of.
   *
   * @return the file, or empty when the failure is not one file's
   */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }
}
