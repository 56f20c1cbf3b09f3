package io.kavro.registry.internal.cache;

import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.Association;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.TestSchemas;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.dialect.HttpSchemaRegistryClient;
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

  /**
   * A folder of the layout before schema contexts (named by the first 16 hex digits of the registry key's SHA-256)
   * may hold another context's schemas under default-context ids, saved by the old client: it is never read.
   */
  @Test
  void foldersOfTheLayoutBeforeContexts_areNeverRead() throws Exception {
    String registry = "http://registry:8081";
    String oldName = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
        .digest(registry.getBytes(java.nio.charset.StandardCharsets.UTF_8))).substring(0, 16);
    Path saved = savedSeven(registry);
    assertThat(saved.getParent().getFileName().toString()).isNotEqualTo(oldName);
    copyAsEight(saved, dir.resolve(oldName));

    assertThat(new SchemaFileStore(dir, registry).load(8)).as("the old folder's id 8").isNull();
  }

  /**
   * The control of {@link #foldersOfTheLayoutBeforeContexts_areNeverRead}: the same file, copied into the folder
   * of the current layout, is read. So that test's null comes from the folder, not from a copy the store refuses.
   */
  @Test
  void foldersOfTheCurrentLayout_sameCopiedFile_isRead() throws Exception {
    String registry = "http://registry:8081";
    Path saved = savedSeven(registry);
    copyAsEight(saved, saved.getParent());

    assertThat(new SchemaFileStore(dir, registry).load(8)).as("the current folder's id 8").isEqualTo(USER_V1);
  }

  /** The file of id 7 holding USER_V1, saved by a store of {@code registry}. */
  private Path savedSeven(String registry) {
    SchemaFileStore writer = new SchemaFileStore(dir, registry);
    writer.save(7, USER_V1);
    return writer.file(7);
  }

  /** Copies the file of id 7 into {@code folder} as the file of id 8, its id rewritten. */
  private static void copyAsEight(Path seven, Path folder) throws Exception {
    String text = Files.readString(seven);
    assertThat(text).contains("\"id\":7");
    Files.createDirectories(folder);
    Files.writeString(folder.resolve(seven.getFileName().toString().replace("7", "8")),
        text.replace("\"id\":7", "\"id\":8"));
  }

  /**
   * Issue 51: a consumer restarted while the registry is down learns its topics' associations (so their schema
   * contexts) from {@code schema.cache.dir}, as it learns their schemas: the registry's last answer, kept on disk
   * by the first client, read back by a new one. Only as {@code storedAssociations}, which the subject name
   * strategy reads when the registry cannot be reached; {@code associations} itself still fails.
   */
  @Test
  void restartedClient_registryDown_readsTheLastAssociationsAnswerFromDisk() {
    Map<String, Object> config = Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0);
    SchemaFileStore files = new SchemaFileStore(dir, server.url("/").toString());
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body("[{\"subject\":"
        + "\":.a:orders-value\",\"resourceName\":\"orders\",\"resourceNamespace\":\"lkc-1\",\"resourceType\":"
        + "\"topic\",\"associationType\":\"value\"}]").build());
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body("[]").build());
    CachingSchemaRegistryClient first = new CachingSchemaRegistryClient(
        new HttpSchemaRegistryClient(RegistryConfig.from(config)), 10, Duration.ofMinutes(1), files);
    Association toA = new Association(":.a:orders-value", "orders", "lkc-1", "topic", "value");
    assertThat(first.associations("lkc-1", "orders", "topic", "value")).containsExactly(toA);
    assertThat(first.associations("lkc-1", "payments", "topic", "value")).isEmpty();

    for (int i = 0; i < 2; i++) {
      server.enqueue(new MockResponse.Builder().code(503).body("{\"error_code\":50301,\"message\":\"down\"}").build());
    }
    CachingSchemaRegistryClient restarted = new CachingSchemaRegistryClient(
        new HttpSchemaRegistryClient(RegistryConfig.from(config)), 10, Duration.ofMinutes(1), files);
    assertThatThrownBy(() -> restarted.associations("lkc-1", "orders", "topic", "value"))
        .isInstanceOf(RegistryUnavailableException.class);
    assertThat(restarted.storedAssociations("lkc-1", "orders", "topic", "value")).containsExactly(toA);
    assertThat(restarted.storedAssociations("lkc-1", "payments", "topic", "value")).isEmpty();
    assertThat(restarted.storedAssociations("lkc-1", "orders", "topic", "key")).as("never answered").isNull();
    assertThat(restarted.storedAssociations("lkc-2", "orders", "topic", "value")).as("another namespace").isNull();
    assertThat(new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(RegistryConfig.from(config)), 10,
        Duration.ofMinutes(1)).storedAssociations("lkc-1", "orders", "topic", "value")).as("no disk cache").isNull();
  }

  /** The registry's live answer replaces the one kept on disk; a tampered file is never trusted. */
  @Test
  void liveAssociationsAnswer_replacesTheStoredOne_andATamperedFileIsIgnored() throws Exception {
    SchemaFileStore files = new SchemaFileStore(dir, "r");
    Association toA = new Association(":.a:orders-value", "orders", "-", "topic", "value");
    Association toB = new Association(":.b:orders-value", "orders", "-", "topic", "value");
    files.saveAssociations("-", "orders", "topic", "value", java.util.List.of(toA));
    files.saveAssociations("-", "orders", "topic", "value", java.util.List.of(toB));
    assertThat(new SchemaFileStore(dir, "r").loadAssociations("-", "orders", "topic", "value"))
        .containsExactly(toB);

    try (var stored = Files.walk(dir)) {
      Path file = stored.filter(p -> p.getFileName().toString().startsWith("associations-")).findFirst()
          .orElseThrow();
      Files.writeString(file, Files.readString(file).replace(".b", ".c"));
    }
    assertThat(new SchemaFileStore(dir, "r").loadAssociations("-", "orders", "topic", "value")).isNull();
  }

  /** A registry without the API (Apicurio, Confluent before 8.3): its answer is kept as no association. */
  @Test
  void missingApiAnswer_keptAsNoAssociation() {
    SchemaRegistryClient withoutApi = (SchemaRegistryClient) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("associations")) {
            throw new UnsupportedRegistryApiException("no associations API", 404, -1, null, null);
          }
          return null;
        });
    SchemaFileStore files = new SchemaFileStore(dir, "scripted");
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(withoutApi,
        CachePolicy.of(10, Duration.ofMinutes(1)), files);
    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(client.storedAssociations("-", "orders", "topic", "value")).isEmpty();
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
    new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(RegistryConfig.from(config)), 10, Duration.ofMinutes(1),
        files).schemaById(5);

    // A new client (a restarted consumer) while the registry answers 503.
    for (int i = 0; i < 3; i++) {
      server.enqueue(new MockResponse.Builder().code(503).body("{\"error_code\":50301,\"message\":\"down\"}").build());
    }
    CachingSchemaRegistryClient restarted = new CachingSchemaRegistryClient(
        new HttpSchemaRegistryClient(RegistryConfig.from(config)), 10, Duration.ofMinutes(1), files);

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
        new HttpSchemaRegistryClient(RegistryConfig.from(config)), 10, Duration.ofMinutes(1), files);

    assertThatThrownBy(() -> client.schemaById(5)).isInstanceOf(SchemaNotFoundException.class);
  }

  /** Issue 13, item 12: the registry's answer is written over a file that differs from it. */
  @Test
  void registryAnswersDifferently_fileRewritten() {
    ScriptedRegistry scripted = new ScriptedRegistry();
    int id = scripted.registry.register("s", USER_V2);
    SchemaFileStore files = new SchemaFileStore(dir, "scripted");
    files.save(id, USER_V1);

    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(scripted.client(),
        CachePolicy.of(10, Duration.ofMinutes(1)), files);

    assertThat(client.schemaById(id)).isEqualTo(USER_V2);
    assertThat(files.load(id)).isEqualTo(USER_V2);
  }

  /** Issue 13, item 12: a corrupt file is repaired by the next answer of the registry. */
  @Test
  void corruptFile_repairedByTheRegistrysAnswer() throws Exception {
    ScriptedRegistry scripted = new ScriptedRegistry();
    int id = scripted.registry.register("s", USER_V1);
    SchemaFileStore files = new SchemaFileStore(dir, "scripted");
    files.save(id, USER_V1);
    Files.writeString(files.file(id), "{\"id\":" + id + ",\"schema\":\"{\\\"type\\\":\\\"rec");
    assertThat(files.load(id)).isNull();

    new CachingSchemaRegistryClient(scripted.client(), CachePolicy.of(10, Duration.ofMinutes(1)), files)
        .schemaById(id);

    assertThat(files.load(id)).isEqualTo(USER_V1);
  }

  /**
   * Issue 13, item 12: a schema served from disk during an outage is not held for good: once the registry is
   * back, the next read after the recheck period asks it, and its answer replaces memory and disk.
   */
  @Test
  void servedFromDiskDuringOutage_registrysAnswerWinsOnceItIsBack() {
    ScriptedRegistry scripted = new ScriptedRegistry();
    int id = scripted.registry.register("s", USER_V2);
    SchemaFileStore files = new SchemaFileStore(dir, "scripted");
    files.save(id, USER_V1);
    scripted.down = true;
    CachingSchemaRegistryClientTest.FakeTicker ticker = new CachingSchemaRegistryClientTest.FakeTicker();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(scripted.client(),
        CachePolicy.of(10, Duration.ofMinutes(1)), files, ticker, Runnable::run);
    java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
    client.onChange(told::incrementAndGet);

    assertThat(client.schemaById(id)).isEqualTo(USER_V1);
    ticker.advance(CachingSchemaRegistryClient.DISK_RECHECK.plusSeconds(1));
    assertThat(client.schemaById(id)).isEqualTo(USER_V1); // still down: the recheck failed
    scripted.down = false;
    assertThat(client.schemaById(id)).isEqualTo(USER_V1); // not yet due again
    ticker.advance(CachingSchemaRegistryClient.DISK_RECHECK.plusSeconds(1));
    client.schemaById(id); // due: asks the registry (inline here)

    assertThat(client.schemaById(id)).isEqualTo(USER_V2);
    assertThat(files.load(id)).isEqualTo(USER_V2);
    assertThat(client.replacedSchemas()).as("issue 22, item 15: readers learn of the replacement").isEqualTo(1);
    assertThat(told).as("and their listeners are told").hasValue(1);
  }

  /** A schema served from disk that the registry, once back, does not know is forgotten, in memory and on disk. */
  @Test
  void servedFromDisk_registryBackWithoutIt_forgotten() {
    ScriptedRegistry scripted = new ScriptedRegistry();
    SchemaFileStore files = new SchemaFileStore(dir, "scripted");
    files.save(9, USER_V1);
    scripted.down = true;
    CachingSchemaRegistryClientTest.FakeTicker ticker = new CachingSchemaRegistryClientTest.FakeTicker();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(scripted.client(),
        CachePolicy.of(10, Duration.ofMinutes(1)), files, ticker, Runnable::run);
    java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
    client.onChange(told::incrementAndGet);
    assertThat(client.schemaById(9)).isEqualTo(USER_V1);

    scripted.down = false;
    ticker.advance(CachingSchemaRegistryClient.DISK_RECHECK.plusSeconds(1));
    client.schemaById(9);

    assertThatThrownBy(() -> client.schemaById(9)).isInstanceOf(SchemaNotFoundException.class);
    assertThat(files.load(9)).isNull();
    assertThat(client.replacedSchemas()).isEqualTo(1);
    assertThat(told).hasValue(1);
  }

  /**
   * Issue 54: the ids served from disk, each waiting to be asked of the registry again, are bounded as the schemas
   * by id are ({@code max.schemas.per.subject}); an id evicted is read again, from the registry once it is back.
   */
  @Test
  void idsServedFromDisk_boundedByMaxSchemas_evictedIdReadAgain() {
    ScriptedRegistry scripted = new ScriptedRegistry();
    SchemaFileStore files = new SchemaFileStore(dir, "scripted");
    java.util.List<Integer> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      int id = scripted.registry.register("s" + i, TestSchemas.numbered(i));
      files.save(id, TestSchemas.numbered(i));
      ids.add(id);
    }
    scripted.down = true;
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(scripted.client(),
        CachePolicy.of(2, Duration.ofMinutes(1)), files, new CachingSchemaRegistryClientTest.FakeTicker(),
        Runnable::run);

    for (int i = 0; i < ids.size(); i++) {
      assertThat(client.schemaById(ids.get(i))).isEqualTo(TestSchemas.numbered(i));
    }

    assertThat(client.cacheSizes().servedFromDisk()).as("ids served from disk, kept").isEqualTo(2);
    scripted.down = false;
    for (int i = 0; i < ids.size(); i++) {
      assertThat(client.schemaById(ids.get(i))).as("id " + ids.get(i)).isEqualTo(TestSchemas.numbered(i));
    }
    assertThat(client.cacheSizes().servedFromDisk()).isLessThanOrEqualTo(2);
  }
}
