package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 49, item 13: the example contract of docs/data-contracts.md, run as the page shows it on the stack that
 * {@code kavro stack} starts (the testkit's: Apicurio, which alone drops rule sets, behind the contract layer).
 * Registered with {@code kavro schema register --rule-set}, its condition refuses the record it forbids (nothing of
 * it is written) and its ENCRYPT rule keeps the tagged field out of the topic in clear.
 */
@ExtendWith(KavroStackExtension.class)
class StackDataContractTest {
  private static final String SECRET = "rule.executors._default_.param.secret=stack-data-contract-test-secret\n";
  private static final String SSN = "123-45-6789";

  private final TestStack stack;

  @TempDir
  Path dir;

  StackDataContractTest(TestStack stack) {
    this.stack = stack;
  }

  record Run(int status, String out, String err) {}

  private Run kavro(String stdin, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    if (args[0].equals("consume") || args[0].equals("produce")) {
      all.addAll(List.of("--bootstrap-server", stack.bootstrapServers()));
    }
    all.addAll(List.of("--schema-registry-url", stack.registryUrl()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    InputStream original = System.in;
    System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    try {
      int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
      return new Run(status, out.toString(), err.toString());
    } finally {
      System.setIn(original);
    }
  }

  /** The page's "typical contract, as registered": the body of {@code POST /subjects/people-value/versions}. */
  private static JsonNode docsExample() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "data-contracts.md"));
    int marker = page.indexOf("A typical contract, as registered");
    assertThat(marker).as("the example's introduction in docs/data-contracts.md").isNotNegative();
    int from = page.indexOf("```json\n", marker) + "```json\n".length();
    return new ObjectMapper().readTree(page.substring(from, page.indexOf("```", from)));
  }

  @Test
  void docsExampleContract_onTheStack_refusesTheForbiddenRecord_andEncryptsThePii() throws Exception {
    JsonNode example = docsExample();
    String topic = "people-" + UUID.randomUUID();
    Path person = Files.writeString(dir.resolve("person.avsc"), example.get("schema").asText());
    Path rules = Files.writeString(dir.resolve("rules.json"), example.get("ruleSet").toString());
    Path secret = Files.writeString(dir.resolve("secret.properties"), SECRET);

    Run registered = kavro("", "schema", "register", "--subject", topic + "-value", "--schema", person.toString(),
        "--rule-set", rules.toString());
    assertThat(registered.status()).as(registered.err()).isZero();

    Run minor = kavro("{\"ssn\": \"" + SSN + "\", \"age\": 17}\n", "produce", "--topic", topic, "--value-schema",
        person.toString(), "--command-config", secret.toString());
    assertThat(minor.status()).as("the record the contract forbids").isEqualTo(1);
    assertThat(minor.err()).contains("line 1 is refused by the subject's data contract: Rule failed: adult")
        .doesNotContain(SSN);

    Run adult = kavro("{\"ssn\": \"" + SSN + "\", \"age\": 30}\n", "produce", "--topic", topic, "--value-schema",
        person.toString(), "--command-config", secret.toString());
    assertThat(adult.status()).as(adult.err()).isZero();

    List<byte[]> onTheTopic = values(topic);
    assertThat(onTheTopic).as("the forbidden record never reached the topic").hasSize(1);
    assertThat(new String(onTheTopic.get(0), StandardCharsets.ISO_8859_1)).as("the PII field is not in clear")
        .doesNotContain(SSN);

    Run read = kavro("", "consume", "--topic", topic, "--from-beginning", "--max-messages", "1",
        "--command-config", secret.toString());
    assertThat(read.status()).as(read.err()).isZero();
    assertThat(read.out().strip()).isEqualTo("{\"ssn\":\"" + SSN + "\",\"age\":30}");
  }

  /** Every value on the topic's partition 0, as bytes. */
  private List<byte[]> values(String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers",
        stack.bootstrapServers()), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      List<byte[]> values = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (values.size() < end && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          values.add(record.value());
        }
      }
      return values;
    }
  }
}
