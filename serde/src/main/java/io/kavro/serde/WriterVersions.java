package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.RegistryUnavailableException;
import java.time.Duration;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The version that a topic's subject gives a record's writer schema, which Confluent's converter puts in the
 * Connect schema. The registry client caches the versions found; this keeps the (subject, id) pairs that have none
 * (a schema registered under another subject) for {@link #UNVERSIONED_TTL}, so that such a topic costs no request
 * per record. Thread-safe; its cache is made on first use, by the converter only.
 */
final class WriterVersions {
  /** How long "the subject does not hold this schema" is believed before the registry is asked again. */
  static final Duration UNVERSIONED_TTL = Duration.ofMinutes(5);

  private final TopicIds ids;
  private volatile Cache<Unversioned, Boolean> unversioned;

  /** A schema id that a subject does not hold. */
  private record Unversioned(String subject, int id) {}

  /** How many (subject, id) pairs found unversioned are remembered: {@code missing.cache.size}. */
  private final int maxUnversioned;

  WriterVersions(TopicIds ids, int maxUnversioned) {
    this.ids = ids;
    this.maxUnversioned = maxUnversioned;
  }

  /**
   * The version, or {@code null} when the topic's subject does not hold the schema or the record names its schema
   * by GUID.
   *
   * @throws RetriableSerdeException when the registry cannot be reached
   * @throws SerializationException when it fails otherwise
   */
  Integer of(String topic, AvroValue read) {
    if (read.schemaId() < 0) {
      return null;
    }
    Unversioned key = null;
    try {
      Schema writer = ids.of(topic).schemaById(read.schemaId());
      key = new Unversioned(ids.subjects().subjectName(topic, ids.isKey(), writer), read.schemaId());
      if (unversioned().getIfPresent(key) != null) {
        return null;
      }
      return ids.client().lookup(key.subject(), writer).version();
    } catch (SchemaNotFoundException e) {
      if (key != null) {
        unversioned().put(key, Boolean.TRUE);
      }
      return null;
    } catch (RegistryUnavailableException e) {
      throw new RetriableSerdeException(failure(topic, read, e), e);
    } catch (SchemaRegistryException e) {
      throw new SerializationException(failure(topic, read, e), e);
    }
  }

  private String failure(String topic, AvroValue read, SchemaRegistryException e) {
    return "cannot look up the version of schema id " + read.schemaId() + " for the " + (ids.isKey() ? "key" : "value")
        + " of topic '" + topic + "': " + e.getMessage();
  }

  private Cache<Unversioned, Boolean> unversioned() {
    Cache<Unversioned, Boolean> cache = unversioned;
    if (cache == null) {
      synchronized (this) {
        cache = unversioned;
        if (cache == null) {
          cache = Caffeine.newBuilder().maximumSize(maxUnversioned).expireAfterWrite(UNVERSIONED_TTL)
              .executor(Runnable::run).build(); // evictions at once, on the calling thread
          unversioned = cache;
        }
      }
    }
    return cache;
  }
}
