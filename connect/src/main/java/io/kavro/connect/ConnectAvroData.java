package io.kavro.connect;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.serde.AvroValue;
import io.kavro.serde.DatumEncoder;
import io.kavro.serde.KafkaAvroDeserializer;
import org.apache.avro.Schema;

/**
 * Converts between Connect and Avro as Confluent's {@code AvroData} does, with both schema conversions cached
 * in bounded caches ({@code schemas.cache.config}). Connect schemas are keyed by the schema itself, so equal
 * schemas share one entry. Avro schemas are keyed by the instance and the version Connect is given: Avro's
 * equality ignores docs, which the Connect schema carries, so two schemas that differ only in their docs (two
 * ids) must not share one; the deserializer hands one instance per schema id. Thread-safe.
 */
final class ConnectAvroData {
  private final ConnectToAvro toAvroMapping;
  private final ConnectWriters writers;
  private final AvroToConnect toConnectMapping;
  private final Cache<org.apache.kafka.connect.data.Schema, ToAvro> toAvro;
  private final Cache<org.apache.kafka.connect.data.Schema, ToAvro> toAvroByInstance;
  private final Cache<VersionedSchema, ToConnect> toConnect;
  /**
   * The Connect schema instance last written and its conversion, in front of the caches: a task's records mostly
   * share one schema instance. Replaced (not mutated) when another instance comes, so a reader sees a pair.
   */
  private volatile LastToAvro lastToAvro;

  private record LastToAvro(org.apache.kafka.connect.data.Schema connect, ToAvro toAvro) {}

  /**
   * The topic, writer schema id and instance last read, and their conversion, in front of the version lookup and
   * the cache: a record of the same topic and schema needs neither. Held only when the subject gives the schema a
   * version, which never changes for that (subject, id); a new instance for an id (the client replaced it) misses.
   */
  private volatile LastToConnect lastToConnect;

  private record LastToConnect(String topic, int schemaId, Schema avro, ToConnect toConnect) {}

  /**
   * How the values of one Connect schema are written: as this Avro schema, by this mapper, or straight into the
   * encoder by this writer when there is one ({@code null}: a schema the writers do not cover, see
   * {@link ConnectWriters}).
   */
  record ToAvro(Schema schema, ValueMapper mapper, DatumEncoder writer) {}

  private static final ToAvro SCHEMALESS = new ToAvro(Schemaless.ANYTHING, Schemaless::toAvro, null);

  /** How the values of one Avro schema are read: as this Connect schema, by this mapper. */
  record ToConnect(org.apache.kafka.connect.data.Schema schema, ValueMapper mapper) {}

  private static final ToConnect SCHEMALESS_TO_CONNECT = new ToConnect(null, Schemaless::toConnect);

  /**
   * An Avro schema instance, and the registry version Connect is given for it (its subject's: one schema read
   * under two subjects has two). Equal by identity of the schema: everything the Connect schema holds (docs
   * too) comes from it.
   */
  private record VersionedSchema(Schema schema, Integer version) {
    @Override
    public boolean equals(Object other) {
      return other instanceof VersionedSchema that && that.schema == schema
          && java.util.Objects.equals(that.version, version);
    }

    @Override
    public int hashCode() {
      return 31 * System.identityHashCode(schema) + java.util.Objects.hashCode(version);
    }
  }

  ConnectAvroData(ConverterConfig settings) {
    this.toAvroMapping = new ConnectToAvro(settings);
    this.writers = new ConnectWriters(settings);
    this.toConnectMapping = new AvroToConnect(settings);
    this.toAvro = Caffeine.newBuilder().maximumSize(settings.schemasCacheSize()).build();
    // In front, by identity (weak keys): a Connect schema's hash code walks the whole schema on every call.
    this.toAvroByInstance = Caffeine.newBuilder().weakKeys().maximumSize(settings.schemasCacheSize()).build();
    this.toConnect = Caffeine.newBuilder().maximumSize(settings.schemasCacheSize()).build();
  }

  /**
   * The Avro schema of a Connect schema, the mapper of its values and their writer, built once per schema: equal schemas share
   * one; schemaless data ({@code null}) is Confluent's {@code Anything}.
   */
  ToAvro toAvro(org.apache.kafka.connect.data.Schema connect) {
    if (connect == null) {
      return SCHEMALESS;
    }
    LastToAvro last = lastToAvro;
    if (last != null && last.connect() == connect) {
      return last.toAvro();
    }
    ToAvro known = toAvroByInstance.getIfPresent(connect);
    if (known == null) {
      known = toAvro.get(connect, key -> {
        Schema avro = toAvroMapping.schema(key);
        return new ToAvro(avro, toAvroMapping.mapper(key, avro), writers.compile(key, avro));
      });
      toAvroByInstance.put(connect, known);
    }
    lastToAvro = new LastToAvro(connect, known);
    return known;
  }

  /**
   * The Connect schema and mapper of a record read from {@code topic}, with the version its topic's subject gives
   * its writer schema, which {@code versions} is asked for only when the record's topic, schema id or schema
   * instance differ from the last one's.
   */
  ToConnect toConnect(String topic, AvroValue read, KafkaAvroDeserializer versions) {
    LastToConnect last = lastToConnect;
    if (last != null && last.avro() == read.schema() && last.schemaId() == read.schemaId()
        && java.util.Objects.equals(last.topic(), topic)) {
      return last.toConnect();
    }
    Integer version = versions.writerVersion(topic, read);
    ToConnect found = toConnect(read.schema(), version);
    if (version != null) {
      lastToConnect = new LastToConnect(topic, read.schemaId(), read.schema(), found);
    }
    return found;
  }

  /**
   * The Connect schema of an Avro schema, with {@code version} unless it carries its own, and the mapper of its
   * values, built once per schema instance and version; schemaless data (Confluent's {@code Anything}) has no schema.
   */
  ToConnect toConnect(Schema avro, Integer version) {
    if (avro.equals(Schemaless.ANYTHING)) {
      return SCHEMALESS_TO_CONNECT;
    }
    return toConnect.get(new VersionedSchema(avro, version), key -> {
      org.apache.kafka.connect.data.Schema connect = toConnectMapping.schema(key.schema(), key.version());
      return new ToConnect(connect, toConnectMapping.mapper(connect, key.schema()));
    });
  }
}
