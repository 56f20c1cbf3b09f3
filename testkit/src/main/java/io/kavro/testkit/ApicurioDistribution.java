package io.kavro.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
  static final String REPOSITORY_PROPERTY = MavenRemote.PROPERTY;

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
        System.getProperty(REPOSITORY_PROPERTY, MavenRemote.CENTRAL));
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
   * The archive in the local Maven repository, downloaded into it when missing ({@link MavenRemote}), and checked
   * against the SHA-1 that the repository publishes beside it (the local {@code .sha1} that Maven kept, else the
   * remote's): a truncated or tampered archive is downloaded again, never run.
   */
  private static Path archive(String version, Path localRepository, String remote) {
    String name = "apicurio-registry-app-" + version + "-all.tar.gz";
    String path = "io/apicurio/apicurio-registry-app/" + version + "/" + name;
    String what = "the Apicurio Registry distribution";
    String advice = "set -D" + HOME_PROPERTY + " to an unpacked copy";
    Path local = localRepository.resolve(path);
    MavenRemote repository = new MavenRemote(remote);
    if (Files.isRegularFile(local)) {
      if (repository.expectedSha1(path, local, what, advice).equals(MavenRemote.sha1OrNothing(local))) {
        return local;
      }
      log.warn("{} does not match its published SHA-1: downloading it again", local);
    }
    return repository.download(path, local, what, advice);
  }

  /** The archive's size in MB (10^6 bytes), as the docs give it. */
  private static long archiveMegabytes(Path archive) {
    try {
      return Files.size(archive) / 1_000_000;
    } catch (IOException e) {
      return -1;
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
        Folders.deleteQuietly(staging); // ours is not needed, or not usable
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
