package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is the map of the documentation (issue 34): every page under docs/ is linked from it and links back
 * to it, and every relative link of the README and the pages reaches a file that exists and, when it names an
 * anchor, a heading of that file.
 */
class DocsLinksTest {
  private static final Path ROOT = Path.of("..");
  private static final Path README = ROOT.resolve("README.md");
  private static final Path DOCS = ROOT.resolve("docs");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final String BACK = "[Back to the README](../README.md)";

  @Test
  void everyDocsPage_isLinkedFromTheReadme() throws IOException {
    Set<Path> linked = new HashSet<>();
    for (String target : links(README)) {
      linked.add(README.resolveSibling(target.replaceFirst("#.*", "")).normalize());
    }

    assertThat(pages()).hasSizeGreaterThanOrEqualTo(15)
        .allSatisfy(page -> assertThat(linked).as("README.md links to " + page).contains(page.normalize()));
  }

  @Test
  void everyDocsPage_endsWithALinkBackToTheReadme() throws IOException {
    for (Path page : pages()) {
      String text = Files.readString(page).strip();
      assertThat(text.substring(text.lastIndexOf('\n') + 1)).as("last line of " + page).isEqualTo(BACK);
    }
  }

  @Test
  void everyRelativeLink_reachesAFileAndItsAnchor() throws IOException {
    List<Path> files = new ArrayList<>(pages());
    files.add(README);
    List<String> broken = new ArrayList<>();
    for (Path file : files) {
      for (String target : links(file)) {
        String path = target.replaceFirst("#.*", "");
        String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
        Path resolved = path.isEmpty() ? file : file.resolveSibling(path).normalize();
        if (!Files.exists(resolved)) {
          broken.add(file + ": " + target + " (no such file)");
        } else if (anchor != null && !anchors(resolved).contains(anchor)) {
          broken.add(file + ": " + target + " (no such heading)");
        }
      }
    }

    assertThat(broken).isEmpty();
  }

  private static List<Path> pages() throws IOException {
    try (Stream<Path> list = Files.list(DOCS)) {
      return list.filter(path -> path.toString().endsWith(".md")).sorted().toList();
    }
  }

  /** The relative link targets of a Markdown file, outside code blocks and code spans. */
  private static List<String> links(Path file) throws IOException {
    List<String> targets = new ArrayList<>();
    for (String line : prose(file)) {
      Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", ""));
      while (link.find()) {
        String target = link.group(1);
        if (!target.matches("[a-z]+:.*")) {
          targets.add(target);
        }
      }
    }
    return targets;
  }

  /** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
  private static Set<String> anchors(Path file) throws IOException {
    Set<String> anchors = new HashSet<>();
    if (file.toString().endsWith(".md")) {
      for (String line : prose(file)) {
        if (line.startsWith("#")) {
          String slug = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
          String unique = slug;
          for (int n = 1; !anchors.add(unique); n++) {
            unique = slug + "-" + n;
          }
        }
      }
    }
    return anchors;
  }

  /** The lines of a Markdown file that are not inside a fenced code block. */
  private static List<String> prose(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(file)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        lines.add(line);
      }
    }
    return lines;
  }
}
