package io.kavro.registry.internal.cache;

import static io.kavro.registry.TestSchemas.ORDER;
import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.internal.http.JsonBodies;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Issue 54: the caches of schema contexts are bounded by {@code schema.registry.contexts.cache.size}: contexts come
 * from the registry's answers and from a strategy per topic, so their number is the data's. An evicted context's
 * cache is made again, and asks the registry again: id 1 of context {@code .a} is never served for id 1 of {@code .b}.
 */
class ContextCachesBoundTest {
  @StartStop
  final MockWebServer server = new MockWebServer();

  /** Id 1 is ORDER in context .a, USER_V1 in .b, USER_V2 in the default one and every other. */
  private final AtomicInteger asked = new AtomicInteger();

  private SchemaRegistryClient client(int contexts) {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        asked.incrementAndGet();
        String context = request.getUrl().queryParameter("subject");
        Schema schema = ":.a:".equals(context) ? ORDER : ":.b:".equals(context) ? USER_V1 : USER_V2;
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
            .body("{\"schema\":" + JsonBodies.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(
                schema.toString())) + "}").build();
      }
    });
    return SchemaRegistryClients.create(Map.of("schema.registry.url", server.url("/reg").toString(),
        "max.retries", 0, "schema.registry.contexts.cache.size", contexts));
  }

  @Test
  void contextsCaches_boundedByTheSetting() {
    try (SchemaRegistryClient client = client(2)) {
      for (int i = 0; i < 8; i++) {
        assertThat(client.inContext("c" + i).schemaById(1)).isEqualTo(USER_V2);
      }
      assertThat(((CachingSchemaRegistryClient) client).cachedContexts()).hasSize(2);
    }
  }

  @Test
  void anEvictedContext_madeAgain_answersItsOwnSchemaOfAnId() {
    try (SchemaRegistryClient client = client(1)) {
      SchemaRegistryClient first = client.inContext("a");
      for (int round = 0; round < 4; round++) {
        assertThat(client.inContext("a").schemaById(1)).as("round %d, .a", round).isEqualTo(ORDER);
        assertThat(client.inContext("b").schemaById(1)).as("round %d, .b", round).isEqualTo(USER_V1);
        assertThat(client.schemaById(1)).as("round %d, default", round).isEqualTo(USER_V2);
        assertThat(((CachingSchemaRegistryClient) client).cachedContexts()).hasSizeLessThanOrEqualTo(1);
      }
      assertThat(asked.get()).as("an evicted context's id is asked again").isGreaterThan(3);
      assertThat(first.schemaById(1)).as("a context's cache held past its eviction still reads").isEqualTo(ORDER);
    }
  }
}
