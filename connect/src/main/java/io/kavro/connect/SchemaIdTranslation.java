package io.kavro.connect;

import io.kavro.serde.SchemaIdTranslator;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * A single message transform that carries schema ids across clusters: each record's id in the source registry
 * becomes the target registry's id of the same schema (see {@link SchemaIdTranslator}), in the header or prefix
 * it came in (a {@code __key_schema_id} / {@code __value_schema_id} header whose value is null is absent, as the
 * deserializer reads it: the payload's prefix is translated). For MirrorMaker 2 and other byte-for-byte copies,
 * whose records are bytes ({@code ByteArrayConverter}, MirrorMaker 2's default): use {@link Value} for values,
 * {@link Key} for keys.
 *
 * <pre>
 * transforms=ids
 * transforms.ids.type=io.kavro.connect.SchemaIdTranslation$Value
 * transforms.ids.source.schema.registry.url=http://source-registry:8081
 * transforms.ids.target.schema.registry.url=http://target-registry:8081
 * </pre>
 *
 * <p>Every setting under {@code source.} configures the source registry's client; every setting under
 * {@code target.} the target's, with {@code target.auto.register.schemas} (default true: register the schema under
 * the subject the target's {@code value.subject.name.strategy} names for the record's topic, as the worker writes
 * it; false: look it up there only) and the subject name strategies. A tombstone passes as it is.
 *
 * <p>A record it cannot translate fails with a {@link DataException} (bytes that are not framed, an id the source
 * registry does not know, a schema the target refuses), which goes through the worker's error handling
 * ({@code errors.tolerance}, the dead letter queue); an unavailable registry with a {@link RetriableException},
 * which the worker retries. A registry URL that has never answered as a registry is a configuration error, but no
 * record's fault: a {@link RetriableException} too, so that no record is skipped past it, whose message says to fix
 * the URL, logged at ERROR once; under the defaults ({@code errors.tolerance=none}, {@code errors.retry.timeout=0})
 * it fails the task at once. On Connect 3.x, which drops a record whose retries ran out even with
 * {@code errors.tolerance=none} (KAFKA-18073), both are thrown as an {@code Error} instead, which fails the task.
 *
 * @param <R> the record type
 */
public abstract class SchemaIdTranslation<R extends ConnectRecord<R>> implements Transformation<R> {
  /** Settings under this prefix configure the source registry's client. */
  public static final String SOURCE_PREFIX = "source.";
  /** Settings under this prefix configure the target registry's client, subjects and registration. */
  public static final String TARGET_PREFIX = "target.";

  /**
   * The required URLs. Typed as passwords, though they are not, because Connect logs a connector's settings at INFO
   * with its transformations' definitions, and a registry URL may hold {@code user:password@}: shown as
   * {@code [hidden]} there. The transform reads the settings as given.
   */
  private static final ConfigDef CONFIG = new ConfigDef()
      .define(SOURCE_PREFIX + "schema.registry.url", ConfigDef.Type.PASSWORD, ConfigDef.NO_DEFAULT_VALUE,
          ConfigDef.Importance.HIGH, "The source cluster's registry, whose ids the records carry; every other "
              + "source.* setting configures its client as a serde's would")
      .define(TARGET_PREFIX + "schema.registry.url", ConfigDef.Type.PASSWORD, ConfigDef.NO_DEFAULT_VALUE,
          ConfigDef.Importance.HIGH, "The target cluster's registry, whose ids the records get; every other "
              + "target.* setting configures its client, registration and subjects as a serializer's would");

  private final boolean isKey;
  private final ConnectFailures failures;
  private volatile SchemaIdTranslator translator;

  /** @param isKey whether it translates keys */
  SchemaIdTranslation(boolean isKey) {
    this.isKey = isKey;
    this.failures = new ConnectFailures("SchemaIdTranslation (" + (isKey ? "keys" : "values") + ")",
        "source.schema.registry.url or target.schema.registry.url");
  }

  /** Translates record keys. */
  public static final class Key<R extends ConnectRecord<R>> extends SchemaIdTranslation<R> {
    /** For Connect: configured through {@link #configure(Map)}. */
    public Key() {
      super(true);
    }
  }

  /** Translates record values. */
  public static final class Value<R extends ConnectRecord<R>> extends SchemaIdTranslation<R> {
    /** For Connect: configured through {@link #configure(Map)}. */
    public Value() {
      super(false);
    }
  }

  @Override
  public void configure(Map<String, ?> configs) {
    // Checks the required URLs; not logged (AbstractConfig's INFO dump), as they may hold credentials.
    new org.apache.kafka.common.config.AbstractConfig(CONFIG, configs, false);
    SchemaIdTranslator old = translator;
    translator = new SchemaIdTranslator(withPrefix(configs, SOURCE_PREFIX), withPrefix(configs, TARGET_PREFIX),
        isKey);
    if (old != null) {
      old.close();
    }
  }

  private static Map<String, Object> withPrefix(Map<String, ?> configs, String prefix) {
    Map<String, Object> stripped = new HashMap<>();
    configs.forEach((name, value) -> {
      if (name.startsWith(prefix)) {
        stripped.put(name.substring(prefix.length()), value);
      }
    });
    return stripped;
  }

  @Override
  public R apply(R record) {
    SchemaIdTranslator translator = this.translator;
    if (translator == null) {
      throw new IllegalStateException("SchemaIdTranslation is not configured");
    }
    Object data = isKey ? record.key() : record.value();
    if (data == null) {
      return record;
    }
    for (String foreign : translator.foreignIdHeaders()) {
      if (record.headers().lastWithName(foreign) != null) {
        throw new DataException("cannot translate the schema id of a record of topic '" + record.topic() + "': its "
            + foreign + " header holds Apicurio's id, which this transform does not rewrite");
      }
    }
    try {
      Header header = record.headers().lastWithName(translator.headerName());
      // A header without a value is absent, as the deserializer reads it: the payload's prefix is translated.
      if (header != null && header.value() != null) {
        byte[] value = translator.translateHeader(record.topic(), bytes(header.value(), record, "its "
            + translator.headerName() + " header"));
        Headers headers = record.headers().duplicate();
        headers.remove(translator.headerName());
        headers.addBytes(translator.headerName(), value);
        return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
            record.valueSchema(), record.value(), record.timestamp(), headers);
      }
      byte[] translated = translator.translatePayload(record.topic(), bytes(data, record, isKey ? "its key"
          : "its value"));
      return isKey
          ? record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), translated,
              record.valueSchema(), record.value(), record.timestamp())
          : record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
              record.valueSchema(), translated, record.timestamp());
    } catch (org.apache.kafka.common.errors.RetriableException e) {
      throw failures.retriable(e.getMessage(), e);
    } catch (SerializationException e) {
      throw failures.of(e.getMessage(), e);
    }
  }

  private byte[] bytes(Object data, R record, String what) {
    if (data instanceof byte[] bytes) {
      return bytes;
    }
    if (data instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    throw new DataException("cannot translate the schema id of a record of topic '" + record.topic() + "': " + what
        + " is a " + data.getClass().getName() + ", not bytes; the records must be copied as bytes "
        + "(ByteArrayConverter, as MirrorMaker 2 does by default)");
  }

  @Override
  public ConfigDef config() {
    return CONFIG;
  }

  @Override
  public void close() {
    SchemaIdTranslator current = translator;
    translator = null;
    if (current != null) {
      current.close();
    }
  }
}
