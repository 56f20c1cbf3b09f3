package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 49, item 10: a base URL of Apicurio's own API ({@code /apis/registry/v3}) answered 404 at the core API, and
 * the advice appended {@code /apis/ccompat/v7} to it ({@code /apis/registry/v3/apis/ccompat/v7}). The advice now
 * puts the Confluent-compatible API in its place, Apicurio 2's likewise, a path before {@code /apis} kept.
 */
class ApicurioUrlAdviceTest {
  @StartStop
  final MockWebServer server = new MockWebServer();

  @ParameterizedTest
  @CsvSource({
      "/apis/registry/v3, /apis/ccompat/v7",
      "/apis/registry/v3/, /apis/ccompat/v7",
      "/apis/registry/v2, /apis/ccompat/v7",
      "/registry/apis/registry/v3, /registry/apis/ccompat/v7",
      "/, /apis/ccompat/v7",
      "/wrong, /wrong/apis/ccompat/v7"})
  void wrongBaseUrl_advisesApicuriosCompatibleApi_inPlaceOfItsOwn(String base, String advised) {
    server.enqueue(new MockResponse.Builder().code(404).build());
    HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(RegistryConfig.from(Map.of(
        "schema.registry.url", server.url(base).toString(), "max.retries", 0)));

    assertThatThrownBy(() -> client.schemaById(1)).isExactlyInstanceOf(WrongRegistryUrlException.class)
        .hasMessageContaining("(for Apicurio: " + server.url(advised) + ")")
        .hasMessageNotContaining("registry/v3/apis").hasMessageNotContaining("registry/v2/apis");
  }
}
