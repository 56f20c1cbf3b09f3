package io.kavro.maven;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * Confluent's plugin. A file is never written outside {@code outputDirectory}.
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
    Path output = path(outputDirectory);
    try (SchemaRegistryClient registry = registry(false)) {
      List<String> subjects = registry.subjects();
      int written = 0;
      for (String subject : subjects) {
        for (int i = 0; i < patterns.size(); i++) {
          if (patterns.get(i).matcher(subject).matches()) {
            write(registry, subject, wanted.get(i), output);
            written++;
            break;
          }
        }
      }
      if (written == 0) {
        getLog().warn("No subject of the registry's " + subjects.size() + " matches <subjectPatterns> "
            + Objects.requireNonNullElse(subjectPatterns, List.of()) + " or <subjectNames> "
            + Objects.requireNonNullElse(subjectNames, List.of()));
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

  private void write(SchemaRegistryClient registry, String subject, int version, Path output)
      throws MojoExecutionException {
    SubjectVersion found;
    try {
      found = version == 0 ? registry.latestVersion(subject) : registry.version(subject, version);
    } catch (SchemaNotFoundException e) {
      throw new MojoExecutionException("subject '" + subject + "' has no " + (version == 0 ? "latest version"
          : "version " + version) + ": " + Failures.describe(e), e);
    }
    Path file = output.resolve((encodeSubject ? SubjectNames.encode(subject) : subject) + schemaExtension)
        .normalize();
    if (!file.startsWith(output.normalize()) || file.equals(output.normalize())) {
      throw new MojoExecutionException("subject '" + subject + "' would be written to " + file + ", outside "
          + "<outputDirectory> " + output + ": keep <encodeSubject> true for such subjects");
    }
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
