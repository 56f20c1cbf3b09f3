package io.kavro.serde;

import io.kavro.registry.WrongRegistryUrlException;
import java.util.Optional;
import org.apache.kafka.common.errors.SerializationException;

/**
 * {@code schema.registry.url} leads to no schema registry's API: every URL answered the registry's core API with a
 * 404 that is not the registry's own "not found", and none of them has answered as a registry before (Apicurio's
 * root instead of its {@code /apis/ccompat/v7}, a proxy's page). A configuration error: the record is fine, and no
 * retry within the serde mends it. The cause is the registry client's
 * {@link io.kavro.registry.WrongRegistryUrlException}, whose message names the URL, without its credentials, and
 * what to check.
 *
 * <p>The Connect converter turns it into a Connect {@code RetriableException} whose message says to fix the URL,
 * so that Connect's error handling skips no record past it (on Connect 3.x, which drops such a record past its
 * retries, an {@code Error} that fails the task), and logs it at ERROR once: see docs/connect.md.
 */
public class RegistryUrlException extends SerializationException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the topic, side and schema id where known, and the registry's exception. */
  public RegistryUrlException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The registry URL that answered, without its credentials, when the registry client's exception says it. */
  public Optional<String> registryUrl() {
    return wrongUrl().map(WrongRegistryUrlException::base);
  }

  /** What that URL answered ("HTTP 404: non-JSON body (text/html): ..."), when the registry client says it. */
  public Optional<String> answer() {
    return wrongUrl().map(WrongRegistryUrlException::answer);
  }

  private Optional<WrongRegistryUrlException> wrongUrl() {
    return getCause() instanceof WrongRegistryUrlException wrong ? Optional.of(wrong) : Optional.empty();
  }
}
