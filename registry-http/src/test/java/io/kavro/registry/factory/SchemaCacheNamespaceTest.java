package io.kavro.registry.factory;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.ApicurioId;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.cache.SchemaFileStore;
import io.kavro.registry.internal.schema.SchemaTextLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, item 9: the disk schema cache is one per registry namespace, not per URL: another logical cluster,
 * identity pool, header or principal on the same URL has a cache of its own, so that no tenant is ever served
 * another's schema for an id. Files pass the registry path's limits.
 */
class SchemaCacheNamespaceTest {
  private static final Schema MINE = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Mine\",\"fields\":[]}");

  @TempDir
  Path dir;

  private static RegistryConfig config(Object... keyValues) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", "https://registry.example:8081");
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    return RegistryConfig.from(config);
  }

  @Test
  void tenantsOfOneUrl_separateCaches_sameSettingsShareOne() {
    RegistryConfig plain = config();
    RegistryConfig clusterA = config("bearer.auth.credentials.source", "STATIC_TOKEN", "bearer.auth.token", "t",
        "bearer.auth.logical.cluster", "lsrc-a");
    RegistryConfig clusterB = config("bearer.auth.credentials.source", "STATIC_TOKEN", "bearer.auth.token", "t",
        "bearer.auth.logical.cluster", "lsrc-b");
    RegistryConfig header = config("request.header.X-Tenant", "payments");
    RegistryConfig alice = config("basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "alice:pw");
    RegistryConfig bob = config("basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "bob:pw");
    RegistryConfig otherToken = config("bearer.auth.credentials.source", "STATIC_TOKEN", "bearer.auth.token", "u",
        "bearer.auth.logical.cluster", "lsrc-a");

    java.util.List<String> keys = java.util.stream.Stream.of(plain, clusterA, clusterB, header, alice, bob,
        otherToken).map(SchemaRegistryClients::namespace).toList();

    assertThat(keys).doesNotHaveDuplicates();
    assertThat(SchemaRegistryClients.namespace(config("request.header.X-Tenant", "payments")))
        .isEqualTo(SchemaRegistryClients.namespace(header));
    assertThat(String.join(" ", keys)).doesNotContain("pw").doesNotContain("|token:t|").doesNotContain("|token:u");

    SchemaFileStore a = new SchemaFileStore(dir, SchemaRegistryClients.namespace(clusterA));
    a.save(1, MINE);
    assertThat(new SchemaFileStore(dir, SchemaRegistryClients.namespace(clusterB)).load(1)).isNull();
    assertThat(new SchemaFileStore(dir, SchemaRegistryClients.namespace(clusterA)).load(1)).isEqualTo(MINE);
  }

  @Test
  void fileOverTheRegistrysLimits_ignored() throws Exception {
    SchemaFileStore store = new SchemaFileStore(dir, "k");
    store.save(2, MINE);
    Path file;
    try (var files = Files.walk(dir)) {
      file = files.filter(p -> p.getFileName().toString().startsWith("2.")).findFirst().orElseThrow();
    }
    // Arrays of arrays, one level deeper than the limit: valid Avro, which Avro itself would parse.
    int levels = SchemaTextLimits.MAX_JSON_DEPTH + 1;
    String deep = "{\"type\":\"array\",\"items\":".repeat(levels) + "\"int\"" + "}".repeat(levels);
    assertThat(new Schema.Parser().parse(deep).getType()).isEqualTo(Schema.Type.ARRAY);
    String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
        .digest(deep.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    Files.writeString(file, "{\"id\":2,\"schema\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(deep)
        + ",\"sha256\":\"" + sha + "\"}");

    assertThat(store.load(2)).isNull();
  }

  private static String record(String name) {
    return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"}]}";
  }

  private static final java.util.UUID GUID_7 = new java.util.UUID(0, 7);
  private static final ApicurioId GLOBAL_7 = new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 7);
  private static final ApicurioId CONTENT_7 = new ApicurioId(ApicurioId.Kind.CONTENT_ID, 7);

  /**
   * Issue 33, item 7: schemas fetched by Apicurio global id, by Apicurio content id and by GUID are kept on disk as
   * Confluent ids are, each kind apart (all four numbered 7 here: Apicurio 7s, Confluent 7 and the GUID ...0007),
   * and in the registry namespace's own cache: a restarted client decodes them while the registry answers 503.
   */
  @Test
  void apicurioIdsAndGuids_keptOnDisk_eachKindApart_perRegistry() {
    java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
    Map<String, String> answers = Map.of(
        "/apis/registry/v3/ids/globalIds/7?references=DEREFERENCE", record("Global"),
        "/apis/registry/v3/ids/contentIds/7", record("Content"),
        "/apis/ccompat/v7/schemas/guids/00000000-0000-0000-0000-000000000007",
        "{\"schema\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(record("ByGuid")) + "}",
        "/apis/ccompat/v7/schemas/ids/7",
        "{\"schema\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(record("Confluent")) + "}");
    server.setDispatcher(new mockwebserver3.Dispatcher() {
      @Override
      public mockwebserver3.MockResponse dispatch(mockwebserver3.RecordedRequest request) {
        String body = answers.get(request.getTarget());
        return down.get() || body == null
            ? new mockwebserver3.MockResponse.Builder().code(503).body("{\"error_code\":50301,\"message\":\"down\"}")
                .build()
            : new mockwebserver3.MockResponse.Builder().setHeader("Content-Type", "application/json").body(body).build();
      }
    });
    Map<String, Object> settings = new HashMap<>(Map.of("schema.registry.url",
        server.url("/apis/ccompat/v7").toString(), "max.retries", 0, "schema.cache.dir", dir.toString()));
    try (SchemaRegistryClient first = SchemaRegistryClients.create(RegistryConfig.from(settings))) {
      first.schemaByApicurioId(GLOBAL_7);
      first.schemaByApicurioId(CONTENT_7);
      first.schemaByGuid(GUID_7);
      first.schemaById(7);
    }

    down.set(true);
    try (SchemaRegistryClient restarted = SchemaRegistryClients.create(RegistryConfig.from(settings))) {
      assertThat(restarted.schemaByApicurioId(GLOBAL_7).getFullName()).isEqualTo("Global");
      assertThat(restarted.schemaByApicurioId(CONTENT_7).getFullName()).isEqualTo("Content");
      assertThat(restarted.schemaByGuid(GUID_7).getFullName()).isEqualTo("ByGuid");
      assertThat(restarted.schemaById(7).getFullName()).isEqualTo("Confluent");
      assertThat(restarted.stats().caches().get("schemas-by-id").staleServes()).isEqualTo(4);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> restarted.schemaByApicurioId(
          new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 8))).isInstanceOf(RegistryUnavailableException.class);
    }

    settings.put("request.header.X-Tenant", "payments");
    try (SchemaRegistryClient otherTenant = SchemaRegistryClients.create(RegistryConfig.from(settings))) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> otherTenant.schemaByApicurioId(GLOBAL_7))
          .isInstanceOf(RegistryUnavailableException.class);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> otherTenant.schemaByApicurioId(CONTENT_7))
          .isInstanceOf(RegistryUnavailableException.class);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> otherTenant.schemaByGuid(GUID_7))
          .isInstanceOf(RegistryUnavailableException.class);
    }
  }

  @mockwebserver3.junit5.StartStop
  final mockwebserver3.MockWebServer server = new mockwebserver3.MockWebServer();
}
