package io.kavro.registry;

import static org.assertj.core.api.Assertions.assertThat;

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
}
