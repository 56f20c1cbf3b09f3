package io.kavro.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compatibility matrix: each cell is a JVM whose class path holds one kafka-clients and connect-api line,
 * one Avro and the Kavro serde artifact for that Kafka line, and runs every test of package
 * {@code io.kavro.compat.cell} there. The cells start together, two at a time (this machine's cores), and each
 * is reported as a test of its own with the cell's whole output when it fails.
 */
class CompatibilityMatrixTest {
  private static final String NEWEST_KAFKA = System.getProperty("kavro.matrix.kafka.newest", "4.4.0");
  private static final String NEWEST_AVRO = System.getProperty("kavro.matrix.avro.newest", "1.12.2");
  private static final Path JARS = Path.of(System.getProperty("kavro.matrix.jars", "target/matrix"));
  private static final Path JAVA_25 = Path.of(System.getProperty("kavro.java25.home",
      "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java");
  private static final long CELL_TIMEOUT_SECONDS = 180;
  /** The repository's root, two levels above this module. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent().getParent();
  private static final String CELL_PACKAGE = "io.kavro.compat.cell";
  private static final Path TEST_CLASSES = moduleClassPath().stream().map(Path::of)
      .filter(entry -> entry.endsWith("test-classes")).findFirst().orElseThrow();

  /** One cell: the versions on its class path, the serde artifact, and the Java it runs on. */
  record Cell(String kafka, String avro, String artifact, boolean java25) {
    /** KIP-877's metrics show only with kavro-serde on a client that has them (4.1 and later). */
    boolean metrics() {
      return artifact.equals("kavro-serde") && !kafka.startsWith("3.") && !kafka.startsWith("4.0.");
    }

    @Override
    public String toString() {
      return "kafka-clients " + kafka + ", Avro " + avro + ", " + artifact + (java25 ? ", Java 25" : ", Java 17");
    }
  }

  static List<Cell> cells() {
    List<Cell> cells = new ArrayList<>();
    for (String kafka : List.of("3.7.2", "3.9.1", "4.0.0", "4.1.1", NEWEST_KAFKA)) {
      String artifact = kafka.startsWith("3.") || kafka.startsWith("4.0.") ? "kavro-serde-kafka3" : "kavro-serde";
      for (String avro : List.of("1.11.4", "1.12.0", NEWEST_AVRO)) {
        cells.add(new Cell(kafka, avro, artifact, false));
      }
    }
    // The floor: kafka-clients 3.0 (2.8's Converter and Deserializer lack methods Kavro implements).
    cells.add(new Cell("3.0.2", "1.11.4", "kavro-serde-kafka3", false));
    cells.add(new Cell("3.0.2", NEWEST_AVRO, "kavro-serde-kafka3", false));
    // The artifact for older clients on the newest one: it works there too, without metrics.
    cells.add(new Cell(NEWEST_KAFKA, NEWEST_AVRO, "kavro-serde-kafka3", false));
    // The newest Java, with the oldest and the newest libraries.
    cells.add(new Cell("3.7.2", "1.11.4", "kavro-serde-kafka3", true));
    cells.add(new Cell(NEWEST_KAFKA, NEWEST_AVRO, "kavro-serde", true));
    return cells;
  }

  private static final Map<Cell, Future<Result>> RUNS = new ConcurrentHashMap<>();
  private static ExecutorService pool;

  record Result(int exitCode, String output) {}

  @BeforeAll
  static void startAllCells() {
    pool = Executors.newFixedThreadPool(2);
    for (Cell cell : cells()) {
      if (!cell.java25() || Files.isExecutable(JAVA_25)) {
        RUNS.put(cell, pool.submit(() -> run(cell)));
      }
    }
  }

  @AfterAll
  static void stop() {
    pool.shutdownNow();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cells")
  void cellPassesEveryTest(Cell cell) throws Exception {
    Future<Result> run = RUNS.get(cell);
    assumeTrue(run != null, "no Java 25 at " + JAVA_25);
    Result result = run.get(CELL_TIMEOUT_SECONDS + 30, TimeUnit.SECONDS);
    assertThat(result.exitCode()).as("%s; its output:%n%s", cell, result.output()).isZero();
    assertThat(result.output()).as("%s ran every cell test class", cell).contains(cellTestClasses());
  }

  /** The simple names of the cell's test classes, as the cell's test tree shows them. */
  private static List<String> cellTestClasses() throws IOException {
    try (Stream<Path> files = Files.list(TEST_CLASSES.resolve(CELL_PACKAGE.replace('.', '/')))) {
      List<String> names = files.map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith("Test.class"))
          .map(name -> name.substring(0, name.length() - ".class".length()))
          .collect(Collectors.toList());
      assertThat(names).as("cell test classes").hasSizeGreaterThan(5);
      return names;
    }
  }

  /**
   * Issue 37, item 10: {@code kavro-serde} on kafka-clients 3.7 fails in {@code new KafkaProducer} with the error
   * text that the compatibility page quotes, so that a search for it finds the fix.
   */
  @Test
  void kavroSerdeOnKafka37_failsWithTheErrorTheDocsQuote() throws Exception {
    Cell wrong = new Cell("3.7.2", NEWEST_AVRO, "kavro-serde", false);
    Path output = Files.createTempFile("kavro-wrong-artifact", ".log");
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-cp", String.join(File.pathSeparator, classPath(wrong)), WrongArtifact.class.getName())
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the wrong artifact's JVM ended").isTrue();
    String text = Files.readString(output, StandardCharsets.UTF_8).strip();
    Files.delete(output);

    assertThat(text).as("what new KafkaProducer threw").contains(WrongArtifact.THREW)
        .contains("java.lang.NoClassDefFoundError: org/apache/kafka/common/metrics/Monitorable");
    String error = text.lines().filter(line -> line.contains("NoClassDefFoundError")).findFirst().orElseThrow()
        .replaceFirst(".*(java\\.lang\\.NoClassDefFoundError: \\S+).*", "$1");
    String docs = Files.readString(ROOT.resolve("docs/compatibility.md"), StandardCharsets.UTF_8);
    assertThat(docs).as("docs/compatibility.md quotes the error").contains("`" + error + "`");
  }

  private static Result run(Cell cell) throws IOException, InterruptedException {
    List<String> classPath = classPath(cell);
    String java = cell.java25() ? JAVA_25.toString() : Path.of(System.getProperty("java.home"), "bin", "java")
        .toString();
    Path output = Files.createTempFile("kavro-cell", ".log");
    Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-Dkavro.cell.kafka=" + cell.kafka(), "-Dkavro.cell.avro=" + cell.avro(),
        "-Dkavro.cell.artifact=" + cell.artifact(), "-Dkavro.cell.metrics=" + cell.metrics(),
        "-cp", String.join(File.pathSeparator, classPath),
        "org.junit.platform.console.ConsoleLauncher", "execute", "--disable-banner", "--fail-if-no-tests",
        "--details=tree", "--scan-classpath=" + TEST_CLASSES, "--include-package=" + CELL_PACKAGE)
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    boolean ended = process.waitFor(CELL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    String text = Files.readString(output, StandardCharsets.UTF_8);
    Files.delete(output);
    return new Result(ended ? process.exitValue() : -1, ended ? text : text + "\n(timed out)");
  }

  /** A cell's class path: its kafka-clients, connect-api and Avro, its serde artifact, and this module's tests. */
  private static List<String> classPath(Cell cell) {
    List<String> classPath = new ArrayList<>();
    classPath.add(jar("kafka-clients-" + cell.kafka()));
    classPath.add(jar("connect-api-" + cell.kafka()));
    classPath.add(jar("avro-" + cell.avro()));
    for (String entry : moduleClassPath()) {
      String name = Path.of(entry).getFileName().toString();
      // kavro-serde-kafka3 holds kavro-serde's and kavro-connect's classes.
      boolean otherSerde = cell.artifact().equals("kavro-serde") ? isArtifact(name, "kavro-serde-kafka3")
          : isArtifact(name, "kavro-serde") || isArtifact(name, "kavro-connect");
      if (!otherSerde && !isArtifact(name, "kafka-clients") && !isArtifact(name, "connect-api")
          && !isArtifact(name, "avro")) {
        classPath.add(entry);
      }
    }
    return classPath;
  }

  private static String jar(String artifactAndVersion) {
    Path jar = JARS.resolve(artifactAndVersion + ".jar");
    assertThat(jar).as("the matrix's jars, copied by mvn verify").exists();
    return jar.toAbsolutePath().toString();
  }

  /** This module's test class path, as Surefire gives it. */
  private static List<String> moduleClassPath() {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return Stream.of(classPath.split(File.pathSeparator)).filter(entry -> !entry.isBlank())
        .collect(Collectors.toList());
  }

  /** Whether a jar's file name is {@code artifact}'s, at any version (and not another artifact's). */
  private static boolean isArtifact(String fileName, String artifact) {
    return fileName.startsWith(artifact + "-") && fileName.endsWith(".jar")
        && Character.isDigit(fileName.charAt(artifact.length() + 1));
  }

}
