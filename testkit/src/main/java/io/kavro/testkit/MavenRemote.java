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
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The remote Maven repository that the testkit downloads an artifact from when the local Maven repository lacks
 * it: {@code -D}{@value #PROPERTY}, else Maven Central. A download lands at the artifact's path in the local
 * repository's layout, through a temporary file in the same folder moved into place atomically, once its size is
 * not zero and its SHA-1 is the one the repository publishes beside it; a failed download leaves no file behind.
 * Immutable and safe to share.
 */
final class MavenRemote {
  /** System property that overrides the remote repository. */
  static final String PROPERTY = "kavro.maven.repository";
  /** Maven Central, as Maven itself names it. */
  static final String CENTRAL = "https://repo.maven.apache.org/maven2";

  private static final Logger log = LoggerFactory.getLogger(MavenRemote.class);

  private final String base;
  private final HttpClient http;

  /** The repository at {@code base} ({@code https://host/maven2}, with or without a trailing {@code /}). */
  MavenRemote(String base) {
    this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    this.http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
  }

  /** The repository {@code -Dkavro.maven.repository} names, else Maven Central. */
  static MavenRemote fromSystemProperties() {
    return new MavenRemote(System.getProperty(PROPERTY, CENTRAL));
  }

  /** Where the repository serves the artifact at {@code path} (in the Maven layout, {@code org/x/a/1/a-1.jar}). */
  URI uri(String path) {
    return URI.create(base + "/" + path);
  }

  /**
   * Downloads the artifact at {@code path} into {@code local}, and keeps its SHA-1 beside it as Maven does.
   *
   * @param what the artifact, in words, for messages
   * @param advice what the user can do instead, ending a failure's message
   * @return {@code local}
   * @throws IllegalStateException when the repository answers other than 200, the download is empty, or its
   *     SHA-1 is not the published one; the message names {@code what} and the URL
   * @throws UncheckedIOException when the download or a local file fails
   */
  Path download(String path, Path local, String what, String advice) {
    return fetch(path, local, Optional.empty(), what, advice);
  }

  /**
   * Downloads the artifact at {@code path} into {@code local}, as {@link #download(String, Path, String, String)}
   * does, but checks it against {@code sha1}, pinned by the caller, instead of the one the repository publishes.
   *
   * @throws IllegalStateException as {@link #download(String, Path, String, String)}, and when the download's SHA-1
   *     is not {@code sha1}
   */
  Path download(String path, Path local, String sha1, String what, String advice) {
    return fetch(path, local, Optional.of(sha1.toLowerCase(Locale.ROOT)), what, advice);
  }

  private Path fetch(String path, Path local, Optional<String> pinned, String what, String advice) {
    URI uri = uri(path);
    log.info("Downloading {} from {}", what, uri);
    Path partial = null;
    try {
      Files.createDirectories(local.getParent());
      partial = Files.createTempFile(local.getParent(), local.getFileName().toString(), ".part");
      HttpResponse<Path> response = http.send(HttpRequest.newBuilder(uri).build(),
          HttpResponse.BodyHandlers.ofFile(partial));
      if (response.statusCode() != 200) {
        throw new IllegalStateException("cannot download " + what + ": HTTP " + response.statusCode() + " from "
            + uri + "; " + advice);
      }
      if (Files.size(partial) == 0) {
        throw new IllegalStateException("cannot download " + what + ": " + uri + " gave an empty file; " + advice);
      }
      String expected = pinned.isPresent() ? pinned.get() : publishedSha1(path, what, advice);
      String actual = sha1(partial);
      if (!expected.equals(actual)) {
        throw new IllegalStateException(what + " from " + uri + " has SHA-1 " + actual + ", not the "
            + (pinned.isPresent() ? "pinned " : "published ") + expected + ": not used; " + advice);
      }
      Files.writeString(local.resolveSibling(local.getFileName() + ".sha1"), expected);
      Files.move(partial, local, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      partial = null;
      return local;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot download " + what + " from " + uri + "; " + advice, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while downloading " + uri, e);
    } finally {
      deleteQuietly(partial);
    }
  }

  /** The SHA-1 that Maven kept beside {@code local}, else the one the repository publishes for {@code path}. */
  String expectedSha1(String path, Path local, String what, String advice) {
    Path sidecar = local.resolveSibling(local.getFileName() + ".sha1");
    try {
      return Files.isRegularFile(sidecar) ? firstWord(Files.readString(sidecar)) : publishedSha1(path, what, advice);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + sidecar, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking " + local, e);
    }
  }

  private String publishedSha1(String path, String what, String advice) throws IOException, InterruptedException {
    URI uri = uri(path + ".sha1");
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("cannot check " + what + ": HTTP " + response.statusCode()
          + " for its SHA-1 at " + uri + "; " + advice);
    }
    return firstWord(response.body());
  }

  /** A checksum file holds the hex digest, sometimes followed by the file's name. */
  private static String firstWord(String text) {
    return text.strip().split("\\s+")[0].toLowerCase(Locale.ROOT);
  }

  /** The file's SHA-1 in lower-case hex, or {@code ""} when it cannot be read. */
  static String sha1OrNothing(Path file) {
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
      return HexFormat.of().formatHex(digest.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.debug("cannot delete {}: {}", file, e.toString());
    }
  }
}
