package io.kavro.connect;

import io.kavro.serde.RegistryUrlException;
import io.kavro.serde.rules.Causes;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A serde failure in Connect's terms, for one converter or transformation. Bad data is a {@link DataException},
 * which the worker's error handling may skip ({@code errors.tolerance=all}) or send to a dead letter queue.
 *
 * <p>A registry URL that has never answered as a registry ({@link RegistryUrlException}) is a configuration
 * error: no record is at fault, and no retry mends it. It is a {@link ConfigException}, which is no Connect
 * {@code RetriableException}, so the worker does not wait for it ({@code errors.retry.timeout=-1} would wait
 * forever) and, with {@code errors.tolerance=none}, the task fails at once. It is logged at ERROR the first time,
 * once per instance, since with {@code errors.tolerance=all} the worker skips the record and says nothing unless
 * {@code errors.log.enable} is set. (A registry that has answered before and is now unreachable, or answers a
 * proxy's 404, is an outage: the serde's {@code RetriableSerdeException}, which the callers turn into Connect's
 * {@code RetriableException} before they get here.)
 *
 * <p>Thread-safe.
 */
final class ConnectFailures {
  private static final Logger log = LoggerFactory.getLogger(ConnectFailures.class);

  private final String plugin;
  private final AtomicBoolean wrongUrlLogged = new AtomicBoolean();

  /** @param plugin what fails, for the log line: "AvroConverter (value side)" */
  ConnectFailures(String plugin) {
    this.plugin = plugin;
  }

  /** {@code e} as a Connect failure, with {@code message}: a {@link ConfigException} or a {@link DataException}. */
  RuntimeException of(String message, SerializationException e) {
    if (Causes.find(e, RegistryUrlException.class).isPresent()) {
      return wrongUrl(message, e);
    }
    return new DataException(message, e);
  }

  private ConfigException wrongUrl(String message, SerializationException e) {
    if (wrongUrlLogged.compareAndSet(false, true)) {
      log.error("{}: the registry URL leads to no schema registry's API, a configuration error that fails every "
          + "record until it is fixed (Connect fails the task, or with errors.tolerance=all skips each record): {}",
          plugin, message);
    }
    ConfigException failure = new ConfigException(message);
    failure.initCause(e);
    return failure;
  }
}
