package io.kavro.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the Apicurio Registry distribution is, for the local registry. In order: the folder named by
 * {@code -Dkavro.apicurio.home}; the folder the testkit's own build unpacked it to; else the distribution's
 * archive ({@code io.apicurio:apicurio-registry-app:<version>:tar.gz:all}) from the local Maven repository,
 * downloaded there from Maven Central first if it is missing, and unpacked once into
 * {@code ~/.cache/kavro/apicurio-<version>}. So a test of any project that depends on the testkit finds it.
 */
final class ApicurioDistribution {
  /** System property that names an unpacked distribution. */
  static final String HOME_PROPERTY = "kavro.apicurio.home";
  /** System property that names an unpacked distribution of Apicurio Registry 3. */
  static final String HOME3_PROPERTY = "kavro.apicurio3.home";
  /** System property that overrides the remote repository the archive is downloaded from. */
  static final String REPOSITORY_PROPERTY = "kavro.maven.repository";

  private static final Logger log = LoggerFactory.getLogger(ApicurioDistribution.class);

  private ApicurioDistribution() {}

  /** The folder holding the distribution's runner jar, of the Apicurio Registry 2 line the testkit runs. */
  static synchronized Path home() {
    return locate(System.getProperty(HOME_PROPERTY), buildProperties());
  }

  /**
   * The folder holding the distribution of Apicurio Registry 3 (version {@code apicurio3.version} of the
   * testkit's build), found or fetched as for {@link #home()}, but never unpacked by the build.
   */
  static synchronized Path home3() {
    Properties build = new Properties();
    build.setProperty("apicurio.version", buildProperties().getProperty("apicurio3.version"));
    return locate(System.getProperty(HOME3_PROPERTY), build);
  }

  private static Path locate(String override, Properties build) {
    Path userHome = Path.of(System.getProperty("user.home"));
    return locate(override, build,
        Path.of(System.getProperty("maven.repo.local", userHome.resolve(".m2/repository").toString())),
        userHome.resolve(".cache/kavro"), System.getProperty(REPOSITORY_PROPERTY, "https://repo.maven.apache.org/maven2"));
  }

  /**
   * The jar that starts the distribution in {@code home}: {@code *-runner.jar} in Apicurio 2's layout,
   * {@code quarkus-run.jar} in Apicurio 3's; empty when there is none.
   */
  static java.util.Optional<Path> runner(Path home) {
    if (!Files.isDirectory(home)) {
      return java.util.Optional.empty();
    }
    try (Stream<Path> files = Files.list(home)) {
      return files.filter(p -> {
        String name = p.getFileName().toString();
        return name.endsWith("-runner.jar") || name.equals("quarkus-run.jar");
      }).findFirst();
    } catch (IOException e) {
      return java.util.Optional.empty();
    }
  }

  /** {@link #home()} with every input given: the override, the build's properties, the folders, the remote. */
  static Path locate(String override, Properties build, Path localRepository, Path cacheRoot, String remote) {
    if (override != null) {
      return Path.of(override);
    }
    Path built = Path.of(build.getProperty("apicurio.home", ""));
    if (hasRunner(built)) {
      return built;
    }
    String version = build.getProperty("apicurio.version");
    Path cache = cacheRoot.resolve("apicurio-" + version);
    if (hasRunner(cache)) {
      return cache;
    }
    unpack(archive(version, localRepository, remote), cache);
    return cache;
  }

  private static boolean hasRunner(Path folder) {
    return runner(folder).isPresent();
  }

  /** The archive in the local Maven repository, downloaded into it when missing. */
  private static Path archive(String version, Path localRepository, String remote) {
    String name = "apicurio-registry-app-" + version + "-all.tar.gz";
    String path = "io/apicurio/apicurio-registry-app/" + version + "/" + name;
    Path local = localRepository.resolve(path);
    if (Files.isRegularFile(local)) {
      return local;
    }
    URI uri = URI.create(remote + "/" + path);
    log.info("Downloading the Apicurio Registry distribution from {}", uri);
    try {
      Files.createDirectories(local.getParent());
      Path partial = Files.createTempFile(local.getParent(), name, ".part");
      HttpResponse<Path> response = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()
          .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofFile(partial));
      if (response.statusCode() != 200) {
        Files.deleteIfExists(partial);
        throw new IllegalStateException("cannot download the Apicurio Registry distribution: HTTP "
            + response.statusCode() + " from " + uri + "; set -D" + HOME_PROPERTY + " to an unpacked copy");
      }
      Files.move(partial, local, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return local;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot download the Apicurio Registry distribution from " + uri
          + "; set -D" + HOME_PROPERTY + " to an unpacked copy", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while downloading " + uri, e);
    }
  }

  /** Unpacks into a sibling folder, then renames it into place: a crash leaves no half-unpacked cache. */
  private static void unpack(Path archive, Path target) {
    try {
      Files.createDirectories(target.getParent());
      Path staging = Files.createTempDirectory(target.getParent(), target.getFileName() + ".");
      try (InputStream in = Files.newInputStream(archive);
          TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(in))) {
        for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
          Path out = staging.resolve(entry.getName()).normalize();
          if (!out.startsWith(staging)) {
            throw new IOException("archive entry outside its folder: " + entry.getName());
          }
          if (entry.isDirectory()) {
            Files.createDirectories(out);
          } else {
            Files.createDirectories(out.getParent());
            Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        if (!hasRunner(target)) { // another JVM unpacked it meanwhile: use theirs
          throw e;
        }
      }
      log.info("Unpacked the Apicurio Registry distribution to {}", target);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack " + archive + " to " + target, e);
    }
  }

  private static Properties buildProperties() {
    Properties props = new Properties();
    try (InputStream in = ApicurioDistribution.class.getResourceAsStream("/kavro-stack.properties")) {
      if (in == null) {
        throw new IllegalStateException("kavro-stack.properties is missing from the class path");
      }
      props.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return props;
  }
}
