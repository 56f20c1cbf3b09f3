package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * Registers schema text as another tool would, with the JDK's HTTP client and no Kavro code: exact text, and
 * Confluent's schema references when given.
 */
final class RawRegistry {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String url;

  RawRegistry(String registryUrl) {
    this.url = registryUrl;
  }

  /** Registers {@code schemaText} under {@code subject} and returns its id. */
  int register(String subject, String schemaText) throws Exception {
    return register(subject, JSON.createObjectNode().put("schema", schemaText));
  }

  /** Registers {@code schemaText}, which names types of the given subjects' version 1, and returns its id. */
  int registerReferencing(String subject, String schemaText, String... typeNameThenSubject) throws Exception {
    ObjectNode body = JSON.createObjectNode().put("schema", schemaText);
    var references = body.putArray("references");
    for (int i = 0; i < typeNameThenSubject.length; i += 2) {
      references.addObject().put("name", typeNameThenSubject[i]).put("subject", typeNameThenSubject[i + 1])
          .put("version", 1);
    }
    return register(subject, body);
  }

  /**
   * Stores {@code schemaText} under {@code subject} through Apicurio's own API, which takes a schema that its
   * Confluent-compatible API refuses to parse (an invalid default, say), and returns the id that the
   * Confluent-compatible API gives it.
   */
  int storeInApicurio(String subject, String schemaText) throws Exception {
    String apicurioApi = url.replace("/apis/ccompat/v7", "/apis/registry/v2");
    HttpResponse<String> stored = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            apicurioApi + "/groups/default/artifacts"))
        .header("Content-Type", "application/json")
        .header("X-Registry-ArtifactType", "AVRO")
        .header("X-Registry-ArtifactId", subject)
        .POST(HttpRequest.BodyPublishers.ofString(schemaText)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    HttpResponse<String> latest = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        url + "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions/latest")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(latest.statusCode()).as(latest.body()).isEqualTo(200);
    return JSON.readTree(latest.body()).get("id").asInt();
  }

  private int register(String subject, ObjectNode body) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            url + "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions"))
        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).get("id").asInt();
  }
}
