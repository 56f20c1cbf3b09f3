package io.kavro.connect;

import io.kavro.serde.RegistryUrlException;
import io.kavro.serde.rules.Causes;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A serde failure in Connect's terms, for one converter or transformation. Bad data is a {@link DataException},
 * which the worker's error handling may skip ({@code errors.tolerance=all}) or send to a dead letter queue.
 *
 * <p>A registry URL that has never answered as a registry ({@link RegistryUrlException}) is a configuration
 * error, yet no record is at fault: it is a Connect {@link RetriableException}, as an unreachable registry is, so
 * that the worker never skips a record past it. Connect's error handling tolerates any exception of a converter or
 * a transformation, a {@code ConfigException} too: with {@code errors.tolerance=all} (MirrorMaker's recipe, with
 * {@code errors.retry.timeout=-1}) a non-retriable one would skip every record, and a source connector has no dead
 * letter queue. As a retriable one, the task fails at once under the defaults ({@code errors.tolerance=none},
 * {@code errors.retry.timeout=0}), and {@code errors.retry.timeout=-1} holds the records until the URL is fixed.
 * Its message says plainly that the URL is wrong, and it is logged at ERROR the first time, once per instance, so
 * that a task that waits on it says why at once. (A registry that has answered before and is now unreachable, or
 * answers a proxy's 404, is an outage: the serde's {@code RetriableSerdeException}, which the callers turn into
 * Connect's {@code RetriableException} before they get here, without an ERROR line.)
 *
 * <p>Thread-safe.
 */
final class ConnectFailures {
  private static final Logger log = LoggerFactory.getLogger(ConnectFailures.class);

  private final String plugin;
  private final String urlSetting;
  private final AtomicBoolean wrongUrlLogged = new AtomicBoolean();

  /**
   * @param plugin what fails, for the log line: "AvroConverter (value side)"
   * @param urlSetting the setting that names the registry URL: "schema.registry.url"
   */
  ConnectFailures(String plugin, String urlSetting) {
    this.plugin = plugin;
    this.urlSetting = urlSetting;
  }

  /** {@code e} as a Connect failure, with {@code message}: a {@link RetriableException} or {@link DataException}. */
  RuntimeException of(String message, SerializationException e) {
    Optional<RegistryUrlException> wrong = Causes.find(e, RegistryUrlException.class);
    if (wrong.isPresent()) {
      return wrongUrl(message, e, wrong.get().registryUrl().orElse("(see below)"),
          wrong.get().answer().orElse("a 404 that is no registry's own"));
    }
    return new DataException(message, e);
  }

  private RetriableException wrongUrl(String message, SerializationException e, String base, String answer) {
    String plainly = urlSetting + " " + base + " answered " + answer + " and has never answered as a schema "
        + "registry: fix " + urlSetting + "; the task retries while errors.retry.timeout allows, and fails at once "
        + "with the default errors.tolerance=none and errors.retry.timeout=0. The failure: " + message;
    if (wrongUrlLogged.compareAndSet(false, true)) {
      log.error("{}: a configuration error, which fails or holds every record until it is fixed: {}", plugin,
          plainly);
    }
    return new RetriableException(plainly, e);
  }
}
