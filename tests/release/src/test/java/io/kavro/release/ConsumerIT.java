package io.kavro.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.maven.shared.invoker.DefaultInvocationRequest;
import org.apache.maven.shared.invoker.DefaultInvoker;
import org.apache.maven.shared.invoker.InvocationRequest;
import org.apache.maven.shared.invoker.InvocationResult;
import org.apache.maven.shared.invoker.Invoker;
import org.junit.jupiter.api.Test;

/**
 * A project that knows only the staged artifacts and the BOM builds and round-trips a record (issue 53, item 2):
 * {@code src/it/consumer} imports kavro-bom and depends on kavro-serde without a version, and its build runs with a
 * local repository of its own, whose one source of Kavro is the staged directory ({@code kavro-staged}); third-party
 * artifacts come from this build's local repository, as a {@code file:} mirror of Central. Afterwards every
 * {@code io.kavro} file of that local repository must say it came from {@code kavro-staged}.
 *
 * <p>The staged directory is {@code -Dkavro.staged} (release/stage --consumer passes its signed bundle's), or else
 * this build's own artifacts, laid out in {@code target/staged} as a deploy lays them out.
 */
class ConsumerIT {
  private static final Path TARGET = Path.of("target").toAbsolutePath();
  private static final String VERSION = System.getProperty("kavro.version");

  @Test
  void projectOnTheStagedBundle_buildsAndRoundTrips() throws Exception {
    String given = System.getProperty("kavro.staged", "");
    Path staged = given.isBlank() ? stageThisBuild() : Path.of(given).toAbsolutePath();
    Path project = TARGET.resolve("consumer");
    Path repository = TARGET.resolve("consumer-repository");
    delete(project);
    delete(repository);
    Files.createDirectories(repository);
    copy(Path.of("src/it/consumer"), project);
    Path settings = TARGET.resolve("consumer-settings.xml");
    Path thirdParty = Path.of(System.getProperty("maven.repo.local",
        Path.of(System.getProperty("user.home"), ".m2", "repository").toString())).toAbsolutePath();
    Files.writeString(settings, """
        <settings>
          <mirrors>
            <mirror>
              <id>third-party</id>
              <mirrorOf>*,!kavro-staged</mirrorOf>
              <url>%s</url>
            </mirror>
          </mirrors>
          <profiles>
            <profile>
              <id>kavro-staged</id>
              <repositories>
                <repository>
                  <id>kavro-staged</id>
                  <url>%s</url>
                  <snapshots><enabled>true</enabled></snapshots>
                </repository>
              </repositories>
            </profile>
          </profiles>
          <activeProfiles>
            <activeProfile>kavro-staged</activeProfile>
          </activeProfiles>
        </settings>
        """.formatted(thirdParty.toUri(), staged.toUri()));

    long start = System.nanoTime();
    InvocationRequest request = new DefaultInvocationRequest();
    request.setBaseDirectory(project.toFile());
    request.setGoals(List.of("test"));
    request.setBatchMode(true);
    request.setNoTransferProgress(true);
    request.setOffline(true);
    request.setLocalRepositoryDirectory(repository.toFile());
    request.setUserSettingsFile(settings.toFile());
    request.setJavaHome(new File(System.getProperty("java.home")));
    request.setMavenOpts("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m");
    request.setTimeoutInSeconds(180);
    Properties properties = new Properties();
    // Its own name: a -Dkavro.version would also override any property of that name in the BOM it imports.
    properties.setProperty("kavro.bom.version", VERSION);
    properties.setProperty("kafka.version", System.getProperty("kafka.version"));
    properties.setProperty("junit.version", System.getProperty("junit.version"));
    properties.setProperty("log4j.version", System.getProperty("log4j.version"));
    // Offline, but for the file: repositories (Maven's resolver honours it).
    properties.setProperty("aether.offline.protocols", "file");
    request.setProperties(properties);
    StringBuilder output = new StringBuilder();
    request.setOutputHandler(line -> output.append(line).append('\n'));
    request.setErrorHandler(line -> output.append(line).append('\n'));
    Invoker invoker = new DefaultInvoker();
    invoker.setMavenHome(new File(System.getProperty("maven.home")));
    InvocationResult result = invoker.execute(request);
    System.out.printf("consumer build on %s: exit %d in %d ms%n", staged, result.getExitCode(),
        (System.nanoTime() - start) / 1_000_000);

    assertThat(result.getExecutionException()).as(output.toString()).isNull();
    assertThat(result.getExitCode()).as(output.toString()).isZero();
    assertThat(output).contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0")
        .as("the staged files' checksums").doesNotContain("Could not validate integrity of download from "
            + staged.toUri());
    assertThat(origins(repository.resolve("io/kavro"))).as("where each io.kavro file of the consumer came from")
        .isNotEmpty()
        .allSatisfy(origin -> assertThat(origin).endsWith(">kavro-staged="));
    assertThat(repository.resolve("io/kavro/kavro-serde")).isDirectory();
    assertThat(repository.resolve("io/kavro/kavro-bom")).isDirectory();
  }

  /** The lines of every {@code _remote.repositories} under this folder: {@code file>repository=}. */
  private static List<String> origins(Path folder) throws IOException {
    List<String> origins = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return origins;
    }
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.filter(f -> f.getFileName().toString().equals("_remote.repositories")).toList()) {
        Files.readAllLines(file).stream().filter(line -> !line.startsWith("#") && !line.isBlank())
            .forEach(origins::add);
      }
    }
    return origins;
  }

  /**
   * Lays out this build's parent pom, BOM, registry client, serde and testkit in {@code target/staged} as a deploy of the
   * release profile does (without the signatures, SBOMs and extra jars, which release/stage checks).
   */
  private static Path stageThisBuild() throws IOException {
    Path staged = TARGET.resolve("staged");
    delete(staged);
    stage(staged, "kavro-parent", Published.ROOT.resolve("pom.xml"), null);
    stage(staged, "kavro-bom", Published.ROOT.resolve("bom/pom.xml"), null);
    for (String folder : List.of("registry-http", "serde", "testkit")) {
      Published module = Published.of(folder);
      Path jar = Published.ROOT.resolve(folder).resolve("target/" + module.artifactId() + "-" + VERSION + ".jar");
      assertThat(jar).as("the jar of " + module.artifactId() + ": built by this build before its integration tests")
          .isRegularFile();
      try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
        java.util.zip.ZipEntry license = zip.getEntry("META-INF/LICENSE");
        assertThat(license).as(jar + " carries the license it is published under").isNotNull();
        assertThat(new String(zip.getInputStream(license).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
            .isEqualTo(Published.read(Published.ROOT.resolve("LICENSE")));
      }
      stage(staged, module.artifactId(), Published.ROOT.resolve(folder).resolve("pom.xml"), jar);
    }
    return staged;
  }

  private static void stage(Path staged, String artifactId, Path pom, Path jar) throws IOException {
    Path folder = staged.resolve("io/kavro").resolve(artifactId).resolve(VERSION);
    stageFile(pom, folder.resolve(artifactId + "-" + VERSION + ".pom"));
    if (jar != null) {
      stageFile(jar, folder.resolve(artifactId + "-" + VERSION + ".jar"));
    }
  }

  /** Copies the file with its md5 and sha1 beside it, which the resolver checks. */
  private static void stageFile(Path from, Path to) throws IOException {
    copy(from, to);
    byte[] bytes = Files.readAllBytes(to);
    for (String algorithm : List.of("MD5", "SHA-1")) {
      try {
        String sum = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        Files.writeString(to.resolveSibling(to.getFileName() + "." + algorithm.replace("-", "").toLowerCase(
            Locale.ROOT)), sum);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(algorithm + " is a JDK's standard algorithm", e);
      }
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    if (Files.isDirectory(from)) {
      try (Stream<Path> files = Files.walk(from)) {
        for (Path file : files.toList()) {
          Path target = to.resolve(from.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(target);
          } else {
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    } else {
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void delete(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }
}
