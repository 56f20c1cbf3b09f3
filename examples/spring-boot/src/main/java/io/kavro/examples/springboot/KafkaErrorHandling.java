package io.kavro.examples.springboot;

import io.kavro.registry.OAuthTokenRefusedException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.serde.RegistryUrlException;
import io.kavro.serde.rules.RuleDeploymentException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.log.LogAccessor;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.CommonContainerStoppingErrorHandler;
import org.springframework.kafka.listener.CommonDelegatingErrorHandler;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ConsumerRecordRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ErrorHandlingUtils;
import org.springframework.kafka.listener.ListenerUtils;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.listener.SeekUtils;
import org.springframework.kafka.support.serializer.DeserializationException;
import org.springframework.util.backoff.FixedBackOff;

/**
 * What the listeners do with a record that fails, by what Kavro says of it. Spring Boot gives this error handler
 * (a {@link CommonDelegatingErrorHandler} in front of a {@link DefaultErrorHandler}) to every
 * {@code @KafkaListener} container.
 *
 * <ul>
 *   <li>A failure that says Kavro is configured wrong, not that the record is ({@link RegistryUrlException}: fix
 *       {@code schema.registry.url}; a {@link RegistryAccessDeniedException} among the causes that is not a
 *       registry's own 403: the credentials are wrong, missing or expired, HTTP 401, or the HTTP proxy in front of
 *       the registry wants its own, HTTP 407, or no OAuth token could be had, an {@link OAuthTokenRefusedException}
 *       whatever its status; a
 *       {@link RuleDeploymentException} among the causes: a data contract rule this deployment cannot run, its
 *       executor's or KMS driver's jar missing, the driver's credentials half set or unreadable) stops the
 *       listener's container, the record uncommitted: every record would fail the same way, and dead-lettering
 *       them would empty the topic into its DLT. Fix the setting and start the container again; it reads on from
 *       that record. A wrong URL is read again every {@code kavro-orders.retry-interval} for
 *       {@code kavro-orders.wrong-url-patience} first: a registry URL that has never answered as a registry (at
 *       the consumer's start) may be an ingress that answers 404 while the registry behind it rolls out.</li>
 *   <li>A record Kavro can never read (its exception is a Kafka {@link SerializationException}: corrupt bytes,
 *       an unknown schema id, a schema the reader cannot resolve) goes to {@code <topic>.DLT} at once, its bytes
 *       untouched, with Spring's {@code kafka_dlt-*} headers naming Kavro's exception. So does a record whose
 *       lookup the registry refused with HTTP 403 ({@link #isRefusedForThisRecord}): the credentials were
 *       accepted, and a 403 may be scoped to what this record names (Confluent RBAC refusing READ on one
 *       subject's schema id, the DEK registry refusing one KEK), so that stopping would let any producer halt
 *       every consumer group, at every restart.</li>
 *   <li>A record Kavro cannot read <em>now</em> (its exception is a Kafka {@link RetriableException}: the registry
 *       or a KMS cannot be reached) is read again every {@code kavro-orders.retry-interval}, for as long as that
 *       lasts: never skipped, never dead-lettered, and the records behind it wait.</li>
 *   <li>Anything else, the listener's own failures, as Spring does by default: ten attempts, then the DLT.</li>
 * </ul>
 *
 * <p>Spring's default classifies every {@link DeserializationException} as not retryable, so without this an
 * outage of the registry would send good records to the DLT. The classification here looks through it, to
 * Kavro's exception, its cause.
 */
@Configuration(proxyBeanMethods = false)
public class KafkaErrorHandling {
  /** Appended to a topic's name to name its dead-letter topic. */
  public static final String DEAD_LETTER_SUFFIX = ".DLT";

  /**
   * Kavro's configuration errors: the exceptions that stop the container instead of dead-lettering the record,
   * unless {@link #isRefusedForThisRecord} says a refusal is the record's. Looked for anywhere among the causes.
   */
  static final List<Class<? extends Throwable>> CONFIGURATION_ERRORS = List.of(
      RegistryUrlException.class, WrongRegistryUrlException.class, RegistryAccessDeniedException.class,
      RuleDeploymentException.class);

  /** The error handler that Spring Boot's listener container factory picks up. */
  @Bean
  CommonErrorHandler errorHandler(ProducerFactory<Object, Object> producerFactory,
      KafkaTemplate<Object, Object> template, @Value("${kavro-orders.retry-interval:1s}") Duration retryInterval,
      @Value("${kavro-orders.wrong-url-patience:2m}") Duration wrongUrlPatience) {
    return errorHandler(recoverer(producerFactory, template), retryInterval, wrongUrlPatience,
        new CommonContainerStoppingErrorHandler());
  }

  /**
   * Stops the container on a configuration error (on a wrong URL once it has failed so for
   * {@code wrongUrlPatience}), retries a retriable failure every {@code retryInterval} without end, and hands every
   * other failure to {@code recoverer}.
   */
  static CommonErrorHandler errorHandler(ConsumerRecordRecoverer recoverer, Duration retryInterval,
      Duration wrongUrlPatience, CommonErrorHandler stopping) {
    int wrongUrlAttempts = (int) Math.max(1, Math.min(Integer.MAX_VALUE,
        wrongUrlPatience.toMillis() / Math.max(1, retryInterval.toMillis())));
    CommonDelegatingErrorHandler handler = new ByConfigurationError(recordHandler(recoverer, retryInterval),
        retryInterval, wrongUrlAttempts);
    handler.setCauseChainTraversing(true); // the outermost configuration error among the causes decides
    for (Class<? extends Throwable> configurationError : CONFIGURATION_ERRORS) {
      handler.addDelegate(configurationError, stopping);
    }
    return handler;
  }

  private static DefaultErrorHandler recordHandler(ConsumerRecordRecoverer recoverer, Duration retryInterval) {
    DefaultErrorHandler handler = new DefaultErrorHandler(recoverer);
    // Decided by what is inside the DeserializationException, Kavro's exception: the classifier looks through the
    // causes, outermost first, and stops at the first one it knows. A RetriableException is named too, so that a
    // SerializationException deeper down (a rule's failure under a KMS outage) cannot make it fatal.
    handler.removeClassification(DeserializationException.class);
    handler.addNotRetryableExceptions(SerializationException.class);
    handler.addRetryableExceptions(RetriableException.class);
    FixedBackOff untilItAnswers = new FixedBackOff(retryInterval.toMillis(), FixedBackOff.UNLIMITED_ATTEMPTS);
    handler.setBackOffFunction((record, failure) -> isRetriable(failure) ? untilItAnswers : null);
    return handler;
  }

  /**
   * Publishes a failed record to {@code <topic>.DLT}, on the same partition. A record that could not be read has
   * only its bytes, which go out through a template with a byte-array serializer; a record the listener failed
   * on goes out through Spring Boot's, with Kavro's serializer.
   */
  static DeadLetterPublishingRecoverer recoverer(ProducerFactory<Object, Object> producerFactory,
      KafkaTemplate<Object, Object> template) {
    Map<Class<?>, KafkaOperations<?, ?>> templates = new LinkedHashMap<>();
    templates.put(byte[].class, new KafkaTemplate<>(producerFactory,
        Map.of(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class)));
    templates.put(Object.class, template);
    DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(templates,
        (record, failure) -> new TopicPartition(record.topic() + DEAD_LETTER_SUFFIX, record.partition()));
    recoverer.setExceptionHeadersCreator(KafkaErrorHandling::exceptionHeaders);
    return recoverer;
  }

  /**
   * Spring's {@code kafka_dlt-exception-*} headers, naming Kavro's exception. Spring's own would name the
   * {@link DeserializationException} twice, as the exception and as its cause, with the message
   * "failed to deserialize": the exception that says what was wrong with the record is the one inside it.
   */
  static void exceptionHeaders(Headers headers, Exception exception, boolean isKey,
      DeadLetterPublishingRecoverer.HeaderNames names) {
    DeadLetterPublishingRecoverer.HeaderNames.ExceptionInfo info = names.getExceptionInfo();
    Throwable reason = ErrorHandlingUtils.findRootCause(exception);
    if (reason instanceof DeserializationException && reason.getCause() != null) {
      reason = reason.getCause();
    }
    replace(headers, isKey ? info.getKeyExceptionFqcn() : info.getExceptionFqcn(), exception.getClass().getName());
    replace(headers, info.getExceptionCauseFqcn(), reason.getClass().getName());
    replace(headers, isKey ? info.getKeyExceptionMessage() : info.getExceptionMessage(),
        String.valueOf(reason.getMessage()));
    StringWriter trace = new StringWriter();
    exception.printStackTrace(new PrintWriter(trace));
    replace(headers, isKey ? info.getKeyExceptionStacktrace() : info.getExceptionStacktrace(), trace.toString());
  }

  private static void replace(Headers headers, String name, String value) {
    headers.remove(name);
    headers.add(name, value.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Whether the first of {@link #CONFIGURATION_ERRORS} among the causes is a {@link RegistryAccessDeniedException}
   * with HTTP 403 from the registry itself: the registry (or the DEK registry) accepted the credentials and refused
   * what this record asks for, which may be refused for this record only. A 401, an HTTP proxy's 407, and an OAuth
   * issuer's refusal ({@link OAuthTokenRefusedException}, whatever its status: no token could be had), say the
   * credentials are wrong for every record.
   */
  static boolean isRefusedForThisRecord(Throwable failure) {
    return firstConfigurationError(failure) instanceof RegistryAccessDeniedException denied
        && denied.status() == FORBIDDEN && !(denied instanceof OAuthTokenRefusedException);
  }

  private static final int FORBIDDEN = 403;

  /** Whether the first of {@link #CONFIGURATION_ERRORS} among the causes says the registry URL is wrong. */
  static boolean isWrongUrl(Throwable failure) {
    Throwable configurationError = firstConfigurationError(failure);
    return configurationError instanceof RegistryUrlException
        || configurationError instanceof WrongRegistryUrlException;
  }

  /** The outermost of {@link #CONFIGURATION_ERRORS} among the causes, or {@code null}. */
  private static Throwable firstConfigurationError(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      for (Class<? extends Throwable> configurationError : CONFIGURATION_ERRORS) {
        if (configurationError.isInstance(cause)) {
          return cause;
        }
      }
    }
    return null;
  }

  /**
   * A {@link CommonDelegatingErrorHandler} that gives a failure {@link #isRefusedForThisRecord refused for its
   * record} to the record handler, not to the delegate of its type (Spring's picks a delegate by type alone), and
   * reads a record that failed on a {@link #isWrongUrl wrong URL} again, a bounded number of times, before its
   * delegate stops the container.
   */
  private static final class ByConfigurationError extends CommonDelegatingErrorHandler {
    private static final LogAccessor LOG = new LogAccessor(KafkaErrorHandling.class);

    private final CommonErrorHandler recordHandler;
    private final long retryMillis;
    private final int wrongUrlAttempts;
    /** Per consumer thread: the record that failed on a wrong URL, and how often in a row. */
    private final Map<Thread, WrongUrlAttempt> wrongUrl = new ConcurrentHashMap<>();

    ByConfigurationError(CommonErrorHandler recordHandler, Duration retryInterval, int wrongUrlAttempts) {
      super(recordHandler);
      this.recordHandler = recordHandler;
      this.retryMillis = retryInterval.toMillis();
      this.wrongUrlAttempts = wrongUrlAttempts;
    }

    @Override
    public void handleRemaining(Exception thrown, List<ConsumerRecord<?, ?>> records, Consumer<?, ?> consumer,
        MessageListenerContainer container) {
      if (isRefusedForThisRecord(thrown)) {
        recordHandler.handleRemaining(thrown, records, consumer, container);
      } else if (isWrongUrl(thrown) && !records.isEmpty() && readAgain(records.get(0), container)) {
        // seeks back to the record (and those behind it) and throws Spring's "Record in retry"
        SeekUtils.seekOrRecover(thrown, records, consumer, container, false, (record, e, c, cons) -> false, LOG,
            KafkaException.Level.WARN);
      } else {
        super.handleRemaining(thrown, records, consumer, container);
      }
    }

    /** Whether the record failed on a wrong URL fewer than the allowed times in a row: then after a pause. */
    private boolean readAgain(ConsumerRecord<?, ?> record, MessageListenerContainer container) {
      Thread thread = Thread.currentThread();
      WrongUrlAttempt last = wrongUrl.get(thread);
      int attempt = last != null && last.isOf(record) ? last.attempt() + 1 : 1;
      if (attempt >= wrongUrlAttempts) {
        wrongUrl.remove(thread);
        return false;
      }
      wrongUrl.put(thread, new WrongUrlAttempt(record.topic(), record.partition(), record.offset(), attempt));
      try {
        ListenerUtils.stoppableSleep(container, retryMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return true;
    }

    @Override
    public void clearThreadState() {
      wrongUrl.remove(Thread.currentThread());
      super.clearThreadState();
    }

    @Override
    public boolean handleOne(Exception thrown, ConsumerRecord<?, ?> record, Consumer<?, ?> consumer,
        MessageListenerContainer container) {
      return isRefusedForThisRecord(thrown) ? recordHandler.handleOne(thrown, record, consumer, container)
          : super.handleOne(thrown, record, consumer, container);
    }

    @Override
    public void handleBatch(Exception thrown, ConsumerRecords<?, ?> data, Consumer<?, ?> consumer,
        MessageListenerContainer container, Runnable invokeListener) {
      if (isRefusedForThisRecord(thrown)) {
        recordHandler.handleBatch(thrown, data, consumer, container, invokeListener);
      } else {
        super.handleBatch(thrown, data, consumer, container, invokeListener);
      }
    }
  }

  /** A record that failed on a wrong URL, and which attempt in a row that was. */
  private record WrongUrlAttempt(String topic, int partition, long offset, int attempt) {
    boolean isOf(ConsumerRecord<?, ?> record) {
      return topic.equals(record.topic()) && partition == record.partition() && offset == record.offset();
    }
  }

  /** Whether a Kafka {@link RetriableException} is among the causes: Kavro's {@code RetriableSerdeException}. */
  static boolean isRetriable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof RetriableException) {
        return true;
      }
    }
    return false;
  }
}
