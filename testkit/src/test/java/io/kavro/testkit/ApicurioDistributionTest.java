package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding the Apicurio distribution in a project that depends on the testkit: the override, the testkit's own
 * build, else the archive from the local Maven repository, downloaded there (from a repository on 127.0.0.1
 * here) when missing, unpacked once into the cache.
 */
class ApicurioDistributionTest {
  private static final String VERSION = "9.9.9.Test";

  @TempDir
  Path dir;

  private static Properties build() {
    Properties props = new Properties();
    props.setProperty("apicurio.version", VERSION);
    return props;
  }

  private static byte[] archive() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(bytes))) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (String name : new String[] {"apicurio-registry-app-" + VERSION + "-runner.jar",
          "lib/io.example.a-library-with-a-name-longer-than-one-hundred-characters-to-need-the-long-name-extension-1.0.jar"}) {
        byte[] content = name.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(content.length);
        tar.putArchiveEntry(entry);
        tar.write(content);
        tar.closeArchiveEntry();
      }
    }
    return bytes.toByteArray();
  }

  @Test
  void overrideWins() {
    assertThat(ApicurioDistribution.locate("/opt/apicurio", build(), dir, dir, "http://unused"))
        .isEqualTo(Path.of("/opt/apicurio"));
  }

  /** Issue 25, item 4: the published jar names no folder of the machine that built it. */
  @Test
  void theJarsProperties_nameNoPath() throws IOException {
    Properties shipped = new Properties();
    try (java.io.InputStream in = ApicurioDistribution.class.getResourceAsStream("/kavro-stack.properties")) {
      shipped.load(in);
    }
    assertThat(shipped.stringPropertyNames()).containsExactlyInAnyOrder("apicurio.version", "apicurio3.version",
        "kafka.version");
    assertThat(shipped.values()).allSatisfy(value -> assertThat(value.toString()).doesNotContain("/"));
  }

  @Test
  void missingEverywhere_downloadedIntoTheLocalRepository_unpackedOnce() throws Exception {
    byte[] archive = archive();
    AtomicInteger downloads = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/maven2/", exchange -> serve(exchange, archive, sha1(archive), downloads));
    server.start();
    try {
      String remote = "http://127.0.0.1:" + server.getAddress().getPort() + "/maven2";
      Path repository = dir.resolve("m2");
      Path cache = dir.resolve("cache");

      Path home = ApicurioDistribution.locate(null, build(), repository, cache, remote);

      assertThat(home).isEqualTo(cache.resolve("apicurio-" + VERSION));
      assertThat(home.resolve("apicurio-registry-app-" + VERSION + "-runner.jar")).exists();
      assertThat(Files.list(home.resolve("lib")).toList()).hasSize(1);
      assertThat(repository.resolve("io/apicurio/apicurio-registry-app/" + VERSION + "/apicurio-registry-app-"
          + VERSION + "-all.tar.gz")).exists();
      // Found in the cache from now on: no second download, no second unpacking.
      assertThat(ApicurioDistribution.locate(null, build(), repository, cache, remote))
          .isEqualTo(home);
      assertThat(downloads).hasValue(1);
    } finally {
      server.stop(0);
    }
  }

  /** Serves the archive, or its published SHA-1 for a path ending in .sha1, as Maven Central does. */
  private static void serve(com.sun.net.httpserver.HttpExchange exchange, byte[] archive, String sha1,
      AtomicInteger downloads) throws IOException {
    byte[] body;
    if (exchange.getRequestURI().getPath().endsWith(".sha1")) {
      body = sha1.getBytes(StandardCharsets.UTF_8);
    } else {
      downloads.incrementAndGet();
      body = archive;
    }
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  private static String sha1(byte[] bytes) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Issue 22, item 8: an archive that does not match its published SHA-1 (truncated on the way, or tampered
   * with) is refused, and nothing of it is left in the local repository, no .part file either.
   */
  @Test
  void downloadNotMatchingItsSha1_refused_nothingLeft() throws Exception {
    byte[] archive = archive();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/maven2/", exchange -> serve(exchange, archive, sha1(new byte[] {1}), new AtomicInteger()));
    server.start();
    try {
      Path repository = dir.resolve("m2");
      assertThatThrownBy(() -> ApicurioDistribution.locate(null, build(), repository,
          dir.resolve("cache"), "http://127.0.0.1:" + server.getAddress().getPort() + "/maven2"))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("not the published");
      try (var files = Files.walk(repository)) {
        assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
      }
    } finally {
      server.stop(0);
    }
  }

  /** Issue 22, item 8: a truncated archive already in the local repository is downloaded again, not run. */
  @Test
  void truncatedArchiveInTheLocalRepository_downloadedAgain() throws Exception {
    byte[] archive = archive();
    AtomicInteger downloads = new AtomicInteger();
    Path repository = dir.resolve("m2");
    Path local = repository.resolve("io/apicurio/apicurio-registry-app/" + VERSION + "/apicurio-registry-app-"
        + VERSION + "-all.tar.gz");
    Files.createDirectories(local.getParent());
    Files.write(local, java.util.Arrays.copyOf(archive, archive.length / 2));
    Files.writeString(local.resolveSibling(local.getFileName() + ".sha1"), sha1(archive));
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/maven2/", exchange -> serve(exchange, archive, sha1(archive), downloads));
    server.start();
    try {
      Path home = ApicurioDistribution.locate(null, build(), repository,
          dir.resolve("cache"), "http://127.0.0.1:" + server.getAddress().getPort() + "/maven2");

      assertThat(home.resolve("apicurio-registry-app-" + VERSION + "-runner.jar")).exists();
      assertThat(downloads).hasValue(1);
      assertThat(Files.readAllBytes(local)).isEqualTo(archive);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void notFoundRemotely_clearError() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
    });
    server.start();
    try {
      assertThatThrownBy(() -> ApicurioDistribution.locate(null, build(),
          dir.resolve("m2"), dir.resolve("cache"), "http://127.0.0.1:" + server.getAddress().getPort()))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("HTTP 404")
          .hasMessageContaining("kavro.apicurio.home");
    } finally {
      server.stop(0);
    }
  }
}
