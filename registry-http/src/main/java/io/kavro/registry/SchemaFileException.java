package io.kavro.registry;

/**
 * A schema file that cannot be used: it cannot be read, it is not JSON, it is not an Avro schema, or the types it
 * takes from elsewhere (schema references, a directory of imported files) do not resolve. The message names the
 * file and what is wrong, in one line, and never quotes the file's text (which may be a secret given by mistake).
 */
public class SchemaFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure, said in {@code message}. */
  public SchemaFileException(String message) {
    super(message);
  }
}
