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

  private int register(String subject, ObjectNode body) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            url + "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions"))
        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).get("id").asInt();
  }
}
