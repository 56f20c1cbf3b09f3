package io.kavro.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A record framed by another registry's serde that Kavro recognizes but cannot resolve by itself: AWS Glue's,
 * whose schemas only Glue's API gives. A {@link io.kavro.serde.framing.FramingResolver} can read it. Not retriable.
 */
public class UnsupportedFramingException extends SerializationException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the record and the framing. */
  public UnsupportedFramingException(String message) {
    super(message);
  }
}
