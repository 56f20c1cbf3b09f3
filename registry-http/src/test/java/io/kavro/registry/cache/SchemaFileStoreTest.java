package io.kavro.registry.cache;

import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryConfig;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.http.HttpSchemaRegistryClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaFileStoreTest {
  @TempDir
  Path dir;

  @StartStop
  final MockWebServer server = new MockWebServer();

  @Test
  void saveThenLoad_sameSchema() {
    SchemaFileStore store = new SchemaFileStore(dir, "http://registry:8081");
    store.save(7, USER_V1);

    assertThat(new SchemaFileStore(dir, "http://registry:8081").load(7)).isEqualTo(USER_V1);
    assertThat(store.load(8)).isNull();
  }

  @Test
  void otherRegistry_doesNotSeeTheseIds() {
    new SchemaFileStore(dir, "http://a:8081").save(7, USER_V1);

    assertThat(new SchemaFileStore(dir, "http://b:8081").load(7)).isNull();
  }

  @Test
  void corruptPartialOrTamperedFiles_ignored() throws Exception {
    SchemaFileStore store = new SchemaFileStore(dir, "r");
    store.save(1, USER_V1);
    store.save(2, USER_V1);
    store.save(3, USER_V1);
    Files.writeString(store.file(1), "{\"id\":1,\"schema\":\"{\\\"type\\\":\\\"rec");
    Files.writeString(store.file(2), Files.readString(store.file(2)).replace("User", "Resu"));
    Files.move(store.file(3), store.file(4));

    assertThat(store.load(1)).isNull();
    assertThat(store.load(2)).isNull();
    assertThat(store.load(4)).isNull();
  }

  @Test
  void writes_leaveNoTemporaryFiles() throws Exception {
    SchemaFileStore store = new SchemaFileStore(dir, "r");
    store.save(1, USER_V1);
    store.save(2, USER_V2);

    try (var files = Files.walk(dir)) {
      assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("1.json", "2.json");
    }
  }

  @Test
  void restartedClient_registryDown_readsKnownIdsFromDisk() {
    String schema = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.textNode(USER_V1.toString()).toString();
    server.enqueue(new MockResponse.Builder().body("{\"schema\":" + schema + "}").build());
    Map<String, Object> config = Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0);
    SchemaFileStore files = new SchemaFileStore(dir, server.url("/").toString());
    new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(new RegistryConfig(config)), 10, Duration.ofMinutes(1),
        files).schemaById(5);

    // A new client (a restarted consumer) while the registry answers 503.
    for (int i = 0; i < 3; i++) {
      server.enqueue(new MockResponse.Builder().code(503).body("{\"error_code\":50301,\"message\":\"down\"}").build());
    }
    CachingSchemaRegistryClient restarted = new CachingSchemaRegistryClient(
        new HttpSchemaRegistryClient(new RegistryConfig(config)), 10, Duration.ofMinutes(1), files);

    assertThat(restarted.schemaById(5)).isEqualTo(USER_V1);
    assertThatThrownBy(() -> restarted.schemaById(6)).isInstanceOf(RegistryUnavailableException.class);
  }

  @Test
  void registryUp_answersWinOverDisk_andNotFoundIsNotMaskedByDisk() {
    SchemaFileStore files = new SchemaFileStore(dir, server.url("/").toString());
    files.save(5, USER_V2);
    server.enqueue(new MockResponse.Builder().code(404).body("{\"error_code\":40403,\"message\":\"no\"}").build());
    Map<String, Object> config = Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0);
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(
        new HttpSchemaRegistryClient(new RegistryConfig(config)), 10, Duration.ofMinutes(1), files);

    assertThatThrownBy(() -> client.schemaById(5)).isInstanceOf(SchemaNotFoundException.class);
  }
}
