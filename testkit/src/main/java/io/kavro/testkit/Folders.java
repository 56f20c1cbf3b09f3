package io.kavro.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The testkit's temporary folders. */
final class Folders {
  private Folders() {}

  /**
   * Deletes {@code root} and everything under it, as far as it can: a leftover temporary folder is not worth
   * failing for. Nothing happens when {@code root} is null or absent.
   */
  static void deleteQuietly(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> tree = Files.walk(root)) {
      tree.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // left over
    }
  }
}
