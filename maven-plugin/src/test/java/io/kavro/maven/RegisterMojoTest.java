package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code register} against Kavro's in-memory registry ({@code mock://}), which keeps data contracts. */
class RegisterMojoTest {
  private static final String ORDER = """
      {"type": "record", "name": "Order", "namespace": "com.acme",
       "fields": [{"name": "id", "type": "string"}]}""";
  private static final String SHIPMENT = """
      {"type": "record", "name": "Shipment", "namespace": "com.acme",
       "fields": [{"name": "id", "type": "string"}]}""";

  @TempDir
  Path dir;

  private final String scope = "register-" + UUID.randomUUID();
  private MockRegistry registry;
  private final RecordingLog log = new RecordingLog();

  @BeforeEach
  void setUp() throws IOException {
    registry = MockRegistries.scope(scope);
    Files.writeString(dir.resolve("order.avsc"), ORDER);
    Files.writeString(dir.resolve("shipment.avsc"), SHIPMENT);
  }

  @AfterEach
  void tearDown() {
    MockRegistries.drop(scope);
  }

  private RegisterMojo mojo() {
    RegisterMojo mojo = new RegisterMojo();
    mojo.setLog(log);
    mojo.basedir = dir.toFile();
    mojo.schemaRegistryUrls = List.of("mock://" + scope);
    Map<String, File> subjects = new LinkedHashMap<>();
    subjects.put("orders-value", new File("order.avsc"));
    subjects.put("shipments-value", new File("shipment.avsc"));
    mojo.subjects = subjects;
    mojo.decodeSubject = true;
    return mojo;
  }

  private static Metadata metadata() {
    Metadata metadata = new Metadata();
    metadata.properties = Map.of("owner", "payments");
    TagNames pii = new TagNames();
    pii.add("PII");
    metadata.tags = Map.of("_x2A_x2A.id", pii);
    metadata.sensitive = Set.of("owner");
    return metadata;
  }

  private static RuleSet rules(String kind) {
    Rule rule = new Rule();
    rule.name = "checkId";
    rule.type = "CEL";
    rule.kind = kind;
    rule.expr = "message.id != ''";
    RuleSet rules = new RuleSet();
    rules.domainRules = List.of(rule);
    return rules;
  }

  @Test
  void run_metadataAndRules_areRegisteredWithTheSchema_tagPathsDecoded() throws Exception {
    RegisterMojo mojo = mojo();
    mojo.metadata = Map.of("orders-value", metadata());
    mojo.ruleSet = Map.of("orders-value", rules("CONDITION"));

    mojo.execute();

    SubjectVersion orders = registry.latestVersion("orders-value");
    DataContract kept = registry.contractOf(orders.id());
    assertThat(kept.metadata().properties()).containsEntry("owner", "payments");
    assertThat(kept.metadata().tags()).containsEntry("**.id", Set.of("PII"));
    assertThat(kept.metadata().sensitive()).containsExactly("owner");
    assertThat(kept.ruleSet().domainRules()).singleElement().satisfies(rule -> {
      assertThat(rule.name()).isEqualTo("checkId");
      assertThat(rule.kind()).isEqualTo(io.kavro.registry.contract.Rule.Kind.CONDITION);
      assertThat(rule.mode()).isEqualTo(io.kavro.registry.contract.Rule.Mode.WRITEREAD);
    });
    assertThat(registry.contractOf(registry.latestVersion("shipments-value").id())).isEqualTo(DataContract.NONE);
    assertThat(log.lines()).anySatisfy(line -> assertThat(line).startsWith("INFO Registered subject 'orders-value'")
        .endsWith("with metadata (properties [owner], tags [**.id], sensitive [owner]) and rules [checkId]"));
    assertThat(log.lines()).noneMatch(line -> line.startsWith("WARN"));
  }

  @Test
  void run_badRuleOfTheLastSubject_failsBeforeAnySubjectIsRegistered() {
    RegisterMojo mojo = mojo();
    mojo.metadata = Map.of("orders-value", metadata());
    mojo.ruleSet = Map.of("shipments-value", rules("VALIDATE"));

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessage("<ruleSet> of subject 'shipments-value', domainRules: rule 'checkId' has kind 'VALIDATE'; one of "
            + "[TRANSFORM, CONDITION]; nothing was registered");
    assertThat(registry.subjects()).isEmpty();
  }

  @Test
  void run_metadataOfASubjectNotInSubjects_failsBeforeRegistering() {
    RegisterMojo mojo = mojo();
    mojo.metadata = Map.of("order-value", metadata());

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<metadata> names subject 'order-value', which is not in <subjects>");
    assertThat(registry.subjects()).isEmpty();
  }

  @Test
  void run_tagPathWithoutTags_failsNamingThePath() {
    RegisterMojo mojo = mojo();
    Metadata metadata = new Metadata();
    metadata.tags = Map.of("_x2A_x2A.id", new TagNames());
    mojo.metadata = Map.of("orders-value", metadata);

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<metadata> of subject 'orders-value': <tags> gives field path '**.id' no tag");
  }

  /** Review of issue 49, item 10: a bad escape in a tag's field path did not say it was in <metadata>, <tags>. */
  @Test
  void run_tagPathEscapeThatIsNoText_failsNamingMetadataAndTags() {
    RegisterMojo mojo = mojo();
    Metadata metadata = new Metadata();
    TagNames pii = new TagNames();
    pii.add("PII");
    metadata.tags = Map.of("_xfe.ssn", pii);
    mojo.metadata = Map.of("orders-value", metadata);

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<metadata> of subject 'orders-value': <tags>: element <_xfe.ssn>: its escape _xfe")
        .hasMessageEndingWith("; nothing was registered");
    assertThat(registry.subjects()).isEmpty();
  }

  /** A bad escape in a key of <metadata> failed the build with a bare IllegalArgumentException. */
  @Test
  void run_metadataKeyEscapeThatIsNoText_failsNamingMetadata() {
    RegisterMojo mojo = mojo();
    mojo.metadata = Map.of("acct_xfer-value", metadata());

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<metadata>: element <acct_xfer-value>: its escape _xfe")
        .hasMessageEndingWith("; nothing was registered");
    assertThat(registry.subjects()).isEmpty();
  }

  @Test
  void run_referencedSubjectRefused_skipsTheSubjectThatReferencesIt_namingWhy() throws Exception {
    registry.setCompatibility("orders-value", CompatibilityLevel.BACKWARD);
    registry.register("orders-value", new Schema.Parser().parse(ORDER));
    Files.writeString(dir.resolve("order-v2.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "id", "type": "string"}, {"name": "priority", "type": "int"}]}""");
    Files.writeString(dir.resolve("audit.avsc"), """
        {"type": "record", "name": "Audit", "namespace": "com.acme",
         "fields": [{"name": "order", "type": "Order"}]}""");
    RegisterMojo mojo = mojo();
    mojo.subjects = Map.of("audits-value", new File("audit.avsc"), "orders-value", new File("order-v2.avsc"));
    References references = new References();
    references.addReference(new Reference("com.acme.Order", "orders-value", null));
    mojo.references = Map.of("audits-value", references);

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("register failed for 2 of 2 subject(s)")
        .hasMessageContaining("subject 'orders-value' (order-v2.avsc) is incompatible")
        .hasMessageContaining("subject 'audits-value' (audit.avsc) was not registered: its reference com.acme.Order "
            + "names subject 'orders-value', which failed");
    assertThat(registry.subjects()).containsExactly("orders-value");
  }

  @Test
  void run_schemaAndMetadataOfAnOlderVersion_printsThatVersion_notTheLatestWithTheSameSchema() throws Exception {
    Schema order = new Schema.Parser().parse(ORDER);
    DataContract payments = new DataContract(metadata().toContract("orders-value", SubjectEscapes::decode),
        io.kavro.registry.contract.RuleSet.EMPTY);
    int first = registry.register("orders-value", order, List.of(), payments);
    registry.register("orders-value", order, List.of(), new DataContract(new io.kavro.registry.contract.Metadata(
        Map.of(), Map.of("owner", "billing"), Set.of()), io.kavro.registry.contract.RuleSet.EMPTY));
    RegisterMojo mojo = mojo();
    mojo.subjects = Map.of("orders-value", new File("order.avsc"));
    mojo.metadata = Map.of("orders-value", metadata());

    mojo.execute();

    assertThat(registry.versions("orders-value")).containsExactly(1, 2);
    assertThat(log.lines()).anySatisfy(line -> assertThat(line)
        .startsWith("INFO Registered subject 'orders-value' (order.avsc): version 1, id " + first + ","));
  }

  @Test
  void run_subjectEscapeThatIsNoText_failsNamingTheElement_andRegistersNothing() {
    // Issue 49, item 10: '_xfe' decoded to the byte 0xFE, which became U+FFFD in the subject sent.
    RegisterMojo mojo = mojo();
    Map<String, File> subjects = new LinkedHashMap<>();
    subjects.put("orders-value", new File("order.avsc"));
    subjects.put("acct_xfer-value", new File("shipment.avsc"));
    mojo.subjects = subjects;

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("element <acct_xfer-value>: its escape _xfe");
    assertThat(registry.subjects()).isEmpty();
  }
}
