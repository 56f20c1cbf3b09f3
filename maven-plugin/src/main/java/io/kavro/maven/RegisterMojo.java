package io.kavro.maven;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.contract.DataContract;
import io.kavro.schematools.SchemaFileException;
import io.kavro.schematools.SchemaImports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code register}: registers each subject's schema file, with its references (by subject and version, or
 * resolved from the {@code imports} directory, each imported file registered first), its {@code metadata} and
 * {@code ruleSet}, and prints each subject's id and version. Registering an unchanged schema again is a no-op. A
 * schema the subject's compatibility level refuses fails the build with the registry's reason and the field, as
 * Avro finds it; the other subjects are still registered.
 */
@Mojo(name = "register", threadSafe = true)
public final class RegisterMojo extends SubjectSchemasMojo {
  /** Whether the registry normalizes the schemas before registering them and looking them up. */
  @Parameter(defaultValue = "false")
  boolean normalizeSchemas;

  /** Each subject's metadata, registered with its schema (a data contract). */
  @Parameter
  Map<String, Metadata> metadata;

  /** Each subject's rules, registered with its schema (a data contract). */
  @Parameter
  Map<String, RuleSet> ruleSet;

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    List<SubjectFile> files = subjectFiles();
    Path base = basedir.toPath();
    List<String> problems = new ArrayList<>();
    try (SchemaRegistryClient registry = registry(normalizeSchemas)) {
      for (SubjectFile subject : files) {
        SchemaImports.Resolved resolved = null;
        try {
          resolved = resolve(registry, subject, SchemaImports.ImportedFiles.REGISTER);
          int id = registry.register(subject.subject(), resolved.schema(), resolved.references(),
              contract(subject.subject()));
          SubjectVersion version = registry.lookup(subject.subject(), resolved.schema(), resolved.references());
          getLog().info("Registered " + subject.describe(base) + ": version " + version.version() + ", id " + id
              + (resolved.references().isEmpty() ? "" : ", references " + resolved.references().stream()
                  .map(r -> r.name() + "=" + r.subject() + ":" + r.version()).collect(Collectors.joining(", "))));
        } catch (IncompatibleSchemaException e) {
          problems.add(subject.describe(base) + " is incompatible: " + reasons(registry, subject.subject(), resolved,
              e));
        } catch (SchemaFileException | InvalidSchemaException e) {
          problems.add(subject.describe(base) + ": " + Failures.describe(e));
        }
      }
    }
    Failures.failIfAny("register failed for " + problems.size() + " of " + files.size() + " subject(s)", problems);
  }

  private DataContract contract(String subject) {
    Metadata m = find(metadata, subject);
    RuleSet r = find(ruleSet, subject);
    if (m == null && r == null) {
      return DataContract.NONE;
    }
    return new DataContract(m == null ? io.kavro.registry.contract.Metadata.EMPTY : m.toContract(subject),
        r == null ? io.kavro.registry.contract.RuleSet.EMPTY : r.toContract(subject));
  }

  private <T> T find(Map<String, T> map, String subject) {
    if (map != null) {
      for (Map.Entry<String, T> entry : map.entrySet()) {
        if (subject(entry.getKey()).equals(subject)) {
          return entry.getValue();
        }
      }
    }
    return null;
  }

  /** The registry's reason, and Avro's, which names the field, where it finds one. */
  private static String reasons(SchemaRegistryClient registry, String subject, SchemaImports.Resolved resolved,
      IncompatibleSchemaException e) {
    String reason = e.reason();
    if (resolved == null) { // an imported file was refused, not the subject's schema
      return reason;
    }
    try {
      String reading = Versions.kavroReading(registry, subject, registry.compatibilityInForce(subject),
          resolved.schema());
      return reading == null ? reason : reason + "; " + reading;
    } catch (SchemaRegistryException again) {
      return reason;
    }
  }
}
