package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.Association;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.subject.AssociatedNameStrategy;
import io.kavro.serde.subject.TopicNameStrategy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.ClusterResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 51, item 1: the default subject name strategy is Confluent 8.3's, {@code AssociatedNameStrategy}: the
 * serializer writes under the subject the registry associates with the topic, and, where the registry has no
 * associations API (Apicurio's answer, as its ccompat API gives it) or the topic has none, under
 * {@code <topic>-value} as before, asking once; a proxy's 404 is an outage, retriable, never another subject.
 */
class AssociatedSubjectsTest {
  private static final Schema ORDER = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Order\","
      + "\"namespace\":\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}");

  private final Serdes serdes = new Serdes();
  private final MockWebServer server = new MockWebServer();
  private final List<String> calls = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    serdes.close();
    server.close();
  }

  private static GenericRecord order(long id) {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", id);
    return order;
  }

  @Test
  void defaultStrategy_isAssociated_inKavrosAndConfluentsName() {
    AvroSerdeConfig config = new AvroSerdeConfig(serdes.config(), false);
    assertThat(config.subjectNameStrategy()).isInstanceOf(AssociatedNameStrategy.class);
    assertThat(new AvroSerdeConfig(serdes.config("value.subject.name.strategy",
        "io.confluent.kafka.serializers.subject.AssociatedNameStrategy"), false).subjectNameStrategy())
        .isInstanceOf(AssociatedNameStrategy.class);
    assertThat(new AvroSerdeConfig(serdes.config("value.subject.name.strategy", "TopicNameStrategy"), false)
        .subjectNameStrategy()).as("pinned").isInstanceOf(TopicNameStrategy.class);
  }

  /**
   * mock:// keeps associations, so that users' tests can use them. The topic is associated in two clusters: the
   * cluster id the producer tells ({@code onUpdate}) chooses (under "-", any cluster, there would be two).
   */
  @Test
  void mockRegistry_associatedSubject_writtenUnder_andReadBack() {
    MockRegistries.scope(serdes.scope).associate(new Association("orders-contract", "orders", "lkc-1", "topic",
        "value"));
    MockRegistries.scope(serdes.scope).associate(new Association("orders-elsewhere", "orders", "lkc-2", "topic",
        "value"));
    try (KafkaAvroSerializer serializer = serdes.serializer();
        KafkaAvroDeserializer deserializer = serdes.deserializer()) {
      serializer.onUpdate(new ClusterResource("lkc-1"));
      deserializer.onUpdate(new ClusterResource("lkc-1")); // as its consumer does, before the first record
      byte[] first = serializer.serialize("orders", order(1));
      long warm = serdes.registryRequests();
      serializer.serialize("orders", order(2));

      assertThat(serdes.registryRequests()).as("no registry call once warm").isEqualTo(warm);
      assertThat(serdes.registry().subjects()).containsExactly("orders-contract");
      assertThat(deserializer.deserialize("orders", first)).isEqualTo(order(1));
    }
  }

  @Test
  void mockRegistry_noAssociation_topicSubjects_asBefore() {
    try (KafkaAvroSerializer serializer = serdes.serializer(); KafkaAvroSerializer keys = serdes.keySerializer()) {
      serializer.serialize("orders", order(1));
      keys.serialize("orders", order(1));
    }
    assertThat(serdes.registry().subjects()).containsExactlyInAnyOrder("orders-value", "orders-key");
  }

  /** Answers as Apicurio 2.6's ccompat API does: its JSON 404 for {@code /associations}, the core API as usual. */
  private void apicurio(MockResponse associationsAnswer) throws Exception {
    registryAt("/apis/ccompat/v7", associationsAnswer);
  }

  /** A registry at {@code base} answering {@code associationsAnswer} for {@code /associations}. */
  private void registryAt(String base, MockResponse associationsAnswer) throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getTarget().replaceFirst("\\?.*", "");
        calls.add(request.getMethod() + " " + path);
        if (path.startsWith(base + "/associations/")) {
          return associationsAnswer;
        }
        String call = request.getMethod() + " " + path.substring(base.length());
        return switch (call) {
          case "POST /subjects/orders-value/versions" -> json(200, "{\"id\":7}");
          case "GET /config" -> json(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
          default -> json(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        };
      }
    });
    server.start();
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  @Test
  void apicurio_noAssociationsApi_topicSubject_askedOnce() throws Exception {
    // Apicurio 2.6.13's answer (error_code 0), as BareApicurioRegistryContractTest sees it.
    apicurio(json(404, "{\"message\":\"RESTEASY003210: Could not find resource for full path: "
        + "http://127.0.0.1/apis/ccompat/v7/associations/resources/-/orders?resourceType=topic&associationType=value"
        + "\",\"error_code\":0,\"name\":\"NotFoundException\"}"));
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", server.url("/apis/ccompat/v7").toString()), false);
      byte[] bytes = serializer.serialize("orders", order(1));
      serializer.serialize("orders", order(2));
      serializer.serialize("orders", order(3));

      assertThat(bytes).startsWith(0, 0, 0, 0, 7);
    }
    assertThat(calls).containsExactly("GET /apis/ccompat/v7/associations/resources/-/orders",
        "GET /apis/ccompat/v7/config", "POST /apis/ccompat/v7/subjects/orders-value/versions");
  }

  /**
   * Issue 51, 404 classification: a proxy's or load balancer's 404 on the associations path of a URL of Confluent's
   * kind (an empty body, a gateway's JSON without Confluent's error code) fails the record retriably and registers
   * nothing: never the topic's subject in its place.
   */
  @ParameterizedTest
  @ValueSource(strings = {"", "{\"message\":\"no Route matched with those values\"}"})
  void confluentUrl_proxysBare404_onAssociations_retriable_nothingRegistered(String body) throws Exception {
    MockResponse.Builder answer = new MockResponse.Builder().code(404);
    if (!body.isEmpty()) {
      answer.setHeader("Content-Type", "application/json").body(body);
    }
    registryAt("", answer.build());
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0), false);

      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> serializer.serialize("orders", order(1)))
            .isInstanceOf(RetriableSerdeException.class)
            .hasCauseInstanceOf(RegistryUnavailableException.class)
            .hasStackTraceContaining("not a registry's own answer");
      }
    }
    assertThat(calls).noneMatch(call -> call.startsWith("POST"));
  }

  /** Confluent's own answer for a path it does not serve (a registry before 8.3): the topic's subject, asked once. */
  @Test
  void confluentBefore83_noAssociationsApi_topicSubject_askedOnce() throws Exception {
    registryAt("", json(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}"));
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", server.url("/").toString()), false);
      serializer.serialize("orders", order(1));
      serializer.serialize("orders", order(2));
    }
    assertThat(calls).containsExactly("GET /associations/resources/-/orders", "GET /config",
        "POST /subjects/orders-value/versions");
  }

  /** A proxy's HTML 404 on the associations path: retriable, nothing registered under any subject. */
  @Test
  void proxyNotFound_onAssociations_retriable_nothingRegistered() throws Exception {
    apicurio(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
        .body("<html><body><h1>404 Not Found</h1>nginx</body></html>").build());
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", server.url("/apis/ccompat/v7").toString(),
          "max.retries", 0), false);

      assertThatThrownBy(() -> serializer.serialize("orders", order(1)))
          .isInstanceOf(RetriableSerdeException.class)
          .hasMessageContaining("value of topic 'orders'")
          .hasMessageContaining("the subject name strategy could not choose the subject")
          .hasCauseInstanceOf(RegistryUnavailableException.class);
    }
    assertThat(calls).noneMatch(call -> call.startsWith("POST"));
  }
}
