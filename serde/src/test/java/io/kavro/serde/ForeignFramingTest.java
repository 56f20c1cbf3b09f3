package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.ApicurioId;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.serde.framing.FramingResolver;
import io.kavro.serde.framing.SchemaIdPrefix;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Other registries' framing: Apicurio's ids in the payload's prefix (as configured) and in its headers (by name),
 * resolved through the client's Apicurio API once per id; Glue's recognized and refused clearly; a
 * {@link FramingResolver} plugged in. The formats are Apicurio's serdes' ({@code DefaultIdHandler}: a long,
 * {@code Default4ByteIdHandler}/{@code Legacy4ByteIdHandler}: an int, both big-endian after {@code 0x00};
 * {@code DefaultHeadersHandler}: an 8-byte long per header) and Glue's ({@code 0x03}, compression, UUID).
 */
class ForeignFramingTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");

  private final Serdes serdes = new Serdes();
  private final Map<ApicurioId, Schema> apicurio = new ConcurrentHashMap<>();
  private final AtomicInteger apicurioCalls = new AtomicInteger();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord order(long id) {
    GenericRecord record = new GenericData.Record(ORDER);
    record.put("id", id);
    return record;
  }

  private static byte[] body(long id) {
    return new byte[] {(byte) (id << 1)}; // the zig-zag varint of a small long
  }

  /** The scope's in-memory registry, answering Apicurio ids from {@link #apicurio}. */
  private SchemaRegistryClient client() {
    SchemaRegistryClient registry = serdes.registry();
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("schemaByApicurioId")) {
            apicurioCalls.incrementAndGet();
            Schema schema = apicurio.get((ApicurioId) args[0]);
            if (schema == null) {
              throw new SchemaNotFoundException("no " + args[0], 404, 404, "test", null);
            }
            return schema;
          }
          try {
            return method.invoke(registry, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private KafkaAvroDeserializer deserializer(boolean isKey, Object... keyValues) {
    return new KafkaAvroDeserializer(client(), serdes.config(keyValues), isKey);
  }

  private static byte[] prefixed(SchemaIdPrefix form, long id, byte[] body) {
    ByteBuffer buffer = ByteBuffer.allocate(form.size() + body.length).put((byte) 0);
    if (form.size() == 9) {
      buffer.putLong(id);
    } else {
      buffer.putInt((int) id);
    }
    return buffer.put(body).array();
  }

  @ParameterizedTest
  @EnumSource(value = SchemaIdPrefix.class, names = "APICURIO_.*", mode = EnumSource.Mode.MATCH_ANY)
  void apicurioPrefix_asConfigured_resolvedOncePerId(SchemaIdPrefix form) {
    apicurio.put(new ApicurioId(form.apicurioKind(), 42), ORDER);
    KafkaAvroDeserializer deserializer = deserializer(false, "value.schema.id.prefix", form.configValue());

    assertThat(deserializer.deserialize("orders", prefixed(form, 42, body(1)))).isEqualTo(order(1));
    assertThat(deserializer.deserialize("orders", prefixed(form, 42, body(2)))).isEqualTo(order(2));
    assertThat(apicurioCalls).hasValue(1);
    assertThat(serdes.registryRequests()).as("no Confluent id asked").isZero();
  }

  @Test
  void apicurioHeaders_byName_withTheDefaults_besideKavrosOwnRecords() {
    Schema other = new Schema.Parser().parse("""
        {"type":"record","name":"Other","fields":[{"name":"n","type":"long"}]}""");
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 7), ORDER);
    apicurio.put(new ApicurioId(ApicurioId.Kind.CONTENT_ID, 7), other);
    KafkaAvroDeserializer deserializer = deserializer(false);
    byte[] kavros = serdes.serializer().serialize("orders", order(3));

    Headers global = new RecordHeaders().add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(7).array())
        .add("apicurio.value.encoding", "BINARY".getBytes());
    Headers content = new RecordHeaders().add("apicurio.value.contentId", ByteBuffer.allocate(8).putLong(7).array());

    assertThat(deserializer.deserialize("orders", global, body(1))).isEqualTo(order(1));
    assertThat(((GenericRecord) deserializer.deserialize("orders", content, body(2))).getSchema()).isEqualTo(other);
    assertThat(deserializer.deserialize("orders", new RecordHeaders(), kavros)).isEqualTo(order(3));
    assertThat(apicurioCalls).hasValue(2);
  }

  @Test
  void keyHeaders_readByTheKeyDeserializerOnly() {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 9), ORDER);
    Headers headers = new RecordHeaders().add("apicurio.key.globalId", ByteBuffer.allocate(8).putLong(9).array());

    assertThat(deserializer(true).deserialize("orders", headers, body(4))).isEqualTo(order(4));
    assertThatThrownBy(() -> deserializer(false).deserialize("orders", headers, body(4)))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("shorter than the 5-byte header");
  }

  /** Headers a record kept from another serde (a Streams app copies them) do not count with the prefix only. */
  @Test
  void prefixOnly_ignoresApicuriosHeaders() {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 7), ORDER);
    Headers stale = new RecordHeaders().add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(7).array());
    byte[] kavros = serdes.serializer().serialize("orders", order(3));

    assertThat(deserializer(false, "value.schema.id.deserializer", "PrefixSchemaIdDeserializer")
        .deserialize("orders", stale, kavros)).isEqualTo(order(3));
    assertThat(apicurioCalls).hasValue(0);
  }

  /** Kavro's serializer drops id headers a record kept from another serde, so that its own framing is read. */
  @Test
  void serializer_dropsOtherIdHeaders_soTheRecordReadsBack() {
    Headers copied = new RecordHeaders().add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(7).array())
        .add("apicurio.value.contentId", ByteBuffer.allocate(8).putLong(7).array())
        .add("__value_schema_id", WireFormat.idPrefix(999)).add("trace", new byte[] {1});
    Headers copiedToo = new RecordHeaders().add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(7).array())
        .add("apicurio.key.globalId", ByteBuffer.allocate(8).putLong(7).array());

    byte[] prefixed = serdes.serializer().serialize("orders", copied, order(6));
    byte[] bodyOnly = serdes.serializer("value.schema.id.serializer", "HeaderSchemaIdSerializer")
        .serialize("orders", copiedToo, order(7));

    assertThat(copied.toArray()).extracting(org.apache.kafka.common.header.Header::key).containsExactly("trace");
    assertThat(copiedToo.toArray()).extracting(org.apache.kafka.common.header.Header::key)
        .containsExactly("apicurio.key.globalId", "__value_schema_id");
    assertThat(deserializer(false).deserialize("orders", copied, prefixed)).isEqualTo(order(6));
    assertThat(deserializer(false).deserialize("orders", copiedToo, bodyOnly)).isEqualTo(order(7));
    assertThat(apicurioCalls).hasValue(0);
  }

  @Test
  void badHeaders_typedErrorsThatNameThem_andNoTrace() {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 7), ORDER);
    KafkaAvroDeserializer deserializer = deserializer(false);
    Headers shortId = new RecordHeaders().add("apicurio.value.globalId", new byte[] {0, 7});
    Headers json = new RecordHeaders().add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(7).array())
        .add("apicurio.value.encoding", "JSON".getBytes());

    assertThatThrownBy(() -> deserializer.deserialize("orders", shortId, body(1)))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("value of topic 'orders'").hasMessageContaining("apicurio.value.globalId header holds 2")
        .hasNoCause();
    assertThatThrownBy(() -> deserializer.deserialize("orders", json, body(1)))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("'JSON'")
        .hasMessageContaining("apicurio.registry.avro.encoding=JSON");
    Headers good = new RecordHeaders().add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(7).array());
    assertThat(deserializer.deserialize("orders", good, body(5))).isEqualTo(order(5));
  }

  @Test
  void unknownApicurioId_unknownSchemaId_thenTheNextRecordReads() {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 1), ORDER);
    KafkaAvroDeserializer deserializer = deserializer(false, "value.schema.id.prefix", "apicurio-global-id-8");

    assertThatThrownBy(() -> deserializer.deserialize("orders",
        prefixed(SchemaIdPrefix.APICURIO_GLOBAL_ID_8, 2, body(1))))
        .isInstanceOf(UnknownSchemaIdException.class).hasMessageContaining("Apicurio global id 2");
    assertThat(deserializer.deserialize("orders", prefixed(SchemaIdPrefix.APICURIO_GLOBAL_ID_8, 1, body(1))))
        .isEqualTo(order(1));
  }

  @Test
  void registryWithoutApicuriosApi_nonRetriable() {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(serdes.registry(),
        serdes.config("value.schema.id.prefix", "apicurio-content-id-4"), false);

    assertThatThrownBy(() -> deserializer.deserialize("orders",
        prefixed(SchemaIdPrefix.APICURIO_CONTENT_ID_4, 3, body(1))))
        .isInstanceOf(SerializationException.class).isNotInstanceOf(RetriableException.class)
        .hasCauseInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("no Apicurio API");
  }

  @Test
  void shortPrefix_namesTheConfiguredForm() {
    KafkaAvroDeserializer deserializer = deserializer(false, "value.schema.id.prefix", "apicurio-global-id-8");

    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {0, 0, 0, 0, 0, 1}))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("shorter than the 9-byte header (schema.id.prefix=apicurio-global-id-8)").hasNoCause();
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {7, 0, 0, 0, 0, 0, 0, 0, 1, 2}))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("unknown magic byte 0x07");
  }

  private static byte[] glueFramed(UUID version, byte[] body) {
    return ByteBuffer.allocate(18 + body.length).put((byte) 3).put((byte) 0)
        .putLong(version.getMostSignificantBits()).putLong(version.getLeastSignificantBits()).put(body).array();
  }

  @Test
  void glue_withoutAResolver_saysWhatItIs() {
    UUID version = UUID.fromString("2f6c9c1e-7a4b-4a3e-9a47-0d1e7c6b5a42");

    assertThatThrownBy(() -> deserializer(false).deserialize("orders", glueFramed(version, body(1))))
        .isInstanceOf(UnsupportedFramingException.class).isNotInstanceOf(RetriableException.class)
        .hasMessageContaining("AWS Glue Schema Registry").hasMessageContaining(version.toString()).hasNoCause()
        .hasMessageContaining("value.framing.resolver");
  }

  /** A resolver for Glue's framing, as a user would plug one in, answering schemas from a table. */
  public static final class GlueTableResolver implements FramingResolver {
    static final Map<UUID, Schema> SCHEMAS = new ConcurrentHashMap<>();
    static final AtomicInteger LOOKUPS = new AtomicInteger();
    static final AtomicInteger CLOSED = new AtomicInteger();
    private Object configured;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      configured = configs.get("glue.table");
    }

    @Override
    public Framed locate(String topic, Headers headers, byte[] payload, int offset, int length) {
      if (configured == null || length < 18 || payload[offset] != 3) {
        return null;
      }
      ByteBuffer prefix = ByteBuffer.wrap(payload, offset + 2, 16);
      return new Framed(new UUID(prefix.getLong(), prefix.getLong()), 18);
    }

    @Override
    public Schema writerSchema(Object key) {
      LOOKUPS.incrementAndGet();
      Schema schema = SCHEMAS.get((UUID) key);
      if (schema == null) {
        throw new org.apache.kafka.common.errors.TimeoutException("no schema version " + key + " yet");
      }
      return schema;
    }

    @Override
    public void close() {
      CLOSED.incrementAndGet();
    }
  }

  @Test
  void resolver_pluggedIn_readsGlue_oncePerKey_andKavrosOwnToo() {
    UUID version = UUID.randomUUID();
    UUID later = UUID.randomUUID();
    GlueTableResolver.SCHEMAS.put(version, ORDER);
    int lookups = GlueTableResolver.LOOKUPS.get();
    int closed = GlueTableResolver.CLOSED.get();
    KafkaAvroDeserializer deserializer = deserializer(false, "value.framing.resolver", GlueTableResolver.class,
        "glue.table", "on");
    byte[] kavros = serdes.serializer().serialize("orders", order(3));

    assertThat(deserializer.deserialize("orders", glueFramed(version, body(1)))).isEqualTo(order(1));
    assertThat(deserializer.deserialize("orders", glueFramed(version, body(2)))).isEqualTo(order(2));
    assertThat(deserializer.deserialize("orders", kavros)).isEqualTo(order(3));
    assertThat(GlueTableResolver.LOOKUPS.get() - lookups).isEqualTo(1);
    assertThatThrownBy(() -> deserializer.deserialize("orders", glueFramed(later, body(1))))
        .as("the resolver's retriable failure stays retriable").isInstanceOf(RetriableException.class)
        .hasMessageContaining("no schema version " + later);
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {9, 1, 2, 3, 4, 5}))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("unknown magic byte 0x09");

    deserializer.close();
    assertThat(GlueTableResolver.CLOSED.get() - closed).isEqualTo(1);
  }

  /** A second configure closes the engine it replaces (its resolver); closing twice closes it once. */
  @Test
  void reconfigure_closesTheReplacedResolver_andCloseIsIdempotent() {
    int closed = GlueTableResolver.CLOSED.get();
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(serdes.config("value.framing.resolver", GlueTableResolver.class), false);

    deserializer.configure(serdes.config("value.framing.resolver", GlueTableResolver.class), false);
    assertThat(GlueTableResolver.CLOSED.get() - closed).as("the replaced engine's resolver").isEqualTo(1);
    deserializer.close();
    deserializer.close();
    assertThat(GlueTableResolver.CLOSED.get() - closed).as("the current one, once").isEqualTo(2);
  }

  /** A resolver that claims more prefix than the payload has: the record fails as malformed, naming it. */
  public static final class OverlongResolver implements FramingResolver {
    @Override
    public Framed locate(String topic, Headers headers, byte[] payload, int offset, int length) {
      return new Framed("k", length + 1);
    }

    @Override
    public Schema writerSchema(Object key) {
      return ORDER;
    }
  }

  @Test
  void resolverClaimingMoreThanThePayload_malformed() {
    KafkaAvroDeserializer deserializer = deserializer(false, "value.framing.resolver", OverlongResolver.class);

    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {7, 1, 2}))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining(OverlongResolver.class.getName())
        .hasMessageContaining("says its prefix has 4 bytes");
  }

  /**
   * A resolver deployed without a class it uses (Glue's client library, say), by the payload's first byte: its
   * {@code locate} fails to link (5), its {@code writerSchema} does (6), its key's {@code equals} does once a read
   * plan is cached for an equal key (7), its key's {@code hashCode} does (9), a class it uses fails to initialize
   * (10); or it fails on the record (8, and 12, whose key's {@code toString} fails to link), or refuses it with its
   * own {@link SchemaResolutionException} (11), or its {@code writerSchema} with its own
   * {@link MalformedPayloadException} (14) or {@link UnsupportedFramingException} (15), or its key fails when the
   * read plan is stored (13).
   */
  public static final class UnlinkedResolver implements FramingResolver {
    static final String MISSING = "com/amazonaws/services/schemaregistry/common/AWSSchemaRegistryClient";

    @Override
    public Framed locate(String topic, Headers headers, byte[] payload, int offset, int length) {
      return switch (payload[offset]) {
        case 5 -> throw new NoClassDefFoundError(MISSING);
        case 6 -> new Framed("schema of byte 6", 1);
        case 7 -> new Framed(new UnequalKey(), 1);
        case 8 -> throw new IllegalStateException("no prefix of byte 8");
        case 9 -> new Framed(new UnhashableKey(), 1);
        case 10 -> new Framed(ResolverLibrary.VERSION, 1);
        case 11 -> throw new SchemaResolutionException("the resolver's own refusal", null);
        case 12 -> new Framed(new UnprintableKey(), 1);
        case 13 -> new Framed(new SpentKey(), 1);
        case 14 -> new Framed("own malformed", 1);
        case 15 -> new Framed("own unsupported", 1);
        default -> null;
      };
    }

    @Override
    public Schema writerSchema(Object key) {
      if (key instanceof UnequalKey) {
        return ORDER;
      }
      if (key instanceof UnprintableKey) {
        throw new IllegalStateException("no schema for this key");
      }
      if ("own malformed".equals(key)) {
        throw new MalformedPayloadException("the resolver's own malformed", null);
      }
      if ("own unsupported".equals(key)) {
        throw new UnsupportedFramingException("the resolver's own unsupported");
      }
      if (key instanceof SpentKey spent) {
        spent.spent = true;
        return ORDER;
      }
      throw new NoClassDefFoundError(MISSING);
    }
  }

  /** A key whose {@code hashCode} uses a class missing at run time. */
  private static final class UnhashableKey {
    @Override
    public int hashCode() {
      throw new NoClassDefFoundError(UnlinkedResolver.MISSING);
    }

    @Override
    public boolean equals(Object other) {
      return other == this;
    }
  }

  /** Keys all alike, whose {@code equals} uses a class missing at run time to compare two of them. */
  private static final class UnequalKey {
    @Override
    public int hashCode() {
      return 7;
    }

    @Override
    public boolean equals(Object other) {
      if (other == this) {
        return true;
      }
      throw new NoClassDefFoundError(UnlinkedResolver.MISSING);
    }

    @Override
    public String toString() {
      return "unequal";
    }
  }

  /** A key whose {@code toString} uses a class missing at run time. */
  private static final class UnprintableKey {
    @Override
    public String toString() {
      throw new NoClassDefFoundError(UnlinkedResolver.MISSING);
    }
  }

  /** A key whose {@code hashCode} fails once its writer schema was given: when the read plan is stored. */
  private static final class SpentKey {
    volatile boolean spent;

    @Override
    public int hashCode() {
      if (spent) {
        throw new IllegalStateException("a spent key");
      }
      return 13;
    }

    @Override
    public boolean equals(Object other) {
      return other == this;
    }
  }

  /** A class of the resolver's library whose static initializer fails. */
  private static final class ResolverLibrary {
    static final String VERSION = load();

    private ResolverLibrary() {}

    private static String load() {
      throw new IllegalStateException("the resolver's library found no native part");
    }
  }

  /**
   * A resolver that fails to link fails every record it reads alike: a deployment fault, which a handler that
   * skips bad records must not skip, so a {@link SchemaResolutionException} naming the record, the resolver and
   * the missing class, never a {@link MalformedPayloadException}; what it throws otherwise is the record's, and its
   * own {@code SchemaResolutionException} keeps its stack trace. Each leaves no trace: the next record reads.
   */
  @Test
  void resolversFailures_typedByWhatTheyAre_linkFailuresNeverACorruptRecord() {
    KafkaAvroDeserializer deserializer = deserializer(false, "value.framing.resolver", UnlinkedResolver.class);
    byte[] kavros = serdes.serializer().serialize("orders", order(3));
    assertThat(deserializer.deserialize("orders", new byte[] {7, 2})).as("a key of byte 7 is read once")
        .isEqualTo(order(1));

    for (int first : new int[] {5, 6, 7, 9}) {
      byte[] payload = {(byte) first, 2};
      assertThatThrownBy(() -> deserializer.deserialize("orders", payload)).as("first byte %d", first)
          .isInstanceOf(SchemaResolutionException.class)
          .hasMessageStartingWith("cannot deserialize value of topic 'orders'")
          .hasMessageContaining(UnlinkedResolver.class.getName()).hasMessageContaining("deployment")
          .hasMessageContaining(UnlinkedResolver.MISSING).hasRootCauseInstanceOf(NoClassDefFoundError.class);
      assertThat(deserializer.deserialize("orders", kavros)).isEqualTo(order(3));
    }
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {10, 2})).as("the first initialization")
        .isInstanceOf(SchemaResolutionException.class).hasMessageContaining("ExceptionInInitializerError")
        .hasMessageContaining("the resolver's library found no native part");
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {8, 2}))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining(UnlinkedResolver.class.getName())
        .hasMessageContaining("no prefix of byte 8").hasRootCauseInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {12, 2})).as("a key that cannot print")
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("no schema for this key")
        .hasMessageContaining("key of " + UnprintableKey.class.getName());
    Throwable own = org.assertj.core.api.Assertions.catchThrowable(
        () -> deserializer.deserialize("orders", new byte[] {11, 2}));
    assertThat(own).isInstanceOf(SchemaResolutionException.class)
        .hasMessageStartingWith("cannot deserialize value of topic 'orders'")
        .hasMessageContaining(UnlinkedResolver.class.getName()).hasMessageContaining("the resolver's own refusal")
        .hasCauseInstanceOf(SchemaResolutionException.class);
    assertThat(own.getCause().getStackTrace()[0].getClassName()).as("the resolver's own exception, kept")
        .isEqualTo(UnlinkedResolver.class.getName());
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {13, 2})).as("a key failing when stored")
        .isInstanceOf(MalformedPayloadException.class).hasMessageStartingWith("cannot deserialize value of topic")
        .hasMessageContaining(UnlinkedResolver.class.getName()).hasMessageContaining("a spent key")
        .hasCauseInstanceOf(IllegalStateException.class);
    for (int first : new int[] {14, 15}) {
      Throwable ownOfWriterSchema = org.assertj.core.api.Assertions.catchThrowable(
          () -> deserializer.deserialize("orders", new byte[] {(byte) first, 2}));
      assertThat(ownOfWriterSchema).as("first byte %d", first)
          .isInstanceOf(first == 14 ? MalformedPayloadException.class : UnsupportedFramingException.class)
          .hasMessageStartingWith("cannot deserialize value of topic 'orders'")
          .hasMessageContaining(UnlinkedResolver.class.getName()).hasMessageContaining("the resolver's own");
      assertThat(ownOfWriterSchema.getCause()).as("first byte %d: the resolver's own exception, kept", first)
          .isNotNull().extracting(cause -> cause.getStackTrace()[0].getClassName())
          .isEqualTo(UnlinkedResolver.class.getName());
    }
    assertThat(deserializer.deserialize("orders", kavros)).isEqualTo(order(3));
  }

  @Test
  void configuration_refusesWhatItCannotUse() {
    assertThatThrownBy(() -> serdes.deserializer("value.schema.id.prefix", "apicurio"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("apicurio-global-id-8")
        .hasMessageContaining("confluent");
    assertThatThrownBy(() -> serdes.deserializer("value.framing.resolver", String.class.getName()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("is not a io.kavro.serde.framing.FramingResolver");
    assertThat(List.of(SchemaIdPrefix.values())).extracting(SchemaIdPrefix::size).containsExactly(5, 9, 5, 5, 9);
  }
}
