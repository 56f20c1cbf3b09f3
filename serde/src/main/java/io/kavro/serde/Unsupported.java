package io.kavro.serde;

/** Thrown inside a compiler for a schema it leaves to Avro's own writer or reader; never escapes. */
final class Unsupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Unsupported(String message) {
    super(message, null, false, false);
  }
}
