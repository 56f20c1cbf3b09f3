package io.kavro.registry.internal.http;

import io.kavro.registry.RegistryUnavailableException;

/**
 * A JSON 404 without the registry's own "not found" code from an optional API whose missing may be learned
 * ({@link OptionalApi#learnedFromBare404}): what Confluent, Apicurio and Karapace answer for a path they do not
 * serve. It may say that the registry lacks the API, which the client makes sure of by asking the core API; a 404
 * whose body is not JSON (a proxy's HTML page, an empty body) never does, and is an outage instead. Thrown by the
 * transport at once, not retried; never leaves the client.
 */
public final class NoSuchApiAnswerException extends RegistryUnavailableException {
  private static final long serialVersionUID = 1L;

  NoSuchApiAnswerException(String message, int status, int errorCode, String url) {
    super(message, status, errorCode, url, null);
  }
}
