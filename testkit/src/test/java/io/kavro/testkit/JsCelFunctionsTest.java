package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Confluent's CEL string checks (issue 51, item 5) in Confluent's JavaScript client, through {@code peer.js cel},
 * which evaluates an expression with the client's own {@code CelExecutor}. Each row is Confluent's Java answer (as
 * {@code kavro-rules}' StringChecksTest has it): where the JS client has the function, it must give that answer.
 * The pinned client (1.10.1) has none of them: a call is CEL's "unbound function" error, which its serde does not
 * count as a failed condition. A pin that gains some fails the last check: then its answers are compared here, and
 * docs/data-contracts.md says so. The same for {@code timestamp.of}, the variable {@code now} and the decimals.
 *
 * <p>A pin canary, not a test of Kavro: it never calls Kavro's code, so no Kavro regression can fail it. It fails
 * when the pinned JS client changes what it answers, so that Kavro's interoperability notes are checked again.
 */
class JsCelFunctionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Row(String function, String input, boolean confluentJava) {}

  private static final List<Row> ROWS = List.of(
      new Row("isEmail", "a@b.com", true), new Row("isEmail", "a.@b.com", false),
      new Row("isHostname", "localhost", true), new Row("isHostname", "a".repeat(256), false),
      new Row("isIpv4", "127.0.0.1", true), new Row("isIpv4", "01.2.3.4", false),
      new Row("isIpv6", "::1", true), new Row("isIpv6", "1::2::3", false),
      new Row("isUri", "http://example.org:8080/example.html", true), new Row("isUri", "//example.com", false),
      new Row("isUriRef", "/abc", true), new Row("isUriRef", "12 34", false),
      new Row("isUuid", "fa02a430-892f-4160-97cd-6e3d1bc14494", true), new Row("isUuid", "97cd-6e3d1bc14494", false));

  /** The JS client's answer to each expression, {@code message.s} being its value: one node process for all. */
  private static List<JsonNode> cel(JsPeer peer, List<Map.Entry<String, String>> exprAndValue) throws Exception {
    List<String> args = new ArrayList<>(List.of("cel"));
    for (Map.Entry<String, String> row : exprAndValue) {
      args.add(row.getKey());
      args.add(JSON.writeValueAsString(Map.of("s", row.getValue())));
    }
    String[] lines = peer.run(args.toArray(String[]::new)).line().split("\n");
    assertThat(lines).as("a line per expression").hasSize(exprAndValue.size());
    List<JsonNode> answers = new ArrayList<>();
    for (String line : lines) {
      answers.add(JSON.readTree(line));
    }
    return answers;
  }

  @Test
  void confluentsStringChecks_inTheJsClient_giveConfluentsAnswerOrAreUnbound() throws Exception {
    JsPeer peer = JsPeer.require();
    List<Map.Entry<String, String>> calls = new ArrayList<>();
    calls.add(Map.entry("message.s.startsWith('a') && message.s.size() == 7", "a@b.com"));
    ROWS.forEach(row -> calls.add(Map.entry("message.s." + row.function() + "()", row.input())));
    List<JsonNode> answers = cel(peer, calls);
    assertThat(answers.get(0).get("value").asBoolean()).as("the peer evaluates CEL").isTrue();
    Set<String> unbound = new LinkedHashSet<>();
    for (int i = 0; i < ROWS.size(); i++) {
      Row row = ROWS.get(i);
      JsonNode answer = answers.get(i + 1);
      if (answer.has("value")) {
        assertThat(answer.get("value").isBoolean() && answer.get("value").asBoolean() == row.confluentJava())
            .as("'%s'.%s() in the JS client: %s", row.input(), row.function(), answer).isTrue();
      } else {
        assertThat(answer.get("celError").asText()).isEqualTo("unbound function: " + row.function());
        assertThat(answer.get("conditionFails").asBoolean()).as("a CONDITION on it passes in the JS client").isFalse();
        unbound.add(row.function());
      }
    }
    assertThat(unbound).as("the functions the pinned JS client lacks (docs/data-contracts.md)")
        .containsExactly("isEmail", "isHostname", "isIpv4", "isIpv6", "isUri", "isUriRef", "isUuid");
  }

  /** Confluent's timestamp.of, now and decimals: true in Confluent's Java serde (and Kavro); the JS client's answer. */
  @Test
  void timestampOfNowAndDecimals_inTheJsClient_trueOrUnbound() throws Exception {
    JsPeer peer = JsPeer.require();
    Map<String, String> pinnedErrors = Map.of(
        "timestamp.of(1, 'millis') == timestamp('1970-01-01T00:00:00.001Z')", "unbound function: of",
        "timestamp.of('1970-01-01T01:00:00+01:00') == timestamp('1970-01-01T00:00:00Z')", "unbound function: of",
        "now > timestamp('2020-01-01T00:00:00Z')", "unresolved attribute",
        "decimals.lt(decimal('1.5'), decimal('2'))", "unbound function: lt",
        "string(decimals.div(decimal('1'), decimal('8'))) == '0.125'", "unbound function: div");
    List<Map.Entry<String, String>> rows = List.copyOf(pinnedErrors.entrySet());
    List<JsonNode> answers = cel(peer, rows.stream().map(row -> Map.entry(row.getKey(), "")).toList());
    for (int i = 0; i < rows.size(); i++) {
      Map.Entry<String, String> row = rows.get(i);
      JsonNode answer = answers.get(i);
      if (answer.has("value")) {
        assertThat(answer.get("value").asBoolean()).as("%s in the JS client: %s", row.getKey(), answer).isTrue();
      } else {
        assertThat(answer.get("celError").asText()).as(row.getKey()).isEqualTo(row.getValue());
        assertThat(answer.get("conditionFails").asBoolean()).isFalse();
      }
    }
  }
}
