package io.kavro.registry.internal.http;

import io.kavro.registry.RegistryUnavailableException;

/**
 * A registry's answer that may say it lacks an optional API: for Confluent's GUID, metadata and associations APIs
 * ({@link OptionalApi#knownAnswersOnly}), a 404 (or Apicurio 3's 204 without a body, on its URL) in a shape
 * {@link MissingApiAnswers} knows for the kind of registry the URL leads to; for Apicurio's own APIs
 * ({@link OptionalApi#learnedFromBare404}), a JSON or empty 404 without the registry's own "not found" code. The
 * client makes sure of it by asking the core API; any other answer (a proxy's HTML page, an empty body from a URL of
 * Confluent's kind) never does, and is an outage instead. Thrown by the transport at once, not retried; never leaves
 * the client.
 */
public final class NoSuchApiAnswerException extends RegistryUnavailableException {
  private static final long serialVersionUID = 1L;

  NoSuchApiAnswerException(String message, int status, int errorCode, String url) {
    super(message, status, errorCode, url, null);
  }
}
