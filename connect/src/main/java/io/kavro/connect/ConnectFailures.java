package io.kavro.connect;

import io.kavro.serde.RegistryFaults;
import io.kavro.serde.RegistryUrlException;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.RuleDeploymentException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Properties;
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
 * <p>A registry URL that has never answered as a registry ({@link RegistryUrlException}) is a configuration error, yet
 * no record is at fault: it is a Connect {@link RetriableException}, as an unreachable registry is, so that the worker
 * never skips a record past it. Connect's error handling tolerates any exception of a converter or a transformation, a
 * {@code ConfigException} too: with {@code errors.tolerance=all} (MirrorMaker's recipe, with {@code
 * errors.retry.timeout=-1}) a non-retriable one would skip every record, and a source connector has no dead letter
 * queue. As a retriable one, the task fails at once under the defaults ({@code errors.tolerance=none}, {@code
 * errors.retry.timeout=0}), and {@code errors.retry.timeout=-1} holds the records until the URL is fixed, on Connect
 * 4.0 and later; before it, Connect would drop the record past its retries even with {@code errors.tolerance=none}
 * (KAFKA-18073), so {@link #retriable} throws a {@link TaskFailure} there instead, which fails the task. Its message
 * says plainly that the URL is wrong, and it is logged at ERROR the first time, once per instance, so that a task that
 * waits on it says why at once. (A registry that has answered before and is now unreachable, or answers a proxy's 404,
 * is an outage: the serde's {@code RetriableSerdeException}, which the callers turn into Connect's {@code
 * RetriableException} before they get here, without an ERROR line.)
 *
 * <p>A class that fails to link or initialize on the way (a {@link LinkageError} among the causes: a framing
 * resolver's library missing from the worker's plugin path, or of another version) is the deployment's fault,
 * which every record meets alike, and which only a restart of the worker after the fix clears: thrown as a
 * {@code LinkageError}, said plainly and logged at ERROR once. Connect's error handling catches exceptions only, so
 * an {@code Error} fails the task whatever {@code errors.tolerance} and {@code errors.retry.timeout} say; a
 * {@code RetriableException} would be skipped with {@code errors.tolerance=all}, and dropped past
 * {@code errors.retry.timeout} even with {@code errors.tolerance=none} on Connect 3.x (KAFKA-18073).
 *
 * <p>So is a data contract that this deployment cannot run ({@link RuleDeploymentException} among the causes): a rule
 * type with no executor or an action that is not here (the serde's {@code UnsupportedRulesException}), a KMS type
 * with no driver or a driver whose credentials are half set or unreadable (or missing, where it has no default), a
 * rule that needs a DEK registry the client has not. Every record of the schema meets it alike, and none is at fault:
 * a {@link TaskFailure}, said plainly and logged at ERROR once, instead of a {@code DataException} that
 * {@code errors.tolerance=all} would skip for every record. So are credentials that the registry refuses themselves
 * ({@link RegistryFaults#credentialsRefused}: an HTTP 401, an HTTP proxy's 407, or no OAuth token could be had),
 * which no record is at fault for either; a 403 stays the record's {@code DataException}, as it may be scoped to what
 * that record names.
 *
 * <p>Thread-safe.
 */
final class ConnectFailures {
  private static final Logger log = LoggerFactory.getLogger(ConnectFailures.class);

  /**
   * The version of Kafka this worker runs: its client library's, which Connect's runtime ships with (the file the
   * library reads its own version from); "unknown" if it cannot be read.
   */
  static final String RUNTIME = runtimeVersion();

  private final String plugin;
  private final String urlSetting;
  private final boolean dropsExhaustedRetries;
  private final AtomicBoolean wrongUrlLogged = new AtomicBoolean();
  private final AtomicBoolean deploymentLogged = new AtomicBoolean();

  /**
   * @param plugin what fails, for the log line: "AvroConverter (value side)"
   * @param urlSetting the setting that names the registry URL: "schema.registry.url"
   */
  ConnectFailures(String plugin, String urlSetting) {
    this(plugin, urlSetting, dropsExhaustedRetries(RUNTIME));
  }

  /** As on a runtime that drops a record past its retries, or not ({@link #dropsExhaustedRetries(String)}). */
  ConnectFailures(String plugin, String urlSetting, boolean dropsExhaustedRetries) {
    this.plugin = plugin;
    this.urlSetting = urlSetting;
    this.dropsExhaustedRetries = dropsExhaustedRetries;
  }

  private static String runtimeVersion() {
    try (InputStream in = SerializationException.class.getResourceAsStream("/kafka/kafka-version.properties")) {
      Properties version = new Properties();
      if (in != null) {
        version.load(in);
      }
      return version.getProperty("version", "unknown").trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Whether a Connect runtime of {@code version} drops a record whose {@link RetriableException} outlasts
   * {@code errors.retry.timeout}, whatever {@code errors.tolerance} says: every runtime before Kafka 4.0
   * (KAFKA-18073), so Confluent Platform's before 8.0 ({@code 7.9.0-ccs}, {@code 7.9.0-ce}: its own numbers), and
   * one whose version does not read as a number.
   */
  static boolean dropsExhaustedRetries(String version) {
    int dot = version.indexOf('.');
    boolean confluentPlatform = version.contains("-ccs") || version.contains("-ce");
    try {
      return Integer.parseInt(dot < 0 ? version : version.substring(0, dot)) < (confluentPlatform ? 8 : 4);
    } catch (NumberFormatException e) {
      return true;
    }
  }

  /**
   * A failure that no record is at fault for and that may pass (a registry that cannot be reached, or a URL that
   * has never answered as a registry): Connect's {@link RetriableException}, which the worker retries for {@code
   * errors.retry.timeout} and then hands to {@code errors.tolerance}. On a runtime that drops the record past
   * {@code errors.retry.timeout} instead, even with {@code errors.tolerance=none} (Connect 3.x), it is thrown as a
   * {@link TaskFailure}, an {@code Error}, which Connect's error handling does not catch: the task fails, and the
   * record is read again when it restarts.
   *
   * @param remedy what to do then, for the message: "restart the task once the registry answers"
   * @throws TaskFailure on such a runtime
   */
  RetriableException retriable(String message, Throwable cause, String remedy) {
    if (dropsExhaustedRetries) {
      throw new TaskFailure(message + " (thrown as an Error, which fails the task: this Connect worker, on Kafka "
          + RUNTIME + ", would drop the record once errors.retry.timeout has passed, even with "
          + "errors.tolerance=none, KAFKA-18073, fixed in Kafka 4.0; " + remedy + ")", cause);
    }
    return new RetriableException(message, cause);
  }

  /** {@link #retriable(String, Throwable, String)} of a registry that cannot be reached. */
  RetriableException retriable(String message, Throwable cause) {
    return retriable(message, cause, "restart the task once the registry answers");
  }

  /**
   * A failure that no record is at fault for and that Connect's error handling must not skip: an {@code Error}, so
   * that the task fails instead. A retriable failure on a Connect runtime that would drop its record
   * ({@link #retriable}), or a data contract that this deployment cannot run.
   */
  static final class TaskFailure extends Error {
    private static final long serialVersionUID = 1L;

    TaskFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * {@code e} as a Connect failure, with {@code message}: a {@link RetriableException} or {@link DataException}.
   *
   * @throws LinkageError if a {@code LinkageError} is among the causes of {@code e}: a deployment fault
   * @throws TaskFailure if a {@link RuleDeploymentException} is among the causes: a data contract that this
   *     deployment cannot run; or if the registry refused the credentials themselves
   *     ({@link RegistryFaults#credentialsRefused})
   * @throws TaskFailure for a URL that never answered as a registry, on a runtime that drops a record past its
   *     retries ({@link #retriable(String, Throwable, String)})
   */
  RuntimeException of(String message, SerializationException e) {
    Optional<RegistryUrlException> wrong = Causes.find(e, RegistryUrlException.class);
    if (wrong.isPresent()) {
      return wrongUrl(message, e, wrong.get().registryUrl().orElse("(see below)"),
          wrong.get().answer().orElse("a 404 that is no registry's own"));
    }
    Optional<LinkageError> unlinked = Causes.find(e, LinkageError.class);
    if (unlinked.isPresent()) {
      throw deploymentFault(message, e, unlinked.get());
    }
    if (Causes.find(e, RuleDeploymentException.class).isPresent()) {
      throw rulesCannotRun(message, e);
    }
    if (RegistryFaults.credentialsRefused(e)) {
      throw credentialsRefused(message, e);
    }
    return new DataException(message, e);
  }

  private TaskFailure credentialsRefused(String message, SerializationException e) {
    String plainly = "the schema registry refused the client's credentials (HTTP 401, or no OAuth token could be "
        + "had, or the HTTP proxy in front of it wants credentials: HTTP 407): a configuration error, not the "
        + "record's: fix the registry's credentials (basic.auth.*, bearer.auth.*), or let this client through the "
        + "proxy, then restart the task. Thrown as an Error, which fails the task whatever "
        + "errors.tolerance says, so that no record is skipped past it. The failure: " + message;
    return new TaskFailure(loggedOnce(plainly), e);
  }

  private TaskFailure rulesCannotRun(String message, SerializationException e) {
    String plainly = "the schema's data contract rules cannot run in this deployment: the deployment's fault (or "
        + "the contract's, where it names a rule type, action or KMS type that does not exist), not the record's: "
        + "add what the failure names (a rule executor's or KMS driver's jar in the Kavro plugin's lib/, then "
        + "restart the worker; a setting, then restart the task). Thrown as an Error, which fails the task whatever "
        + "errors.tolerance says, so that no record is skipped past it. The failure: " + message;
    return new TaskFailure(loggedOnce(plainly), e);
  }

  private LinkageError deploymentFault(String message, SerializationException e, LinkageError unlinked) {
    String plainly = "a class failed to link or initialize (" + unlinked + "): the deployment's fault, not the "
        + "record's (a library missing from the worker's plugin path or of another version, or a class whose "
        + "initializer failed): fix the deployment and restart the worker. Thrown as an Error, which fails the "
        + "task whatever errors.tolerance says, so that no record is skipped past it. The failure: " + message;
    return new LinkageError(loggedOnce(plainly), e);
  }

  /**
   * {@code plainly}, the message of a fault of the deployment or its settings, logged at ERROR the first time of this
   * instance only.
   */
  private String loggedOnce(String plainly) {
    if (deploymentLogged.compareAndSet(false, true)) {
      log.error("{}: a deployment fault, which fails the task: {}", plugin, plainly);
    }
    return plainly;
  }

  private RetriableException wrongUrl(String message, SerializationException e, String base, String answer) {
    String plainly = urlSetting + " " + base + " answered " + answer + " and has never answered as a schema "
        + "registry: fix " + urlSetting + (dropsExhaustedRetries ? "; the task fails" : "; the task retries while "
        + "errors.retry.timeout allows, and fails at once with the default errors.tolerance=none and "
        + "errors.retry.timeout=0") + ". The failure: " + message;
    if (wrongUrlLogged.compareAndSet(false, true)) {
      log.error("{}: a configuration error, which fails or holds every record until it is fixed: {}", plugin,
          plainly);
    }
    return retriable(plainly, e, "fix " + urlSetting + ", then restart the task");
  }
}
