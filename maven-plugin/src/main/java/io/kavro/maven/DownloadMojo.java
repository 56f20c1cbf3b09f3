package io.kavro.maven;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code download}: the subjects whose names match {@code subjectPatterns} (whole-name Java regular expressions) or
 * are among {@code subjectNames} (literal names: {@code a+b} is the subject {@code a+b}), each written to
 * {@code outputDirectory} as {@code <subject><schemaExtension>}: the latest version, or the one {@code versions}
 * gives for its pattern or name. Each file is self-contained: the types the version takes from other subjects (its
 * references) are written in it, so that avro-maven-plugin reads it alone. Two subjects that take different
 * versions of one referenced type therefore hold two definitions of it, which avro-maven-plugin refuses ("Can't
 * redefine") when both files are in one source folder. Patterns that match no subject write nothing, as in
 * Confluent's plugin, with a warning, and so does a name the registry does not have. A file is never written
 * outside {@code outputDirectory}, and two subjects whose names make one file's name ({@code pk-a/b} and
 * {@code pk-a_x2Fb} with {@code encodeSubject}), or names that macOS and Windows take for one file's
 * ({@code Orders-value} and {@code orders-value}: they differ only in case or Unicode normalization), fail the goal
 * naming both; either way, and when a version is missing, before any file is written.
 */
@Mojo(name = "download", threadSafe = true)
public final class DownloadMojo extends RegistryMojo {
  /** Java regular expressions; a subject is downloaded when one matches its whole name. */
  @Parameter
  List<String> subjectPatterns;

  /** Subjects by their exact names, which may hold what a regular expression would read ({@code a+b}). */
  @Parameter
  List<String> subjectNames;

  /**
   * One version per pattern, then one per name, a number or {@code latest}; every subject's latest when absent.
   */
  @Parameter
  List<String> versions;

  /** Where the files are written; created when missing. */
  @Parameter(required = true)
  File outputDirectory;

  /** The files' extension. */
  @Parameter(defaultValue = ".avsc")
  String schemaExtension;

  /** Whether a subject's name is escaped for its file's name ({@code a/b} is {@code a_x2Fb}). */
  @Parameter(defaultValue = "true")
  boolean encodeSubject;

  @Override
  void run() throws MojoExecutionException {
    List<Pattern> patterns = patterns();
    List<Integer> wanted = versions(patterns.size());
    Path output = path(outputDirectory).normalize();
    try (SchemaRegistryClient registry = registry(false)) {
      List<String> subjects = registry.subjects();
      List<Download> downloads = plan(subjects, patterns, wanted, output);
      // Every version is read before the first file is written, so that a missing one writes nothing.
      Map<Download, SubjectVersion> found = new LinkedHashMap<>();
      for (Download download : downloads) {
        found.put(download, read(registry, download.subject(), download.version()));
      }
      for (Map.Entry<Download, SubjectVersion> entry : found.entrySet()) {
        write(entry.getKey().subject(), entry.getValue(), entry.getKey().file(), output);
      }
      if (downloads.isEmpty()) {
        getLog().warn("No subject of the registry's " + subjects.size() + " matches <subjectPatterns> "
            + Objects.requireNonNullElse(subjectPatterns, List.of()) + " or <subjectNames> "
            + Objects.requireNonNullElse(subjectNames, List.of()));
      }
    }
  }

  /** A subject to download, its version (0 for the latest) and the file it is written to. */
  private record Download(String subject, int version, Path file) {}

  /**
   * The subjects to download, decided whole: a file two subjects would share fails the goal before anything is
   * written, and so do two files whose names differ only in case or in Unicode normalization, which are one file on
   * macOS and Windows. Warns of each pattern and name that matches nothing.
   */
  private List<Download> plan(List<String> subjects, List<Pattern> patterns, List<Integer> wanted, Path output)
      throws MojoExecutionException {
    Map<String, Download> downloads = new LinkedHashMap<>(); // by the file's name as any file system reads it
    boolean[] matched = new boolean[patterns.size()];
    for (String subject : subjects) {
      int first = -1; // the first pattern or name that matches gives the version; each one that matches is used
      for (int i = 0; i < patterns.size(); i++) {
        if (patterns.get(i).matcher(subject).matches()) {
          matched[i] = true;
          first = first < 0 ? i : first;
        }
      }
      if (first < 0) {
        continue;
      }
      Path file = file(subject, output);
      Download other = downloads.putIfAbsent(sameFile(file), new Download(subject, wanted.get(first), file));
      if (other != null) {
        String where = other.file().equals(file)
            ? "would both be written to " + file + (encodeSubject ? " (<encodeSubject> escapes both names alike)" : "")
            : "would be written to " + other.file() + " and " + file + ", one file on file systems that ignore case "
                + "or Unicode normalization (macOS, Windows)";
        throw new MojoExecutionException("subjects '" + other.subject() + "' and '" + subject + "' " + where
            + "; nothing was written: download them to separate <outputDirectory> folders, or match one of them "
            + "only");
      }
    }
    warnOfUnmatched(matched, subjects.size());
    return List.copyOf(downloads.values());
  }

  /** A warning for each pattern and each name that matched no subject, when some other one did. */
  private void warnOfUnmatched(boolean[] matched, int subjects) {
    int patternCount = subjectPatterns == null ? 0 : subjectPatterns.size();
    boolean any = false;
    for (boolean m : matched) {
      any |= m;
    }
    if (!any) {
      return; // one warning says that nothing matched
    }
    for (int i = 0; i < matched.length; i++) {
      if (!matched[i]) {
        getLog().warn(i < patternCount
            ? "<subjectPatterns>: '" + subjectPatterns.get(i) + "' matches no subject of the registry's " + subjects
            : "<subjectNames>: the registry has no subject '" + subjectNames.get(i - patternCount)
                + "'; nothing was written for it");
      }
    }
  }

  /** The patterns, then the names as patterns that match themselves only. */
  private List<Pattern> patterns() throws MojoExecutionException {
    List<String> given = subjectPatterns == null ? List.of() : subjectPatterns;
    List<String> names = subjectNames == null ? List.of() : subjectNames;
    if (given.isEmpty() && names.isEmpty()) {
      throw new MojoExecutionException("<subjectPatterns> and <subjectNames> name no subject: give <subjectPatterns>"
          + "<param>orders-.*</param></subjectPatterns> or <subjectNames><param>orders-value</param></subjectNames>");
    }
    List<Pattern> patterns = new ArrayList<>();
    for (String pattern : given) {
      try {
        patterns.add(Pattern.compile(pattern));
      } catch (PatternSyntaxException e) {
        throw new MojoExecutionException("<subjectPatterns>: '" + pattern + "' is not a Java regular expression: "
            + e.getDescription());
      }
    }
    for (String name : names) {
      patterns.add(Pattern.compile(Pattern.quote(name)));
    }
    return patterns;
  }

  /** The version of each pattern: 0 for the latest. */
  private List<Integer> versions(int patterns) throws MojoExecutionException {
    List<Integer> numbers = new ArrayList<>();
    if (versions == null || versions.isEmpty()) {
      for (int i = 0; i < patterns; i++) {
        numbers.add(0);
      }
      return numbers;
    }
    if (versions.size() != patterns) {
      throw new MojoExecutionException("<versions> has " + versions.size() + " entries and <subjectPatterns> with "
          + "<subjectNames> " + patterns + ": give one version per pattern, then one per name");
    }
    for (String version : versions) {
      String v = version == null ? "" : version.strip().toLowerCase(Locale.ROOT);
      if (v.equals("latest")) {
        numbers.add(0);
      } else if (v.matches("[1-9][0-9]{0,8}")) {
        numbers.add(Integer.parseInt(v));
      } else {
        throw new MojoExecutionException("<versions>: '" + version + "' is neither a version from 1 nor latest");
      }
    }
    return numbers;
  }

  /**
   * What names one file on every file system: {@code file} in Unicode's composed form (NFC; macOS decomposes
   * names) and lower case ({@code Orders-value.avsc} is {@code orders-value.avsc} on macOS and Windows).
   */
  private static String sameFile(Path file) {
    return Normalizer.normalize(file.toString(), Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
  }

  /** The file a subject is written to, under {@code output}. */
  private Path file(String subject, Path output) throws MojoExecutionException {
    Path file = output.resolve((encodeSubject ? SubjectEscapes.encode(subject) : subject) + schemaExtension)
        .normalize();
    if (!file.startsWith(output) || file.equals(output)) {
      throw new MojoExecutionException("subject '" + subject + "' would be written to " + file + ", outside "
          + "<outputDirectory> " + output + ": keep <encodeSubject> true for such subjects");
    }
    return file;
  }

  private static SubjectVersion read(SchemaRegistryClient registry, String subject, int version)
      throws MojoExecutionException {
    try {
      return version == 0 ? registry.latestVersion(subject) : registry.version(subject, version);
    } catch (SchemaNotFoundException e) {
      throw new MojoExecutionException("subject '" + subject + "' has no " + (version == 0 ? "latest version"
          : "version " + version) + ": " + Failures.describe(e) + "; nothing was written", e);
    }
  }

  private void write(String subject, SubjectVersion found, Path file, Path output) throws MojoExecutionException {
    try {
      Files.createDirectories(output);
      Files.writeString(file, found.schema().toString(true) + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("cannot write subject '" + subject + "' to " + file + ": " + e, e);
    }
    getLog().info("Downloaded subject '" + subject + "' version " + found.version() + " (id " + found.id() + ") to "
        + file);
  }
}
