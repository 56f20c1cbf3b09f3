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
  /** A non-static wildcard import of Kavro's: it names no type, and what it brings in is read by no rule. */
  private static final Pattern KAVRO_WILDCARD = Pattern.compile(
      "^import (io\\.kavro\\.[\\w.]*)\\*;", Pattern.MULTILINE);
  /** A fully qualified name of a Kavro type written out in code: its package and its (outermost) simple name. */
  private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])(io\\.kavro(?:\\.[a-z]\\w*)+)\\.([A-Z]\\w*)");

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
      Map.entry("examples/spring-boot", "io.kavro.examples.springboot"),
      Map.entry("benchmarks", "io.kavro.bench"));

  /** The product modules without Java sources: connect-plugin assembles the others' jars, kavro-bom is a pom alone. */
  private static final Set<String> WITHOUT_SOURCES = Set.of("connect-plugin", "bom");

  /** The modules built on Kavro as its users are, which may use its public API only. */
  private static final Set<String> ON_THE_PUBLIC_API = Set.of("rules", "kms/aws", "kms/azure", "kms/gcp", "kms/hcvault",
      "schema-tools", "cli",
      "maven-plugin", "testkit", "examples", "examples/spring-boot", "benchmarks");

  /** The root pom's folder of test suites and fixtures, which are no product. */
  private static final String TESTS = "tests";

  /**
   * Every product module's public types, one line each ({@code module type}): a new public type, or one gone, is a
   * decision, as a new member is for the API baseline. {@link #everyModulesPublicTypes_areThePinnedOnes} says how
   * to update it.
   */
  private static final Path PUBLIC_TYPES = ROOT.resolve("tests/architecture/src/test/resources/public-types.txt");

  /** The system property that rewrites {@link #PUBLIC_TYPES} from the sources instead of checking it. */
  private static final String UPDATE_PUBLIC_TYPES = "kavro.updatePublicTypes";

  /**
   * The serde's Avro plumbing and compiled codecs, package-private in {@code io.kavro.serde} beside the engines:
   * data models, the bounded decoder, the output buffer, the encoders and decoders and their compilers.
   */
  private static final Set<String> SERDE_PLUMBING = Set.of("AvroDataModels", "AvroFeatures", "BoundedBinaryDecoder",
      "ByteSink", "DatumSchemas", "JavaRecordConstructionException", "JavaRecordReader", "JavaValues", "LocalClasses",
      "CompiledDecoder", "CompiledEncoder", "DecoderCompiler", "EncoderCompiler", "JavaTypes", "Unsupported",
      "SinkEncoder", "DeclaredConversions", "LeafDecoders", "SpunClassFile", "SpunWriter", "ClassFileWriter",
      "SpunReader", "SpunReaderClassFile", "GeneratedSetters");

  /**
   * The in-memory registry of {@code mock://}, package-private beside the scopes that hold it: the rest of the
   * registry client's implementation is in its {@code internal} packages, which the descriptor does not export.
   */
  private static final Set<String> REGISTRY_MOCK_IMPLEMENTATION = Set.of("InMemorySchemaRegistry",
      "InMemoryDekRegistry");

  /**
   * The registry client's packages in their layer order, top first: each may use only those below it. The entry
   * points that build the implementation have their own package at the top; the client's interface, its values and
   * exceptions ({@code registry}) sit below the implementation. docs/modules-and-tests.md draws the graph.
   */
  private static final List<String> REGISTRY_LAYERS = List.of(
      "registry.factory",
      "registry.mock",
      "registry.internal.cache",
      "registry.internal.dialect",
      "registry.internal.auth",
      "registry.internal.http",
      "registry.internal.schema",
      "registry",
      "registry.contract",
      "registry.config");

  /** The most source files (package-info included) that one package of the registry client holds. */
  private static final int REGISTRY_PACKAGE_MAX_FILES = 26;

  /** The page whose Mermaid block draws the registry's package graph, between these two lines. */
  private static final Path ARCHITECTURE_PAGE = ROOT.resolve("docs/modules-and-tests.md");
  private static final String GRAPH_START = "<!-- registry-graph: checked by ArchitectureTest -->";
  private static final String GRAPH_END = "<!-- /registry-graph -->";

  /** The serde's rule engine, package-private beside the engines that run it. */
  private static final Set<String> SERDE_RULES = Set.of("RuleEngine", "RuleSettings", "RulePlan", "BuiltInActions",
      "WriteRules", "ReadRules", "EncryptionBypassLog", "RuleMetrics");

  /** A string or character literal, or a comment: text that names no type in the code. */
  private static final Pattern NOT_CODE = Pattern.compile("\"\"\"[\\s\\S]*?\"\"\"|"
      + "\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|/\\*[\\s\\S]*?\\*/|//[^\n]*");
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
   * user, and no sibling module, can name it. (The registry client's own implementation is in packages its
   * descriptor does not export: {@link #unexportedPackages_areUsedOnlyByTheModulesTheyAreExportedTo}.)
   */
  @Test
  void theImplementation_isPackagePrivate() {
    Map<Path, Set<String>> implementation = Map.of(ROOT.resolve("serde/src/main/java/io/kavro/serde"),
        union(SERDE_PLUMBING, SERDE_RULES),
        ROOT.resolve("registry-http/src/main/java/io/kavro/registry/mock"), REGISTRY_MOCK_IMPLEMENTATION);
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
   * or wire format) and imports nothing of Kavro's (no framing, metrics or subject naming) beyond the JDK-only
   * internals the serde's packages share.
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
        && i.packageName().equals("io.kavro.serde") && i.imported().startsWith("io.kavro.")
        // the shared internals use the JDK only: no engine behind them
        && !i.imported().startsWith("io.kavro.serde.internal."))).isEmpty();
  }

  /**
   * One framing concept: the framing package knows no engine (of the serde it names only the wire format and the
   * exceptions), and the engines and routers read or write no id bytes themselves, so that a record's walk enters
   * the framing once.
   */
  @Test
  void theFraming_knowsNoEngine_andTheEnginesReachIdsOnlyThroughIt() {
    Set<String> allowed = Set.of("io.kavro.serde.WireFormat", "io.kavro.serde.MalformedPayloadException",
        "io.kavro.serde.UnsupportedFramingException", "io.kavro.serde.SchemaResolutionException");
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
          && !grantedByQualifiedExport(i)
          || i.imported().startsWith("io.kavro.examples") && !module.getKey().equals("examples")
          && !i.imported().startsWith(module.getValue() + ".")));
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

  /**
   * No module imports Kavro's types by wildcard: such an import names no type, so a reader cannot see what is used.
   * (The rules above still count it as a use of the whole package.)
   */
  @Test
  void noModule_importsKavroByWildcard() {
    List<String> wildcards = new ArrayList<>();
    for (String module : new TreeSet<>(MODULES.keySet())) {
      for (Path file : sources(module)) {
        Matcher wildcard = KAVRO_WILDCARD.matcher(NOT_CODE.matcher(read(file)).replaceAll(" "));
        while (wildcard.find()) {
          wildcards.add(ROOT.relativize(file) + " imports " + wildcard.group(1) + "*");
        }
      }
    }
    assertThat(wildcards).isEmpty();
  }

  /**
   * Each module's public types are the pinned ones. A public type is a promise (in an exported package, to users;
   * in an internal one, to the other packages of its module), so one added or gone fails here until the list says
   * so, as a new member fails the API baseline.
   */
  @Test
  void everyModulesPublicTypes_areThePinnedOnes() throws IOException {
    List<String> found = new ArrayList<>();
    for (String module : new TreeSet<>(MODULES.keySet())) {
      for (String type : publicTypes(module)) {
        found.add(module + " " + type);
      }
    }
    if (Boolean.getBoolean(UPDATE_PUBLIC_TYPES)) {
      Files.writeString(PUBLIC_TYPES, "# Every product module's public types (module, type), as ArchitectureTest pins "
          + "them. Written by\n# " + UPDATE_COMMAND + "\n" + String.join("\n", found) + "\n");
    }
    List<String> pinned = read(PUBLIC_TYPES).lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
        .toList();
    List<String> added = found.stream().filter(type -> !pinned.contains(type)).toList();
    List<String> gone = pinned.stream().filter(type -> !found.contains(type)).toList();
    assertThat(added.isEmpty() && gone.isEmpty())
        .withFailMessage("""
            The public types differ from %s.
              new public types: %s
              pinned but gone:  %s
            A public type is a promise: in an exported package to users, in an internal one to the module's other
            packages. Give it javadoc, or keep it package-private; if it is meant, update the list with
              %s
            and commit the file with the change.""", ROOT.relativize(PUBLIC_TYPES), added, gone, UPDATE_COMMAND)
        .isTrue();
  }

  private static final String UPDATE_COMMAND = "mvn -B -o -q -pl tests/architecture test -Dtest=ArchitectureTest "
      + "-D" + UPDATE_PUBLIC_TYPES + "=true";

  /**
   * For each module with a descriptor, its packages that are not exported to all are used by no other module but
   * those the descriptor names in a qualified export ({@code exports p to m}): on the class path, where Kafka loads
   * plugins, this is the module system's fence. And what a descriptor does not export is named {@code internal},
   * so that the javadoc and the rules that go by name agree with it.
   */
  @Test
  void unexportedPackages_areUsedOnlyByTheModulesTheyAreExportedTo() {
    List<String> violations = new ArrayList<>();
    for (Descriptor descriptor : descriptors()) {
      Set<String> packages = packagesOf(descriptor.folder());
      assertThat(descriptor.exported()).as("packages %s exports", descriptor.name()).isSubsetOf(packages);
      for (String name : packages) {
        boolean exported = descriptor.exported().contains(name);
        if (exported == name.contains(".internal")) {
          violations.add(descriptor.name() + ": " + name + (exported ? " is exported but named internal"
              : " is not exported but not named internal"));
        }
      }
      for (String module : MODULES.keySet()) {
        if (module.equals(descriptor.folder())
            || module.equals("serde-kafka3") && descriptor.folder().equals("serde")) {
          continue;
        }
        for (Import i : imports(module, i -> packages.contains(packageOfType(i.imported())))) {
          String used = packageOfType(i.imported());
          if (!descriptor.exported().contains(used) && !grantedByQualifiedExport(i)) {
            violations.add(i + ", which " + descriptor.name() + " does not export to it");
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void theRegistryPackages_eachHaveALayer_aPackageInfo_andAbout25Files() {
    Map<String, List<Path>> byPackage = new java.util.TreeMap<>();
    for (Path file : sources("registry-http")) {
      byPackage.computeIfAbsent(packageOf(read(file)), p -> new ArrayList<>()).add(file);
    }
    for (Map.Entry<String, List<Path>> entry : byPackage.entrySet()) {
      String name = entry.getKey();
      assertThat(REGISTRY_LAYERS).as("the layer of package " + name).contains(shortName(name));
      assertThat(entry.getValue()).as("package-info.java of " + name)
          .anyMatch(file -> file.getFileName().toString().equals("package-info.java"));
      assertThat(entry.getValue()).as("the files of " + name).hasSizeLessThanOrEqualTo(REGISTRY_PACKAGE_MAX_FILES);
    }
  }

  /** No package of the registry client uses one above it in {@link #REGISTRY_LAYERS}. */
  @Test
  void theRegistryPackages_useOnlyLayersBelowThem() {
    List<String> upward = new ArrayList<>();
    registryUses().forEach((edge, uses) -> {
      if (REGISTRY_LAYERS.indexOf(edge.get(0)) > REGISTRY_LAYERS.indexOf(edge.get(1))) {
        upward.add(edge.get(0) + " uses " + edge.get(1) + ", a layer above it: " + uses);
      }
    });
    assertThat(upward).isEmpty();
  }

  /** The registry client's packages use each other in no circle, whatever the declared order says. */
  @Test
  void theRegistryPackages_formNoCycle() {
    Map<String, Set<String>> graph = new java.util.TreeMap<>();
    registryUses().keySet().forEach(edge -> graph.computeIfAbsent(edge.get(0), k -> new TreeSet<>()).add(edge.get(1)));
    for (String start : graph.keySet()) {
      List<String> cycle = cycleFrom(start, graph, new ArrayList<>(), new java.util.HashSet<>());
      assertThat(cycle).as("a cycle through " + start).isEmpty();
    }
  }

  /**
   * The graph on the architecture page is the code's: its arrows are the registry packages' uses, read from the
   * imports, without those a longer path already implies (the transitive reduction, which a reader takes in at a
   * glance and which is unique for a graph without cycles).
   */
  @Test
  void theArchitecturePage_drawsTheRegistryGraphOfTheCode() {
    Set<List<String>> uses = registryUses().keySet();
    Set<String> expected = new TreeSet<>();
    for (List<String> edge : uses) {
      if (!reachable(edge.get(0), edge.get(1), uses, edge)) {
        expected.add(node(edge.get(0)) + " --> " + node(edge.get(1)));
      }
    }
    String page = read(ARCHITECTURE_PAGE);
    int start = page.indexOf(GRAPH_START);
    int end = page.indexOf(GRAPH_END);
    assertThat(start).as(GRAPH_START + " in " + ARCHITECTURE_PAGE).isNotNegative();
    assertThat(end).as(GRAPH_END + " after it").isGreaterThan(start);
    Set<String> drawn = new TreeSet<>();
    List<String> declared = new ArrayList<>();
    List<String> unread = new ArrayList<>();
    Pattern arrow = Pattern.compile("\\s*(\\w+) --> (\\w+)\\s*");
    Pattern declaration = Pattern.compile("\\s*(\\w+)\\[\"[^\"]+\"]\\s*");
    for (String line : page.substring(start + GRAPH_START.length(), end).strip().lines().toList()) {
      Matcher drawnArrow = arrow.matcher(line);
      Matcher node = declaration.matcher(line);
      if (drawnArrow.matches()) {
        drawn.add(drawnArrow.group(1) + " --> " + drawnArrow.group(2));
      } else if (node.matches()) {
        declared.add(node.group(1));
      } else if (!List.of("```mermaid", "flowchart TD", "```").contains(line.strip())) {
        unread.add(line);
      }
    }
    assertThat(unread).as("lines of the graph that are neither a node nor an arrow").isEmpty();
    assertThat(declared).as("the graph's nodes, one per package in layer order")
        .containsExactlyElementsOf(REGISTRY_LAYERS.stream().map(ArchitectureTest::node).toList());
    assertThat(drawn).withFailMessage("The registry graph in %s differs from the code's.%n  drawn: %s%n  code:  %s%n"
        + "Draw these arrows (node ids as REGISTRY_LAYERS names them, with . and spaces as _):%n%s",
        ROOT.relativize(ARCHITECTURE_PAGE), drawn, expected, String.join("\n", expected)).isEqualTo(expected);
  }

  /** The architecture page's table of the registry's packages gives each one, with its number of files. */
  @Test
  void theArchitecturePage_countsTheRegistryPackagesFiles() {
    Map<String, Integer> counted = new java.util.TreeMap<>();
    for (Path file : sources("registry-http")) {
      counted.merge(packageOf(read(file)), 1, Integer::sum);
    }
    Map<String, Integer> tabled = new java.util.TreeMap<>();
    Matcher row = Pattern.compile("^\\| `(io\\.kavro\\.registry[\\w.]*)` \\| (\\d+) \\|", Pattern.MULTILINE)
        .matcher(read(ARCHITECTURE_PAGE));
    while (row.find()) {
      tabled.put(row.group(1), Integer.parseInt(row.group(2)));
    }
    assertThat(tabled).as("the packages and file counts in the table of %s", ROOT.relativize(ARCHITECTURE_PAGE))
        .isEqualTo(counted);
  }

  /**
   * The registry client's uses between its packages, each with the types that make it: from the imports (a
   * wildcard import is a use of its package) and the names written out in the code.
   */
  private static Map<List<String>, Set<String>> registryUses() {
    Map<List<String>, Set<String>> uses = new java.util.TreeMap<>(java.util.Comparator.comparing(List::toString));
    for (Import i : imports("registry-http", i -> i.imported().startsWith("io.kavro.registry"))) {
      String from = shortName(i.packageName());
      String to = shortName(packageOfType(i.imported()));
      if (!to.equals(from)) {
        String type = i.file().getFileName().toString().replace(".java", "");
        uses.computeIfAbsent(List.of(from, to), k -> new TreeSet<>())
            .add(type + " -> " + i.imported().substring(i.imported().lastIndexOf('.') + 1));
      }
    }
    return uses;
  }

  private static String shortName(String packageName) {
    return packageName.substring("io.kavro.".length());
  }

  /** A layer's node id in the page's Mermaid graph. */
  private static String node(String layer) {
    return layer.replaceAll("[^\\w]+", "_").replaceAll("_+$", "");
  }

  private static boolean reachable(String from, String to, Set<List<String>> edges, List<String> without) {
    java.util.Deque<String> next = new java.util.ArrayDeque<>(List.of(from));
    Set<String> seen = new java.util.HashSet<>();
    while (!next.isEmpty()) {
      String at = next.pop();
      for (List<String> edge : edges) {
        if (edge.get(0).equals(at) && !edge.equals(without) && seen.add(edge.get(1))) {
          if (edge.get(1).equals(to)) {
            return true;
          }
          next.push(edge.get(1));
        }
      }
    }
    return false;
  }

  /** A path from {@code at} back to a node on {@code path}, or empty. */
  private static List<String> cycleFrom(String at, Map<String, Set<String>> graph, List<String> path,
      Set<String> done) {
    if (path.contains(at)) {
      List<String> cycle = new ArrayList<>(path.subList(path.indexOf(at), path.size()));
      cycle.add(at);
      return cycle;
    }
    if (!done.add(at)) {
      return List.of();
    }
    path.add(at);
    for (String next : graph.getOrDefault(at, Set.of())) {
      List<String> cycle = cycleFrom(next, graph, path, done);
      if (!cycle.isEmpty()) {
        return cycle;
      }
    }
    path.remove(path.size() - 1);
    return List.of();
  }

  /** A module's descriptor (src/main/java17/module-info.java): its name and its exports, qualified or not. */
  private record Descriptor(String folder, String name, Set<String> exported, Map<String, Set<String>> qualified) {}

  private static List<Descriptor> descriptors() {
    List<Descriptor> found = new ArrayList<>();
    for (String module : new TreeSet<>(MODULES.keySet())) {
      Path file = ROOT.resolve(module).resolve("src/main/java17/module-info.java");
      if (!Files.isRegularFile(file)) {
        continue;
      }
      String text = NOT_CODE.matcher(read(file)).replaceAll(" ");
      Matcher name = Pattern.compile("\\bmodule\\s+([\\w.]+)").matcher(text);
      assertThat(name.find()).as("the module name in " + file).isTrue();
      Set<String> exported = new TreeSet<>();
      Map<String, Set<String>> qualified = new java.util.TreeMap<>();
      Matcher exports = Pattern.compile("\\bexports\\s+([\\w.]+)(?:\\s+to\\s+([\\w.,\\s]+))?;").matcher(text);
      while (exports.find()) {
        if (exports.group(2) == null) {
          exported.add(exports.group(1));
        } else {
          qualified.put(exports.group(1), Set.of(exports.group(2).trim().split("\\s*,\\s*")));
        }
      }
      found.add(new Descriptor(module, name.group(1), exported, qualified));
    }
    return found;
  }

  /** Whether the module importing {@code i} is one a descriptor exports the imported package to by name. */
  private static boolean grantedByQualifiedExport(Import i) {
    String importer = descriptors().stream().filter(d -> d.folder().equals(i.module())).map(Descriptor::name)
        .findFirst().orElse(null);
    return importer != null && descriptors().stream().anyMatch(d -> d.qualified()
        .getOrDefault(packageOfType(i.imported()), Set.of()).contains(importer));
  }

  /** The package of an imported name: what comes before its first capitalised part. */
  private static String packageOfType(String imported) {
    Matcher type = Pattern.compile("\\.[A-Z]").matcher(imported);
    return type.find() ? imported.substring(0, type.start()) : imported;
  }

  private static Set<String> packagesOf(String module) {
    Set<String> packages = new TreeSet<>();
    for (Path file : sources(module)) {
      packages.add(packageOf(read(file)));
    }
    return packages;
  }

  /**
   * A type declaration in code without comments or strings: its modifiers and annotations, its kind and its name.
   * A {@code record} must be followed by its header, as the word is also a common variable name.
   */
  private static final Pattern DECLARATION = Pattern.compile("(?<![\\w.@])((?:@[\\w.]+(?:\\s*\\([^()]*\\))?\\s+|"
      + "(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp)\\s+)*)"
      + "(class|interface|enum|@\\s*interface|record(?=\\s+\\w+\\s*[(<]))\\s+(\\w+)");

  /** A type being read: its name as users write it, whether users reach it, and whether it is an interface. */
  private record Declared(String name, boolean reachable, boolean isInterface) {}

  /**
   * A module's public types, top-level and nested ({@code Outer.Inner}, at any depth), from its main sources: those
   * users can name, that is declared public, or nested in an interface or annotation (implicitly public), inside
   * types that are all public. Local and anonymous classes are none.
   */
  private static List<String> publicTypes(String module) {
    List<String> types = new ArrayList<>();
    for (Path file : sources(module)) {
      String code = NOT_CODE.matcher(read(file)).replaceAll(" ");
      String packageName = packageOf(code);
      // What each open brace opened: a type's body, or another block (null).
      java.util.Deque<Declared> open = new java.util.ArrayDeque<>();
      Declared pending = null;
      Matcher declaration = DECLARATION.matcher(code);
      int next = declaration.find() ? declaration.start() : -1;
      for (int at = 0; at < code.length(); at++) {
        if (at == next) {
          Declared enclosing = open.peek();
          boolean member = enclosing != BLOCK;
          Declared outer = member ? enclosing : null;
          boolean declaredPublic = declaration.group(1).matches("(?s).*\\bpublic\\s.*");
          boolean implicitlyPublic = outer != null && outer.isInterface();
          String kind = declaration.group(2);
          String name = outer == null ? packageName + "." + declaration.group(3)
              : outer.name() + "." + declaration.group(3);
          boolean reachable = member && (declaredPublic || implicitlyPublic) && (outer == null || outer.reachable());
          pending = new Declared(name, reachable, kind.equals("interface") || kind.startsWith("@"));
          if (reachable) {
            types.add(name);
          }
          at = declaration.end() - 1;
          next = declaration.find() ? declaration.start() : -1;
        } else if (code.charAt(at) == '{') {
          open.push(pending == null ? BLOCK : pending);
          pending = null;
        } else if (code.charAt(at) == '}') {
          open.pop();
        }
      }
    }
    types.sort(null);
    return types;
  }

  /** A brace that opens no type's body (a method, an initialiser, an enum constant, an anonymous class). */
  private static final Declared BLOCK = new Declared("", false, false);

  /**
   * A module's uses of other types, each rule's input: its imports (a wildcard import names its package, or for a
   * static one its type) and the fully qualified Kavro names written out in its code, comments and strings aside.
   */
  private static List<Import> imports(String module, Predicate<Import> forbidden) {
    List<Import> found = new ArrayList<>();
    for (Path file : sources(module)) {
      String text = read(file);
      String packageName = packageOf(text);
      String code = NOT_CODE.matcher(text).replaceAll(" ");
      List<String> used = new ArrayList<>();
      Matcher matcher = IMPORT.matcher(code);
      while (matcher.find()) {
        used.add(matcher.group(1));
      }
      Matcher qualified = QUALIFIED.matcher(code.replaceAll("(?m)^(package|import) [^;]+;", " "));
      while (qualified.find()) {
        used.add(qualified.group(1) + "." + qualified.group(2));
      }
      for (String name : used) {
        Import i = new Import(module, file, packageName, name);
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
