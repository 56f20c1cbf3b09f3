package io.kavro.registry.internal.dialect;

import mockwebserver3.MockResponse;

/**
 * Answers that the registry client's HTTP tests serve: a registry's own, and the foreign ones (a proxy's page, a load
 * balancer's empty 404, an API gateway's JSON, a login page) that are no registry's answer, so an outage, never a
 * missing API. One place for them, so that every test of an optional API serves the same ones.
 */
final class RegistryAnswers {
  /** Kong's JSON 404 for a path it routes nowhere: JSON, but no registry's. */
  static final String GATEWAY_NOT_FOUND = "{\"message\":\"no Route matched with those values\"}";

  /**
   * Redpanda's JSON 404 for a path its schema registry does not serve (Seastar's HTTP server's,
   * redpanda-data/redpanda#21426): its own answer, as {@code application/json}.
   */
  static final String REDPANDA_NOT_FOUND = "{\"message\": \"Not found\", \"code\": 404}";

  private RegistryAnswers() {}

  static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  /** The core API's answer ({@code GET /config}): the URL leads to a registry. */
  static MockResponse config() {
    return json(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
  }

  /**
   * Confluent's (Jersey's) JSON 404 for a path it does not serve: {@code error_code} 404, none of the registry's own
   * 404xx "not found" codes. What a Confluent registry without an optional API answers for it.
   */
  static MockResponse confluentPathNotServed() {
    return json(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}");
  }

  /** Redpanda's answer for a path it does not serve: what a Redpanda registry without an optional API answers. */
  static MockResponse redpandaPathNotServed() {
    return json(404, REDPANDA_NOT_FOUND);
  }

  /** A 404 whose body is {@code body}, as JSON, or without a body when it is empty (a load balancer's, Envoy's). */
  static MockResponse bare404(String body) {
    MockResponse.Builder answer = new MockResponse.Builder().code(404);
    if (!body.isEmpty()) {
      answer.setHeader("Content-Type", "application/json").body(body);
    }
    return answer.build();
  }

  /** A 404 without a body: a load balancer's from a URL of Confluent's kind; Apicurio 3's on its own URL. */
  static MockResponse empty404() {
    return bare404("");
  }

  /** A proxy's HTML 404 page. */
  static MockResponse proxyPage() {
    return new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
        .body("<html><body><h1>404 Not Found</h1>nginx</body></html>").build();
  }

  /** A login page's 200 (a proxy that wants a session first): a success without JSON. */
  static MockResponse loginPage() {
    return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body("<html><body>Sign in</body></html>").build();
  }
}
