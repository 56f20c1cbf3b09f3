package io.kavro.connect;

import io.kavro.registry.WrongRegistryUrlException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * A serde failure in Connect's terms. Bad data is a {@link DataException}, which the worker's error handling may
 * skip ({@code errors.tolerance=all}) or send to a dead letter queue. A registry URL that leads to no registry's
 * API ({@link WrongRegistryUrlException}) is no fault of the record: it is a {@link RetriableException}, as an
 * unreachable registry is, so that the worker's {@code errors.retry.timeout} waits for the fix instead of skipping
 * every record until then.
 */
final class ConnectFailures {
  /** How deep the causes are searched (a bound against a cycle). */
  private static final int MAX_CAUSES = 16;

  private ConnectFailures() {}

  /** {@code e} as a Connect exception, with {@code message}. */
  static ConnectException of(String message, SerializationException e) {
    Throwable cause = e.getCause();
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (cause instanceof WrongRegistryUrlException) {
        return new RetriableException(message, e);
      }
    }
    return new DataException(message, e);
  }
}
