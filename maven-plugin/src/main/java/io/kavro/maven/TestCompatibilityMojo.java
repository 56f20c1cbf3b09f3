package io.kavro.maven;

import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.schematools.SchemaFileException;
import io.kavro.schematools.SchemaImports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code test-compatibility}: can each subject take its schema file, at the level the registry applies to it? The
 * registry answers, and says which level it applied and whether it is the subject's own or the global one; a
 * failure gives the registry's reasons and Avro's, which name the field. A registry tests against the latest
 * version only, even at a {@code _TRANSITIVE} level (where registering tests every version): at such a level
 * Avro reads every version as well, so that what {@code register} would refuse fails here too (Avro's judgement,
 * which a registry's own checker may not share exactly), unless {@code compatibilityGroup} is given. A subject
 * that does not exist yet has nothing to be compatible with, and passes.
 */
@Mojo(name = "test-compatibility", threadSafe = true)
public final class TestCompatibilityMojo extends SubjectSchemasMojo {
  /** Whether each subject's result is printed with the level applied, compatible or not. */
  @Parameter(defaultValue = "true")
  boolean verbose;

  /**
   * The metadata property that splits the subjects' versions into compatibility groups, when the registry's
   * configuration names one ({@code compatibilityGroup}): a transitive level is then checked within the latest
   * version's group, which the registry does, so Kavro does not read every version.
   */
  @Parameter
  String compatibilityGroup;

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    List<SubjectFile> files = subjectFiles();
    Path base = basedir.toPath();
    List<String> problems = new ArrayList<>();
    try (SchemaRegistryClient registry = registry(false)) {
      LocalSchemas schemas = localSchemas(files, Optional.of(registry));
      for (SubjectFile subject : files) {
        try {
          // The whole schema is what a registry tests; the imported files need not be registered for that.
          SchemaImports.Resolved resolved = schemas.resolve(subject, SchemaImports.Reading.STRICT);
          String problem = problem(registry, subject, resolved);
          if (problem != null) {
            problems.add(subject.describe(base) + " " + problem);
          }
        } catch (SchemaFileException | InvalidSchemaException e) {
          problems.add(subject.describe(base) + ": " + Failures.describe(e));
        }
      }
    }
    Failures.failIfAny(problems.size() + " of " + files.size() + " schema(s) are incompatible with their subjects",
        problems);
  }

  /** Why the subject cannot take the schema, or {@code null} when it can. */
  private String problem(SchemaRegistryClient registry, SubjectFile subject, SchemaImports.Resolved resolved) {
    Path base = basedir.toPath();
    CompatibilityInForce level;
    CompatibilityCheck check;
    try {
      level = registry.compatibilityInForce(subject.subject());
      check = registry.checkCompatibility(subject.subject(), resolved.schema());
    } catch (SchemaNotFoundException e) {
      getLog().info(subject.describe(base) + ": the subject has no version yet, so nothing to be compatible with");
      return null;
    }
    if (!check.compatible()) {
      String reading = Versions.kavroReading(registry, subject.subject(), level, resolved.schema());
      List<String> reasons = new ArrayList<>(check.messages());
      if (reading != null && reasons.stream().noneMatch(reason -> reason.contains(reading))) {
        reasons.add(reading);
      }
      return "is not compatible at " + level + (reasons.isEmpty() ? "" : ": " + String.join("; ", reasons));
    }
    if (level.level().transitive() && (compatibilityGroup == null || compatibilityGroup.isBlank())) {
      String reading = Versions.kavroReading(registry, subject.subject(), level, resolved.schema());
      if (reading != null) {
        String prefix = level.level() + ": ";
        return "is not compatible at " + level + ": the registry's test passes against the latest version, but Avro "
            + "finds that the " + (reading.startsWith(prefix) ? reading.substring(prefix.length()) : reading)
            + "; a transitive registry would refuse it";
      }
    }
    if (verbose) {
      getLog().info(subject.describe(base) + " is compatible at " + level);
    }
    return null;
  }
}
