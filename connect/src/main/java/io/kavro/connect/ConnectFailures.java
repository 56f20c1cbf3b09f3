package io.kavro.connect;

import io.kavro.serde.RegistryUrlException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * A serde failure in Connect's terms. Bad data is a {@link DataException}, which the worker's error handling may
 * skip ({@code errors.tolerance=all}) or send to a dead letter queue. A registry URL that leads to no registry's
 * API ({@link RegistryUrlException}) is no fault of the record: it is a {@link RetriableException}, as an
 * unreachable registry is. Connect tolerates any exception of a converter, retriable ones included: only
 * {@code errors.retry.timeout=-1} (or a bound long enough for the fix) keeps {@code errors.tolerance=all} from
 * skipping records meanwhile.
 */
final class ConnectFailures {
  /** How deep the causes are searched (a bound against a cycle). */
  private static final int MAX_CAUSES = 16;

  private ConnectFailures() {}

  /** {@code e} as a Connect exception, with {@code message}. */
  static ConnectException of(String message, SerializationException e) {
    Throwable cause = e;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (cause instanceof RegistryUrlException) {
        return new RetriableException(message, e);
      }
    }
    return new DataException(message, e);
  }
}
