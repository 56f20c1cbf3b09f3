package io.kavro.registry;

/**
 * A subject name that no registry can be asked about as itself: missing, empty, {@code .} or {@code ..} (URLs
 * resolve the dot segments away, and fold an empty one into the next, so such a request would reach another
 * subject or another endpoint), or text with a lone surrogate, which UTF-8 cannot carry. Refused before anything
 * is sent, on every protocol and by the in-memory registry alike; never retried. Every other subject, however
 * spelled, is sent percent-encoded and reaches exactly that subject.
 */
public class InvalidSubjectException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  private final String subject;

  /** A refusal of {@code subject} (may be {@code null}), before any request. */
  public InvalidSubjectException(String message, String subject) {
    super(message, -1, -1, null, null);
    this.subject = subject;
  }

  /** The subject refused, as given; {@code null} when none was given. */
  public String subject() {
    return subject;
  }
}
