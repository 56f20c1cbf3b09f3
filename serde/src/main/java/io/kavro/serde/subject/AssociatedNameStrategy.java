package io.kavro.serde.subject;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.kavro.registry.Association;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRegistryApiException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subject that the registry associates with the topic's keys or values (Confluent 8.3's {@code /associations}
 * API), else the fallback strategy's: Confluent's default strategy since 8.3, and Kavro's. Where the registry has
 * no associations API (Apicurio, Karapace, Redpanda, Confluent before 8.3) or the topic has no association, the
 * subject is {@link TopicNameStrategy}'s, as before.
 *
 * <p>The registry is asked once per (topic, key or value, and the schema when the fallback names subjects by it),
 * with {@code GET /associations/resources/{namespace}/{topic}?resourceType=topic&associationType=key|value}; the
 * namespace is {@value #KAFKA_CLUSTER_ID_CONFIG}, else the Kafka cluster id the serde learns, else {@code "-"} (any
 * cluster). The answer is kept ({@value #CACHE_SIZE_CONFIG} entries, 1000 by default; for
 * {@value #CACHE_EXPIRY_SECS_CONFIG} seconds, forever by default). More than one associated subject is refused
 * (a {@code SerializationException} naming them). The registry's answer that it lacks the API is kept only as long
 * as the registry client remembers it ({@link UnsupportedRegistryApiException#REMEMBERED_FOR}), then asked again.
 * Any other failure (an outage, a proxy's 404, a 5xx, a refusal) comes out as the registry client's exception,
 * not kept, never a fallback: the serde reports an outage as retriable.
 *
 * <p>{@value #FALLBACK_TYPE_CONFIG}: {@code TOPIC} (the default), {@code RECORD}, {@code TOPIC_RECORD}, or
 * {@code NONE}, for which a topic without an association is refused. Configured once with the serde's settings;
 * thread-safe.
 */
public final class AssociatedNameStrategy implements RegistryAwareStrategy, Configurable {
  private static final Logger log = LoggerFactory.getLogger(AssociatedNameStrategy.class);

  /** How long, in seconds, an answer is kept: -1 (the default) for as long as there is room. Confluent's key. */
  public static final String CACHE_EXPIRY_SECS_CONFIG = "subject.name.strategy.cache.expiry.secs";
  /** How many (topic, key or value) answers are kept: 1000 by default. Confluent's key. */
  public static final String CACHE_SIZE_CONFIG = "subject.name.strategy.cache.size";
  /** The resource namespace of the topics: their Kafka cluster's id. Confluent's key. */
  public static final String KAFKA_CLUSTER_ID_CONFIG = "subject.name.strategy.kafka.cluster.id";
  /** The strategy for a topic without association: TOPIC, RECORD, TOPIC_RECORD or NONE. Confluent's key. */
  public static final String FALLBACK_TYPE_CONFIG = "subject.name.strategy.fallback.type";

  private static final int DEFAULT_CACHE_SIZE = 1000;

  private final Ticker ticker;
  private volatile Settings settings = Settings.DEFAULT;
  private volatile Cache<Key, Answer> answers;
  private volatile SchemaRegistryClient client;
  /** The cluster id the serde learnt, used when {@value #KAFKA_CLUSTER_ID_CONFIG} is not set. */
  private volatile String learntClusterId;
  private volatile boolean warnedNoClient;
  private volatile boolean warnedNoApi;

  /** A strategy with the defaults, until configured. */
  public AssociatedNameStrategy() {
    this(Ticker.systemTicker());
  }

  /** As {@link #AssociatedNameStrategy()}, timing what it keeps by {@code ticker}: for tests. */
  AssociatedNameStrategy(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.answers = cache(Settings.DEFAULT);
  }

  /**
   * Reads this strategy's keys ({@value #FALLBACK_TYPE_CONFIG}, {@value #CACHE_SIZE_CONFIG},
   * {@value #CACHE_EXPIRY_SECS_CONFIG}, {@value #KAFKA_CLUSTER_ID_CONFIG}) from the serde's settings.
   *
   * @throws ConfigException naming the key and its value when one is not valid
   */
  @Override
  public void configure(Map<String, ?> configs) {
    Settings parsed = Settings.parse(configs);
    settings = parsed;
    answers = cache(parsed);
  }

  @Override
  public void useRegistry(SchemaRegistryClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** Ignored when {@value #KAFKA_CLUSTER_ID_CONFIG} is set; otherwise a new id forgets what was learnt. */
  @Override
  public void useKafkaClusterId(String clusterId) {
    if (clusterId != null && settings.clusterId == null && !clusterId.equals(learntClusterId)) {
      if (learntClusterId != null) {
        log.warn("The Kafka cluster id changed from {} to {}: asking the registry for associations again",
            learntClusterId, clusterId);
      }
      learntClusterId = clusterId;
      answers.invalidateAll();
    }
  }

  /** The strategy for a topic without association: a built-in one, or {@code null} for {@code NONE}. */
  public SubjectNameStrategy fallback() {
    Fallback fallback = settings.fallback;
    return fallback == null ? null : fallback.strategy;
  }

  /**
   * {@inheritDoc}
   *
   * @throws io.kavro.registry.SchemaRegistryException when the registry fails (an outage, a refusal): the serde
   *     reports an outage as retriable
   * @throws SerializationException when the topic has several associated subjects, or none and the fallback is
   *     {@code NONE}
   */
  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    Settings current = settings;
    SchemaRegistryClient registry = client;
    if (registry == null) {
      if (!warnedNoClient) {
        warnedNoClient = true;
        log.warn("AssociatedNameStrategy has no registry client (the serde that made it gives it one): topics get "
            + "the fallback strategy's subjects");
      }
      return fallback(current, topic, isKey, schema, "this strategy has no registry client");
    }
    Key key = new Key(topic, isKey, current.fallback != null && current.fallback.usesSchema ? schema : null);
    Answer answer = answers.get(key, k -> ask(registry, current, topic, isKey, schema));
    if (answer.failure != null) {
      throw new SerializationException(answer.failure);
    }
    return answer.subject;
  }

  private Answer ask(SchemaRegistryClient registry, Settings current, String topic, boolean isKey, Schema schema) {
    String namespace = current.clusterId != null ? current.clusterId
        : learntClusterId != null ? learntClusterId : Association.ANY_NAMESPACE;
    String type = isKey ? Association.KEY : Association.VALUE;
    List<Association> associations;
    try {
      associations = registry.associations(namespace, topic, Association.TOPIC, type);
    } catch (UnsupportedRegistryApiException e) {
      if (!warnedNoApi) {
        warnedNoApi = true;
        log.warn("The registry has no associations API: topics get the fallback strategy's subjects; asked again "
            + "after {} minutes ({})", UnsupportedRegistryApiException.REMEMBERED_FOR.toMinutes(), e.getMessage());
      }
      return Answer.of(current, topic, isKey, schema, "the registry has no associations API", true);
    }
    if (associations.size() > 1) {
      return new Answer(null, "the " + type + "s of topic '" + topic + "' (namespace '" + namespace + "') have "
          + associations.size() + " associated subjects in the registry, "
          + associations.stream().map(Association::subject).toList() + ": an association must name one", false);
    }
    if (associations.size() == 1) {
      return new Answer(associations.get(0).subject(), null, false);
    }
    return Answer.of(current, topic, isKey, schema, "the " + type + "s of topic '" + topic + "' (namespace '"
        + namespace + "') have no associated subject in the registry", false);
  }

  private static String fallback(Settings current, String topic, boolean isKey, Schema schema, String why) {
    Answer answer = Answer.of(current, topic, isKey, schema, why, false);
    if (answer.failure != null) {
      throw new SerializationException(answer.failure);
    }
    return answer.subject;
  }

  private Cache<Key, Answer> cache(Settings parsed) {
    return Caffeine.newBuilder().ticker(ticker).maximumSize(parsed.cacheSize)
        .expireAfter(new Expiry<Key, Answer>() {
          @Override
          public long expireAfterCreate(Key key, Answer answer, long now) {
            long kept = parsed.expiry == null ? Long.MAX_VALUE : parsed.expiry.toNanos();
            return answer.apiMissing ? Math.min(kept, UnsupportedRegistryApiException.REMEMBERED_FOR.toNanos()) : kept;
          }

          @Override
          public long expireAfterUpdate(Key key, Answer answer, long now, long left) {
            return expireAfterCreate(key, answer, now);
          }

          @Override
          public long expireAfterRead(Key key, Answer answer, long now, long left) {
            return left;
          }
        }).build();
  }

  /** What was learnt for a key: a subject, or why there is none. */
  private record Answer(String subject, String failure, boolean apiMissing) {
    /** The fallback strategy's subject, or, with fallback {@code NONE}, the failure, saying {@code why}. */
    static Answer of(Settings settings, String topic, boolean isKey, Schema schema, String why, boolean apiMissing) {
      if (settings.fallback == null) {
        return new Answer(null, "no subject for the " + (isKey ? "key" : "value") + "s of topic '" + topic + "': "
            + why + ", and " + FALLBACK_TYPE_CONFIG + "=NONE", apiMissing);
      }
      return new Answer(settings.fallback.strategy.subjectName(topic, isKey, schema), null, apiMissing);
    }
  }

  private record Key(String topic, boolean isKey, Schema schema) {}

  /** The strategies a topic without association may fall back to. */
  private enum Fallback {
    TOPIC(new TopicNameStrategy(), false),
    RECORD(new RecordNameStrategy(), true),
    TOPIC_RECORD(new TopicRecordNameStrategy(), true);

    final SubjectNameStrategy strategy;
    final boolean usesSchema;

    Fallback(SubjectNameStrategy strategy, boolean usesSchema) {
      this.strategy = strategy;
      this.usesSchema = usesSchema;
    }
  }

  /**
   * This strategy's keys, parsed once.
   *
   * @param fallback null for {@code NONE}
   * @param expiry null to keep answers for as long as there is room
   * @param clusterId null when not configured
   */
  private record Settings(Fallback fallback, int cacheSize, Duration expiry, String clusterId) {
    static final Settings DEFAULT = new Settings(Fallback.TOPIC, DEFAULT_CACHE_SIZE, null, null);

    static Settings parse(Map<String, ?> configs) {
      Object fallbackValue = configs.get(FALLBACK_TYPE_CONFIG);
      Fallback fallback = Fallback.TOPIC;
      if (fallbackValue != null) {
        String name = fallbackValue.toString().trim().toUpperCase(Locale.ROOT);
        if (name.equals("NONE")) {
          fallback = null;
        } else {
          try {
            fallback = Fallback.valueOf(name);
          } catch (IllegalArgumentException e) {
            throw new ConfigException(FALLBACK_TYPE_CONFIG, fallbackValue, "not one of TOPIC, RECORD, TOPIC_RECORD, "
                + "NONE");
          }
        }
      }
      int size = integer(configs, CACHE_SIZE_CONFIG, DEFAULT_CACHE_SIZE);
      if (size < 0) {
        throw new ConfigException(CACHE_SIZE_CONFIG, size, "a number of entries, 0 or more");
      }
      int expirySecs = integer(configs, CACHE_EXPIRY_SECS_CONFIG, -1);
      Object clusterId = configs.get(KAFKA_CLUSTER_ID_CONFIG);
      String cluster = clusterId == null || clusterId.toString().isBlank() ? null : clusterId.toString().trim();
      return new Settings(fallback, size, expirySecs < 0 ? null : Duration.ofSeconds(expirySecs), cluster);
    }

    private static int integer(Map<String, ?> configs, String key, int otherwise) {
      Object value = configs.get(key);
      if (value == null) {
        return otherwise;
      }
      if (value instanceof Integer number) {
        return number;
      }
      try {
        return Integer.parseInt(value.toString().trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(key, value, "not an integer");
      }
    }
  }
}
