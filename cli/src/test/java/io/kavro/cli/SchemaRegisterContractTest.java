package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 49, item 13: {@code kavro schema register} takes a rule set and metadata ({@code --rule-set FILE},
 * {@code --metadata FILE}, Confluent's JSON), and a registry that drops them (the version read back has none) is an
 * error naming the subject, never a silent loss.
 */
@ExtendWith(KavroStackExtension.class)
class SchemaRegisterContractTest {
  private static final String PERSON = """
      {"type":"record","name":"Person","namespace":"com.acme.contract","fields":[
        {"name":"ssn","type":"string","confluent:tags":["PII"]},{"name":"age","type":"int"}]}""";
  private static final String RULE_SET = """
      {"domainRules": [
        {"name": "adult", "kind": "CONDITION", "mode": "WRITE", "type": "CEL", "expr": "message.age >= 18"}]}""";
  private static final String METADATA = """
      {"properties": {"owner": "team-people"}}""";

  private final TestStack stack;

  @TempDir
  Path dir;

  SchemaRegisterContractTest(TestStack stack) {
    this.stack = stack;
  }

  record Run(int status, String out, String err) {}

  private static Run kavro(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    InputStream original = System.in;
    System.setIn(new ByteArrayInputStream(new byte[0]));
    try {
      int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
      return new Run(status, out.toString(), err.toString());
    } finally {
      System.setIn(original);
    }
  }

  private String[] register(String registryUrl, String subject, String ruleSet, String metadata) throws Exception {
    List<String> args = new ArrayList<>(List.of("schema", "register", "--subject", subject, "--schema",
        Files.writeString(dir.resolve("person.avsc"), PERSON).toString(), "--schema-registry-url", registryUrl));
    if (ruleSet != null) {
      args.addAll(List.of("--rule-set", Files.writeString(dir.resolve("rules.json"), ruleSet).toString()));
    }
    if (metadata != null) {
      args.addAll(List.of("--metadata", Files.writeString(dir.resolve("metadata.json"), metadata).toString()));
    }
    return args.toArray(String[]::new);
  }

  @Test
  void kept_onTheStack_theVersionReadBackHasTheRulesAndMetadata() throws Exception {
    String subject = "people-" + UUID.randomUUID() + "-value";

    Run run = kavro(register(stack.registryUrl(), subject, RULE_SET, METADATA));

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).matches("\\{\"id\":\\d+}\\R");
    int id = Integer.parseInt(run.out().replaceAll("\\D", ""));
    try (SchemaRegistryClient client = SchemaRegistryClients.create(stack.registryConfigs())) {
      DataContract kept = client.contractOf(id);
      assertThat(kept.ruleSet().domainRules()).extracting(Rule::name, Rule::kind, Rule::mode, Rule::expr)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("adult", Rule.Kind.CONDITION, Rule.Mode.WRITE,
              "message.age >= 18"));
      assertThat(kept.metadata().properties()).isEqualTo(Map.of("owner", "team-people"));
      assertThat(client.latestVersion(subject).contract()).isEqualTo(kept);
    }
  }

  @Test
  void dropped_byARegistryThatKeepsNoContracts_isAnErrorNamingTheSubject() throws Exception {
    List<String> requests = new CopyOnWriteArrayList<>();
    HttpServer registry = droppingRegistry(requests);
    try {
      String url = "http://127.0.0.1:" + registry.getAddress().getPort();

      Run run = kavro(register(url, "people-value", RULE_SET, METADATA));

      assertThat(run.status()).isEqualTo(1);
      assertThat(run.err()).startsWith("kavro: the registry dropped the rules and metadata of subject "
          + "'people-value': read back, schema id 1 has no rules and no metadata")
          .contains("register them where they are kept");
      assertThat(run.out()).as("no id printed as if all went well").isEmpty();
      assertThat(requests).anyMatch(r -> r.startsWith("POST /subjects/people-value/versions ")
          && r.contains("\"ruleSet\":{\"domainRules\":[{\"name\":\"adult\""));
      assertThat(requests).as("read back").contains("GET /schemas/ids/1 ");

      requests.clear();
      Run withoutContract = kavro(register(url, "people-value", null, null));
      assertThat(withoutContract.status()).as(withoutContract.err()).isZero();
      assertThat(withoutContract.out()).isEqualTo("{\"id\":1}" + System.lineSeparator());
    } finally {
      registry.stop(0);
    }
  }

  @Test
  void ruleSetOrMetadataNotInConfluentsShape_usageErrorNamingTheFile_nothingSent() throws Exception {
    String url = "http://127.0.0.1:" + KavroCliTest.closedPort();
    Run wholeBody = kavro(register(url, "s", "{\"schema\": \"x\", \"ruleSet\": " + RULE_SET + "}", null));
    assertThat(wholeBody.status()).isEqualTo(2);
    assertThat(wholeBody.err()).contains("--rule-set " + dir.resolve("rules.json"))
        .contains("has the field 'schema', which Confluent's shape does not");

    Run notJson = kavro(register(url, "s", "{\"domainRules\": [", null));
    assertThat(notJson.status()).isEqualTo(2);
    assertThat(notJson.err()).contains("rules.json is not JSON (line 1, column");

    Run noType = kavro(register(url, "s", "{\"domainRules\": [{\"name\": \"adult\", \"expr\": \"secret-ish\"}]}",
        null));
    assertThat(noType.status()).isEqualTo(2);
    assertThat(noType.err()).contains("domainRules[0] must be a rule with a name and a type")
        .doesNotContain("secret-ish");

    Run unknownField = kavro(register(url, "s", null, "{\"properties\": {}, \"owner\": \"x\"}"));
    assertThat(unknownField.status()).isEqualTo(2);
    assertThat(unknownField.err()).contains("--metadata " + dir.resolve("metadata.json")).contains("'owner'");
  }

  /** A registry that, as Apicurio's Confluent API does, registers a schema and keeps nothing of its contract. */
  private static HttpServer droppingRegistry(List<String> requests) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      requests.add(method + " " + path + " " + body);
      int status = 200;
      String answer;
      if (method.equals("POST") && path.endsWith("/versions")) {
        answer = "{\"id\":1}";
      } else if (method.equals("GET") && path.equals("/schemas/ids/1")) {
        answer = "{\"schema\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(PERSON) + "}";
      } else {
        status = 404;
        answer = "{\"error_code\":40401,\"message\":\"Subject not found\"}";
      }
      byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    server.start();
    return server;
  }
}
