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
 * {@code -Dkavro.apicurio.home}; else the distribution's
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
    Properties build = new Properties();
    build.setProperty("apicurio.version", StackBuild.property("apicurio.version"));
    return locate(System.getProperty(HOME_PROPERTY), build);
  }

  /**
   * The folder holding the distribution of Apicurio Registry 3 (version {@code apicurio3.version} of the
   * testkit's build), found or fetched as for {@link #home()}, but never unpacked by the build.
   */
  static synchronized Path home3() {
    Properties build = new Properties();
    build.setProperty("apicurio.version", StackBuild.property("apicurio3.version"));
    return locate(System.getProperty(HOME3_PROPERTY), build);
  }

  private static Path locate(String override, Properties build) {
    return locate(override, build, StackBuild.localRepository(),
        Path.of(System.getProperty("user.home"), ".cache", "kavro"),
        System.getProperty(REPOSITORY_PROPERTY, "https://repo.maven.apache.org/maven2"));
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

  /** {@link #home()} with every input given: the override, the build's versions, the folders, the remote. */
  static Path locate(String override, Properties build, Path localRepository, Path cacheRoot, String remote) {
    if (override != null) {
      return Path.of(override);
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

  /**
   * The archive in the local Maven repository, downloaded into it when missing, and checked against the SHA-1
   * that the repository publishes beside it (the local {@code .sha1} that Maven kept, else the remote's): a
   * truncated or tampered archive is downloaded again, never run. A failed download leaves no file behind.
   */
  private static Path archive(String version, Path localRepository, String remote) {
    String name = "apicurio-registry-app-" + version + "-all.tar.gz";
    String path = "io/apicurio/apicurio-registry-app/" + version + "/" + name;
    Path local = localRepository.resolve(path);
    URI uri = URI.create(remote + "/" + path);
    HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
    if (Files.isRegularFile(local)) {
      if (expectedSha1(http, local, uri).equals(sha1OrNothing(local))) {
        return local;
      }
      log.warn("{} does not match its published SHA-1: downloading it again", local);
    }
    log.info("Downloading the Apicurio Registry distribution from {}", uri);
    Path partial = null;
    try {
      Files.createDirectories(local.getParent());
      partial = Files.createTempFile(local.getParent(), name, ".part");
      HttpResponse<Path> response = http.send(HttpRequest.newBuilder(uri).build(),
          HttpResponse.BodyHandlers.ofFile(partial));
      if (response.statusCode() != 200) {
        throw new IllegalStateException("cannot download the Apicurio Registry distribution: HTTP "
            + response.statusCode() + " from " + uri + "; set -D" + HOME_PROPERTY + " to an unpacked copy");
      }
      String expected = remoteSha1(http, uri);
      String actual = sha1(partial);
      if (!expected.equals(actual)) {
        throw new IllegalStateException("the Apicurio Registry distribution from " + uri + " has SHA-1 " + actual
            + ", not the published " + expected + ": not used; set -D" + HOME_PROPERTY + " to an unpacked copy");
      }
      Files.writeString(local.resolveSibling(name + ".sha1"), expected);
      Files.move(partial, local, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      partial = null;
      return local;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot download the Apicurio Registry distribution from " + uri
          + "; set -D" + HOME_PROPERTY + " to an unpacked copy", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while downloading " + uri, e);
    } finally {
      deleteQuietly(partial);
    }
  }

  /** The SHA-1 that Maven kept beside the local archive, else the one the remote repository publishes. */
  private static String expectedSha1(HttpClient http, Path local, URI uri) {
    Path sidecar = local.resolveSibling(local.getFileName() + ".sha1");
    try {
      if (Files.isRegularFile(sidecar)) {
        return firstWord(Files.readString(sidecar));
      }
      return remoteSha1(http, uri);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + sidecar, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking " + local, e);
    }
  }

  private static String remoteSha1(HttpClient http, URI archive) throws IOException, InterruptedException {
    URI uri = URI.create(archive + ".sha1");
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("cannot check the Apicurio Registry distribution: HTTP "
          + response.statusCode() + " for its SHA-1 at " + uri + "; set -D" + HOME_PROPERTY + " to an unpacked copy");
    }
    return firstWord(response.body());
  }

  /** A checksum file holds the hex digest, sometimes followed by the file's name. */
  private static String firstWord(String text) {
    String[] words = text.strip().split("\\s+");
    return words[0].toLowerCase(java.util.Locale.ROOT);
  }

  private static String sha1OrNothing(Path file) {
    try {
      return sha1(file);
    } catch (IOException e) {
      return "";
    }
  }

  private static String sha1(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-1");
      byte[] buffer = new byte[1 << 16];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
      return java.util.HexFormat.of().formatHex(digest.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The archive's size in MB (10^6 bytes), as the docs give it. */
  private static long archiveMegabytes(Path archive) {
    try {
      return Files.size(archive) / 1_000_000;
    } catch (IOException e) {
      return -1;
    }
  }

  private static void deleteQuietly(Path path) {
    if (path == null) {
      return;
    }
    try (Stream<Path> tree = Files.walk(path)) {
      tree.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.debug("cannot delete {}: {}", path, e.toString());
    }
  }

  /** Unpacks into a sibling folder, then renames it into place: a crash leaves no half-unpacked cache. */
  private static void unpack(Path archive, Path target) {
    log.info("Unpacking the Apicurio Registry distribution ({} MB) into {}, once", archiveMegabytes(archive), target);
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
        deleteQuietly(staging); // ours is not needed, or not usable
        if (!hasRunner(target)) { // another JVM unpacked it meanwhile: use theirs
          throw e;
        }
      }
      log.debug("Unpacked the Apicurio Registry distribution to {}", target);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack " + archive + " to " + target, e);
    }
  }
}
