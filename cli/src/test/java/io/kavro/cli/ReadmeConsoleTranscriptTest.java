package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.testkit.LocalStack;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: the console session of docs/console-tool.md runs as written, on a stack of its own (a fresh broker
 * and registry, as the session starts from one), each command's output compared with the printed one; only
 * timestamps and the registry's port may differ.
 */
class ReadmeConsoleTranscriptTest {
  private static LocalStack stack;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    stack = LocalStack.start();
  }

  @AfterAll
  static void stop() {
    stack.close();
  }

  /** One {@code $ kavro ...} line of the page and what it printed. */
  private record Step(String command, List<String> printed) {}

  @Test
  void theReadmesSession_printsWhatTheReadmeShows() throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
          {"name":"note","type":["null","string"],"default":null}]}""");
    Files.writeString(dir.resolve("orders.jsonl"), "{\"id\": 1, \"note\": null}\n{\"id\": 2, \"note\": {\"string\": "
        + "\"rush\"}}\n");
    Files.writeString(dir.resolve("bad.jsonl"), "{\"id\": 1, \"note\": null}\n{\"id\": \"two\", \"note\": null}\n");

    List<Step> steps = session();
    assertThat(steps).hasSizeGreaterThan(10);
    for (Step step : steps) {
      assertThat(run(step.command())).as(step.command()).matches(pattern(step.printed()));
    }
  }

  /** The page's session: the code block after "Output as produced on the local stack". */
  private static List<Step> session() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "console-tool.md"));
    int marker = page.indexOf("Output as produced on the local stack");
    assertThat(marker).as("the session's introduction in docs/console-tool.md").isNotNegative();
    int from = page.indexOf("```\n", marker) + 4;
    List<Step> steps = new ArrayList<>();
    for (String line : page.substring(from, page.indexOf("```", from)).split("\n")) {
      if (line.startsWith("$ kavro ")) {
        steps.add(new Step(line.substring("$ kavro ".length()), new ArrayList<>()));
      } else if (!line.isBlank()) {
        steps.get(steps.size() - 1).printed().add(line);
      }
    }
    return steps;
  }

  /** The printed lines as a pattern: any timestamp, and any port of the registry but the unreachable one's. */
  private static String pattern(List<String> printed) {
    String text = Pattern.quote(String.join("\n", printed));
    return text.replaceAll("\"timestamp\":\\d+", "\\\\E\"timestamp\":\\\\d+\\\\Q")
        .replaceAll("127\\.0\\.0\\.1:(?!1/)\\d+", "\\\\E127\\\\.0\\\\.0\\\\.1:\\\\d+\\\\Q");
  }

  /** Runs one command as the page shows it, with the stack's broker and registry unless it names its own. */
  private String run(String command) throws Exception {
    List<String> args = new ArrayList<>();
    String stdin = "";
    Matcher words = Pattern.compile("\"([^\"]*)\"|<\\s*(\\S+)|(\\S+)").matcher(command);
    while (words.find()) {
      if (words.group(2) != null) {
        stdin = Files.readString(dir.resolve(words.group(2)));
      } else {
        String word = words.group(1) != null ? words.group(1) : words.group(3);
        args.add(word.endsWith(".avsc") ? dir.resolve(word).toString() : word);
      }
    }
    if (!args.contains("--schema-registry-url")) {
      args.addAll(List.of("--schema-registry-url", stack.registryUrl()));
    } else if (args.contains("http://127.0.0.1:1")) {
      // the unreachable registry's step: the same attempts and line, without the backoff's waits (3.5 s on average)
      args.addAll(List.of("--property", "retries.wait.ms=0"));
    }
    if ((args.get(0).equals("consume") || args.get(0).equals("produce")) && !args.contains("--bootstrap-server")) {
      args.addAll(List.of("--bootstrap-server", stack.bootstrapServers()));
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    InputStream original = System.in;
    System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    try {
      Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    } finally {
      System.setIn(original);
    }
    return (out.toString() + err.toString()).strip();
  }
}
