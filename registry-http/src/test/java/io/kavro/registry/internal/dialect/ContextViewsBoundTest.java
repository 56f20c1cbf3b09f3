package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.config.RegistryConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 54: the HTTP client keeps at most {@code schema.registry.contexts.cache.size} contexts' views. */
class ContextViewsBoundTest {
  @Test
  void contextViews_boundedByTheSetting() {
    try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(RegistryConfig.from(Map.of(
        "schema.registry.url", "http://127.0.0.1:9/reg", "schema.registry.contexts.cache.size", 3)))) {
      for (int i = 0; i < 10; i++) {
        assertThat(client.inContext("c" + i)).isNotSameAs(client);
      }
      assertThat(client.contextViews()).hasSize(3);
    }
  }
}
