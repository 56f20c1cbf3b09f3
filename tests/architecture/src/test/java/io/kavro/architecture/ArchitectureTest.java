package io.kavro.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering of Kavro's modules, read from their main sources: what each may import, and which of its types
 * its internal packages may show. Kafka loads plugins from the class path, where a {@code module-info} hides
 * nothing, so this test is what keeps internals internal: a new import across a layer, or a new public type in an
 * {@code internal} package, fails here with the file and the line. Every product module of the root pom is
 * covered: a new one fails here until it is given its root package (or shown to have no Java sources).
 */
class ArchitectureTest {
  /** The checkout's root, from this module's folder {@code tests/architecture}. */
  private static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+)(?:\\.\\*)?;", Pattern.MULTILINE);

  /**
   * The product modules with Java sources, and the root package of each one's own code. kavro-serde-kafka3 is
   * kavro-serde rebuilt with two stand-ins of its own, in the serde's packages.
   */
  private static final Map<String, String> MODULES = Map.ofEntries(
      Map.entry("registry-http", "io.kavro.registry"),
      Map.entry("schema-tools", "io.kavro.schematools"),
      Map.entry("serde", "io.kavro.serde"),
      Map.entry("rules", "io.kavro.rules"),
      Map.entry("kms/aws", "io.kavro.kms.aws"),
      Map.entry("kms/azure", "io.kavro.kms.azure"),
      Map.entry("kms/gcp", "io.kavro.kms.gcp"),
      Map.entry("kms/hcvault", "io.kavro.kms.hcvault"),
      Map.entry("connect", "io.kavro.connect"),
      Map.entry("serde-kafka3", "io.kavro.serde"),
      Map.entry("cli", "io.kavro.cli"),
      Map.entry("maven-plugin", "io.kavro.maven"),
      Map.entry("testkit", "io.kavro.testkit"),
      Map.entry("examples", "io.kavro.examples"),
      Map.entry("benchmarks", "io.kavro.bench"));

  /** The product modules without Java sources: connect-plugin assembles the others' jars, kavro-bom is a pom alone. */
  private static final Set<String> WITHOUT_SOURCES = Set.of("connect-plugin", "bom");

  /** The modules built on Kavro as its users are, which may use its public API only. */
  private static final Set<String> ON_THE_PUBLIC_API = Set.of("rules", "kms/aws", "kms/azure", "kms/gcp", "kms/hcvault",
      "schema-tools", "cli",
      "maven-plugin", "testkit", "examples", "benchmarks");

  /** The root pom's folder of test suites and fixtures, which are no product. */
  private static final String TESTS = "tests";

  /**
   * The public types of internal packages. The implementation of a module lives package-private beside the public
   * types that use it, as Caffeine's does; an internal package holds only what another jar needs public. A type
   * added here needs that reason.
   */
  private static final Set<String> PUBLIC_INTERNALS = Set.of(
      // kavro-serde-kafka3: where its shading relocates Kafka's KIP-877 interfaces, so public as theirs are.
      "io.kavro.serde.internal.kip877.Monitorable",
      "io.kavro.serde.internal.kip877.PluginMetrics");

  /**
   * The serde's Avro plumbing and compiled codecs, package-private in {@code io.kavro.serde} beside the engines:
   * data models, the bounded decoder, the output buffer, the encoders and decoders and their compilers.
   */
  private static final Set<String> SERDE_PLUMBING = Set.of("AvroDataModels", "AvroFeatures", "BoundedBinaryDecoder",
      "ByteSink", "DatumSchemas", "JavaRecordConstructionException", "JavaRecordReader", "JavaValues", "LocalClasses",
      "CompiledDecoder", "CompiledEncoder", "DecoderCompiler", "EncoderCompiler", "JavaTypes", "Unsupported",
      "SinkEncoder", "DeclaredConversions");

  /**
   * The registry client's implementation, package-private in {@code io.kavro.registry} beside the factory that
   * builds it: the HTTP transport, the caches, the schema rules and the in-memory registry of {@code mock://}.
   */
  private static final Set<String> REGISTRY_IMPLEMENTATION = Set.of("CachePolicy", "CachingSchemaRegistryClient",
      "CallerLoads", "SchemaFileStore", "SchemaKeyedCache", "ClientTls", "Endpoint", "ErrorMapping",
      "HttpSchemaRegistryClient", "JsonBodies", "OAuthTokenSource", "OptionalApi", "PemKeys", "RegisteredSchemaParser",
      "RestRequest", "RestTransport", "RetryPolicy", "Urls", "CompatibilityReasons", "ContractJson",
      "HeldSchemaParser", "ReferencedTypes", "SchemaDefaults", "SchemaTextLimits", "InMemorySchemaRegistry",
      "HttpDekRegistry", "CachingDekRegistry", "InMemoryDekRegistry");

  /** The serde's rule engine, package-private beside the engines that run it. */
  private static final Set<String> SERDE_RULES = Set.of("RuleEngine", "RuleSettings", "RulePlan", "BuiltInActions",
      "WriteRules", "ReadRules", "EncryptionBypassLog", "RuleMetrics");

  /** A string or character literal, or a comment: text that names no type in the code. */
  private static final Pattern NOT_CODE = Pattern.compile(
      "\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|/\\*[\\s\\S]*?\\*/|//[^\n]*");
  private static final Pattern TYPE_NAME = Pattern.compile("\\b[A-Z]\\w*\\b");

  /** One import of one main source file. */
  private record Import(String module, Path file, String packageName, String imported) {
    @Override
    public String toString() {
      return ROOT.relativize(file) + " imports " + imported;
    }
  }

  @Test
  void everyProductModule_isChecked() {
    Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(read(ROOT.resolve("pom.xml")));
    Set<String> products = new TreeSet<>();
    while (module.find()) {
      products.add(module.group(1));
    }
    assertThat(products).as("the root pom's modules").contains(TESTS);
    products.remove(TESTS);

    assertThat(products).as("product modules, each with its root package or without sources")
        .containsExactlyInAnyOrderElementsOf(union(MODULES.keySet(), WITHOUT_SOURCES));
    for (String without : WITHOUT_SOURCES) {
      assertThat(ROOT.resolve(without).resolve("src/main/java")).as("Java sources of " + without).doesNotExist();
    }
  }

  @Test
  void theRegistryClient_knowsNothingOfKafkaOrOfTheSerde() {
    assertThat(imports("registry-http", i -> i.imported().startsWith("org.apache.kafka")
        || i.imported().startsWith("io.kavro.") && !i.imported().startsWith("io.kavro.registry"))).isEmpty();
  }

  /** The tools' schema files sit on the registry client's public API, and on nothing else of Kavro's. */
  @Test
  void theSchemaTools_knowTheRegistryClientOnly() {
    assertThat(imports("schema-tools", i -> i.imported().startsWith("io.kavro.")
        && !i.imported().startsWith("io.kavro.registry.") && !i.imported().startsWith("io.kavro.schematools.")))
        .isEmpty();
  }

  @Test
  void connect_goesThroughTheSerde_neverTheRegistry() {
    // The one exception: the constructor that takes the application's client, as Confluent's converter has.
    assertThat(imports("connect", i -> i.imported().startsWith("io.kavro.registry")
        && !i.imported().equals("io.kavro.registry.SchemaRegistryClient"))).isEmpty();
  }

  /**
   * The implementation beside the public types stays package-private: none of it is declared public, so that no
   * user, and no sibling module, can name it.
   */
  @Test
  void theImplementation_isPackagePrivate() {
    Map<Path, Set<String>> implementation = Map.of(ROOT.resolve("serde/src/main/java/io/kavro/serde"),
        union(SERDE_PLUMBING, SERDE_RULES),
        ROOT.resolve("registry-http/src/main/java/io/kavro/registry"), REGISTRY_IMPLEMENTATION);
    List<String> open = new ArrayList<>();
    implementation.forEach((folder, types) -> {
      for (String type : types) {
        Path file = folder.resolve(type + ".java");
        assertThat(file).as("the implementation type " + type).isRegularFile();
        if (Pattern.compile("^public ", Pattern.MULTILINE).matcher(read(file)).find()) {
          open.add(ROOT.relativize(file).toString());
        }
      }
    });
    assertThat(open).as("public implementation types").isEmpty();
  }

  /**
   * The Avro plumbing and the compiled codecs know no engine. They share the engines' package so that they can be
   * package-private, but their code names none of its other types (no engine, planner, router, setting, exception
   * or wire format) and imports nothing of Kavro's (no framing, metrics or subject naming).
   */
  @Test
  void thePlumbingAndTheCodecs_knowNoEngine() {
    Path serde = ROOT.resolve("serde/src/main/java/io/kavro/serde");
    Set<String> serdeTypes = new TreeSet<>();
    try (Stream<Path> files = Files.list(serde)) {
      files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".java"))
          .forEach(name -> serdeTypes.add(name.replace(".java", "")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(serdeTypes).as("the types of io.kavro.serde").containsAll(SERDE_PLUMBING);
    List<String> named = new ArrayList<>();
    for (String plumbing : new TreeSet<>(SERDE_PLUMBING)) {
      Matcher type = TYPE_NAME.matcher(NOT_CODE.matcher(read(serde.resolve(plumbing + ".java"))).replaceAll(" "));
      while (type.find()) {
        if (serdeTypes.contains(type.group()) && !SERDE_PLUMBING.contains(type.group())) {
          named.add(plumbing + " names " + type.group());
        }
      }
    }
    assertThat(named).isEmpty();
    assertThat(imports("serde", i -> SERDE_PLUMBING.contains(i.file().getFileName().toString().replace(".java", ""))
        && i.packageName().equals("io.kavro.serde") && i.imported().startsWith("io.kavro."))).isEmpty();
  }

  /**
   * One framing concept: the framing package knows no engine (of the serde it names only the wire format and the
   * exceptions), and the engines and routers read or write no id bytes themselves, so that a record's walk enters
   * the framing once.
   */
  @Test
  void theFraming_knowsNoEngine_andTheEnginesReachIdsOnlyThroughIt() {
    Set<String> allowed = Set.of("io.kavro.serde.WireFormat", "io.kavro.serde.MalformedPayloadException",
        "io.kavro.serde.UnsupportedFramingException");
    assertThat(imports("serde", i -> i.packageName().equals("io.kavro.serde.framing")
        && i.imported().startsWith("io.kavro.serde.") && !i.imported().startsWith("io.kavro.serde.framing.")
        && !allowed.contains(i.imported()))).isEmpty();
    for (String engine : List.of("DeserializerEngine", "SerializerEngine", "ReadRouter", "WriteRouter")) {
      Path file = ROOT.resolve("serde/src/main/java/io/kavro/serde/" + engine + ".java");
      assertThat(read(file)).as(engine + " reads or writes no id bytes itself").doesNotContain("WireFormat.");
    }
  }

  @Test
  void noModule_importsAnotherModulesInternals_orTheExamples() {
    List<Import> crossing = new ArrayList<>();
    for (Map.Entry<String, String> module : MODULES.entrySet()) {
      crossing.addAll(imports(module.getKey(), i -> i.imported().startsWith("io.kavro.")
          && i.imported().contains(".internal.") && !i.imported().startsWith(module.getValue() + ".")
          || i.imported().startsWith("io.kavro.examples") && !module.getKey().equals("examples")));
    }
    assertThat(crossing).isEmpty();
  }

  @Test
  void theToolsBenchmarksAndExamples_useThePublicApiOnly() {
    List<Import> internal = new ArrayList<>();
    for (String module : ON_THE_PUBLIC_API) {
      internal.addAll(imports(module, i -> i.imported().startsWith("io.kavro.")
          && i.imported().contains(".internal.")));
    }
    assertThat(internal).isEmpty();
  }

  @Test
  void serdeKafka3_holdsTheKip877StandInsOnly_importingNoKavro() {
    for (Path file : sources("serde-kafka3")) {
      assertThat(packageOf(read(file))).as(ROOT.relativize(file).toString())
          .isEqualTo("io.kavro.serde.internal.kip877");
    }
    assertThat(imports("serde-kafka3", i -> i.imported().startsWith("io.kavro."))).isEmpty();
  }

  @Test
  void internalPackages_showNoNewPublicType() {
    Set<String> publicInternals = new TreeSet<>();
    for (String module : MODULES.keySet()) {
      for (Path file : sources(module)) {
        String text = read(file);
        String name = packageOf(text) + "." + file.getFileName().toString().replace(".java", "");
        if (name.contains(".internal.") && Pattern.compile("^public (final |abstract )?(class|interface|record|enum) ",
            Pattern.MULTILINE).matcher(text).find()) {
          publicInternals.add(name);
        }
      }
    }
    assertThat(publicInternals).as("public types in internal packages").isSubsetOf(PUBLIC_INTERNALS);
  }

  private static List<Import> imports(String module, Predicate<Import> forbidden) {
    List<Import> found = new ArrayList<>();
    for (Path file : sources(module)) {
      String text = read(file);
      String packageName = packageOf(text);
      Matcher matcher = IMPORT.matcher(text);
      while (matcher.find()) {
        Import i = new Import(module, file, packageName, matcher.group(1));
        if (forbidden.test(i)) {
          found.add(i);
        }
      }
    }
    return found;
  }

  private static List<Path> sources(String module) {
    Path main = ROOT.resolve(module).resolve("src/main/java");
    assertThat(main).as("the sources of module " + module).isDirectory();
    try (Stream<Path> files = Files.walk(main)) {
      return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> both = new TreeSet<>(a);
    both.addAll(b);
    return both;
  }

  private static String packageOf(String source) {
    Matcher matcher = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE).matcher(source);
    return matcher.find() ? matcher.group(1) : "";
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
