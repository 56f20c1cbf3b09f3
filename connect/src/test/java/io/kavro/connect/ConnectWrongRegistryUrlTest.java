package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 49, item 11: a registry URL that has never answered as a registry is a configuration error in Connect, yet
 * no record's fault: a Connect {@link RetriableException}, so that {@code errors.tolerance=all} never skips a record
 * past it (Connect tolerates any other exception of a converter or transform, a {@code ConfigException} too), whose
 * message says plainly to fix the URL, naming it without its credentials and what it answered, and logged at ERROR
 * once, not once a record. Under the defaults ({@code errors.tolerance=none}, {@code errors.retry.timeout=0}) it
 * fails the task at once; with {@code errors.retry.timeout=-1} the task waits, and the ERROR line says why. A
 * registry that has answered before and now answers so is an outage: retriable too, without the ERROR line.
 */
class ConnectWrongRegistryUrlTest {
  private static final String SECRET = "s3cret-pw";
  private static final String PROXY_PAGE = "<html><body>No route for this path</body></html>";

  private final MockWebServer server = new MockWebServer();

  @BeforeEach
  void start() throws Exception {
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Every request answered as a proxy or a web server answers a path it does not serve. */
  private void answerEverythingWithAProxyPage() {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return proxyPage();
      }
    });
  }

  private static MockResponse proxyPage() {
    return new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html").body(PROXY_PAGE).build();
  }

  /** The server's URL, with user info as users put it in {@code schema.registry.url}. */
  private String urlWithCredentials() {
    return "http://connect:" + SECRET + "@" + server.getHostName() + ":" + server.getPort();
  }

  private static List<String> errorLines(LogCapture logs) {
    return logs.lines(Level.ERROR);
  }

  /** What the failure says first, whatever the record: the URL is wrong, what it answered, and what Connect does. */
  private String plainly(String setting) {
    return setting + " http://" + server.getHostName() + ":" + server.getPort() + "/ answered HTTP 404: non-JSON "
        + "body (text/html): " + PROXY_PAGE + " and has never answered as a schema registry: fix " + setting
        + "; the task retries while errors.retry.timeout allows, and fails at once with the default "
        + "errors.tolerance=none and errors.retry.timeout=0. The failure: ";
  }

  @Test
  void converter_urlThatNeverAnsweredAsARegistry_retriableSayingFixTheUrl_errorLoggedOnce() {
    answerEverythingWithAProxyPage();
    try (LogCapture logs = new LogCapture(); AvroConverter converter = new AvroConverter()) {
      converter.configure(Map.of("schema.registry.url", urlWithCredentials(), "max.retries", 3,
          "retries.wait.ms", 1), false);

      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> converter.fromConnectData("orders", Schema.STRING_SCHEMA, "x"))
            .isInstanceOf(RetriableException.class)
            .hasMessageStartingWith(plainly("schema.registry.url"))
            .hasMessageContaining("value of topic 'orders'")
            .hasMessageContaining("check that schema.registry.url is the registry's base URL")
            .hasMessageNotContaining(SECRET);
        if (i == 0) {
          assertThat(errorLines(logs)).as("logged at ERROR at once").singleElement().asString()
              .contains("AvroConverter (value side)", "a configuration error", plainly("schema.registry.url"));
        }
        assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1, 2}))
            .isInstanceOf(RetriableException.class)
            .hasMessageStartingWith(plainly("schema.registry.url"))
            .hasMessageContaining("schema id 1")
            .hasMessageNotContaining(SECRET);
      }

      // No retries waited out: a record, written or read, asks the topic's association (the default subject name
      // strategy's first call; a reader for the schema context of the topic's subject), then the core API, which
      // tells the wrong URL.
      assertThat(server.getRequestCount()).as("no retries waited out").isEqualTo(3 * 2 + 3 * 2);
      assertThat(errorLines(logs)).as("once, not once a record").hasSize(1);
      assertThat(logs.lines()).noneMatch(line -> line.contains(SECRET));
    }
  }

  @Test
  void converter_registryThatAnsweredBefore_nowA404_retriable_notLogged() {
    // The registry's own "not found" first: the URL has answered as a registry (a Confluent 8 one, whose topic has
    // no association).
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return request.getTarget().startsWith("/associations/")
            ? new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body("[]").build()
            : new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
                .body("{\"error_code\":40403,\"message\":\"Schema 1 not found\"}").build();
      }
    });
    try (LogCapture logs = new LogCapture(); AvroConverter converter = new AvroConverter()) {
      converter.configure(Map.of("schema.registry.url", urlWithCredentials(), "max.retries", 1,
          "retries.wait.ms", 1), false);
      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1, 2}))
          .isNotInstanceOf(RetriableException.class).hasMessageContaining("does not know this schema id");

      answerEverythingWithAProxyPage();

      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 2, 2}))
          .isInstanceOf(RetriableException.class)
          .hasMessageNotContaining(SECRET);
      assertThatThrownBy(() -> converter.fromConnectData("orders", Schema.STRING_SCHEMA, "x"))
          .isInstanceOf(RetriableException.class);
      assertThat(errorLines(logs)).isEmpty();
    }
  }

  @Test
  void transform_targetUrlThatNeverAnsweredAsARegistry_retriableSayingFixTheUrl_errorLoggedOnce() {
    answerEverythingWithAProxyPage();
    String source = "mock://wrong-url-source-" + UUID.randomUUID();
    org.apache.avro.Schema order = new org.apache.avro.Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
    GenericRecord record = new GenericData.Record(order);
    record.put("id", 1L);
    byte[] written;
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", source), false);
      written = serializer.serialize("orders", record);
    }
    Schema bytes = Schema.OPTIONAL_BYTES_SCHEMA;
    SourceRecord mirrored = new SourceRecord(Map.of(), Map.of(), "src.orders", 0, bytes, null, bytes, written, 1L,
        new ConnectHeaders());
    SchemaIdTranslation<SourceRecord> transform = new SchemaIdTranslation.Value<>();
    try (LogCapture logs = new LogCapture()) {
      transform.configure(Map.of("source.schema.registry.url", source,
          "target.schema.registry.url", urlWithCredentials(), "target.max.retries", 3));

      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> transform.apply(mirrored))
            .isInstanceOf(RetriableException.class)
            .hasMessageStartingWith(plainly("source.schema.registry.url or target.schema.registry.url"))
            .hasMessageContaining("in the target registry")
            .hasMessageNotContaining(SECRET);
      }
      assertThat(errorLines(logs)).as("once, not once a record").singleElement().asString()
          .contains("SchemaIdTranslation (values)", "a configuration error");
    } finally {
      transform.close();
      MockRegistries.drop(source.substring("mock://".length()));
    }
  }

  /**
   * A GUID-framed record read through something that answers the GUID path with an empty 404 (a load balancer in
   * front of a registry whose core API answers): an outage, a Connect {@link RetriableException}, so that
   * {@code errors.tolerance=all} never skips the record; never learned as a missing API.
   */
  @Test
  void converter_guidFramedRecord_empty404ForTheGuid_retriable_notSkipped() {
    java.util.concurrent.atomic.AtomicInteger guidCalls = new java.util.concurrent.atomic.AtomicInteger();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        if (path.startsWith("/schemas/guids/")) {
          guidCalls.incrementAndGet();
          return new MockResponse.Builder().code(404).build();
        }
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
            .body(path.startsWith("/associations/") ? "[]" : "{\"compatibilityLevel\":\"BACKWARD\"}").build();
      }
    });
    byte[] guidFramed = java.nio.ByteBuffer.allocate(io.kavro.serde.WireFormat.GUID_HEADER_SIZE + 1)
        .put(io.kavro.serde.WireFormat.guidPrefix(UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427")))
        .put((byte) 0).array();
    try (AvroConverter converter = new AvroConverter()) {
      converter.configure(Map.of("schema.registry.url", urlWithCredentials(), "max.retries", 1,
          "retries.wait.ms", 1), false);
      for (int record = 1; record <= 2; record++) {
        assertThatThrownBy(() -> converter.toConnectData("orders", guidFramed))
            .isInstanceOf(RetriableException.class)
            .hasMessageNotContaining(SECRET);
        assertThat(guidCalls.get()).as("record " + record + " asks the GUID API").isGreaterThanOrEqualTo(record);
      }
    }
  }
}
