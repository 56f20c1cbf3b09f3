package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The claim of docs/data-contracts.md ("Confluent's CEL functions"), executed: Confluent's JavaScript client
 * (1.10.1, tests/js-peer) lets a {@code CONDITION} rule that calls one of Confluent's Java-only CEL functions
 * ({@code isEmail} etc.) pass whatever the value, through {@code peer.js serialize}, the client's own
 * {@code AvroSerializer} with the subject's latest version and its rule set. The control: a condition it can
 * evaluate refuses the same record, so its rules do run. Kavro, as Confluent's Java serde, refuses the record
 * ({@code CelExecutorTest.condition_confluentsStringChecks}).
 *
 * <p>A pin canary of the JS client, as {@link JsCelFunctionsTest}: a JS release that adds the functions fails it,
 * and the docs are to be read again.
 */
class JsCelRuleSerializeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOPIC = "contacts";
  private static final String SCHEMA = """
      {"type":"record","name":"Contact","namespace":"io.kavro.peer","fields":[{"name":"email","type":"string"}]}""";
  private static final String NOT_AN_EMAIL = "{\"email\":\"not an email\"}";

  private final MockWebServer server = new MockWebServer();
  private final List<String> unexpected = new CopyOnWriteArrayList<>();
  private volatile String expr;
  private String url;

  /** One subject whose latest version carries a rule set of one WRITE condition, {@link #expr}. */
  private final class LatestWithRule extends Dispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest request) {
      List<String> path = request.getUrl().pathSegments();
      if (request.getMethod().equals("GET") && path.equals(List.of("subjects", TOPIC + "-value", "versions",
          "latest"))) {
        ObjectNode version = JSON.createObjectNode().put("subject", TOPIC + "-value").put("version", 1)
            .put("id", 1).put("schema", SCHEMA);
        version.putObject("ruleSet").putArray("domainRules").addObject().put("name", "checkContact")
            .put("kind", "CONDITION").put("mode", "WRITE").put("type", "CEL").put("expr", expr)
            .put("onFailure", "ERROR");
        return new MockResponse.Builder().setHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
            .body(version.toString()).build();
      }
      unexpected.add(request.getMethod() + " " + request.getTarget());
      return new MockResponse.Builder().code(404).setHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
          .body("{\"error_code\":40401,\"message\":\"Subject not found\"}").build();
    }
  }

  @BeforeEach
  void start() throws Exception {
    server.setDispatcher(new LatestWithRule());
    server.start();
    url = server.url("/").toString();
    url = url.substring(0, url.length() - 1);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private JsPeer.Run serialize(JsPeer peer, String rule, String record) throws Exception {
    expr = rule;
    return peer.run("serialize", url, TOPIC, record);
  }

  @Test
  void jsClient_passesAConditionOnConfluentsJavaOnlyFunctions_whateverTheValue() throws Exception {
    JsPeer peer = JsPeer.require();

    JsPeer.Run control = serialize(peer, "message.email.startsWith('a')", NOT_AN_EMAIL);
    assertThat(control.exitCode()).as("the JS client runs the rule set: " + control).isEqualTo(1);
    assertThat(control.stderr()).contains("rule checkContact failed");

    for (String function : List.of("isEmail", "isHostname", "isIpv4", "isIpv6", "isUri", "isUriRef", "isUuid")) {
      JsPeer.Run run = serialize(peer, "message.email." + function + "()", NOT_AN_EMAIL);
      assertThat(run.exitCode()).as(function + " in the JS client: " + run).isZero();
      byte[] bytes = Base64.getDecoder().decode(run.line());
      assertThat(bytes[0]).as("magic byte").isZero();
      assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)).contains("not an email");
    }
    assertThat(unexpected).as("calls the double does not answer").isEmpty();
  }
}
