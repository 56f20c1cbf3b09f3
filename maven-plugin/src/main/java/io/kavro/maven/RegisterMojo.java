package io.kavro.maven;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.contract.DataContract;
import io.kavro.schematools.SchemaFileException;
import io.kavro.schematools.SchemaImports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * Avro finds it; the other subjects are still registered, but for those whose {@code <references>} name a subject
 * that failed: they are not, so that none takes the old version of a type that just failed. The metadata and rules
 * of every subject are built and checked before the first subject is registered, so that a wrong {@code <rule>}
 * registers nothing; a registry that keeps none of them (Apicurio ignores both, without an error) gets a warning
 * naming the subject.
 */
@Mojo(name = "register", threadSafe = true)
public final class RegisterMojo extends SubjectSchemasMojo {
  /** Whether the registry normalizes the schemas before registering them and looking them up. */
  @Parameter(defaultValue = "false")
  boolean normalizeSchemas;

  /**
   * Each subject's metadata, registered with its schema (a data contract): {@code <properties>}, {@code <tags>} by
   * field path ({@code <_x2A_x2A.ssn><tag>PII</tag></_x2A_x2A.ssn>}) and {@code <sensitive>}.
   */
  @Parameter
  Map<String, Metadata> metadata;

  /** Each subject's rules, registered with its schema (a data contract). */
  @Parameter
  Map<String, RuleSet> ruleSet;

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    List<SubjectFile> files = subjectFiles();
    // Every contract is built, and checked, before anything is registered.
    Map<String, DataContract> contracts = Contracts.of(metadata, ruleSet,
        files.stream().map(SubjectFile::subject).toList(), this::subject);
    List<String> problems = new ArrayList<>();
    Set<String> failed = new HashSet<>();
    try (SchemaRegistryClient registry = registry(normalizeSchemas)) {
      for (SubjectFile subject : files) {
        // A subject after the subjects its references name: one of them failed, so it would take a stale version.
        var broken = subject.references().stream().filter(r -> failed.contains(r.subject())).findFirst();
        if (broken.isPresent()) {
          problems.add(subject.describe(basedir.toPath()) + " was not registered: its reference "
              + broken.get().name() + " names subject '" + broken.get().subject() + "', which failed");
          failed.add(subject.subject());
        } else if (!register(registry, subject, contracts.getOrDefault(subject.subject(), DataContract.NONE),
            problems)) {
          failed.add(subject.subject());
        }
      }
    }
    Failures.failIfAny("register failed for " + problems.size() + " of " + files.size() + " subject(s)", problems);
  }

  /** Registers one subject's schema and prints its id and version; or adds why not to {@code problems}. */
  private boolean register(SchemaRegistryClient registry, SubjectFile subject, DataContract contract,
      List<String> problems) {
    Path base = basedir.toPath();
    SchemaImports.Resolved resolved = null;
    try {
      resolved = resolve(registry, subject, SchemaImports.ImportedFiles.REGISTER);
      int id = registry.register(subject.subject(), resolved.schema(), resolved.references(), contract);
      getLog().info("Registered " + subject.describe(base) + ": " + version(registry, subject.subject(), id)
          + ", id " + id + (resolved.references().isEmpty() ? "" : ", references " + resolved.references().stream()
              .map(r -> r.name() + "=" + r.subject() + ":" + r.version()).collect(Collectors.joining(", ")))
          + (contract.equals(DataContract.NONE) ? "" : ", with " + Contracts.describe(contract)));
      if (!contract.equals(DataContract.NONE)) {
        Optional<String> dropped = dropped(registry, subject.subject(), contract, id);
        if (dropped.isPresent()) {
          problems.add(dropped.get());
          return false;
        }
      }
      return true;
    } catch (IncompatibleSchemaException e) {
      problems.add(subject.describe(base) + " is incompatible: " + reasons(registry, subject.subject(), resolved,
          e));
    } catch (SchemaFileException | InvalidSchemaException e) {
      problems.add(subject.describe(base) + ": " + Failures.describe(e));
    }
    return false;
  }

  /**
   * "version 3", the version with the id the registration answered. The schema is registered whatever this read
   * finds, so a failure of the read is said, not thrown: the other subjects are still registered.
   */
  private static String version(SchemaRegistryClient registry, String subject, int id) {
    try {
      return Versions.withId(registry, subject, id).map(v -> "version " + v.version())
          .orElse("version unknown (no version of the subject has the id)");
    } catch (SchemaRegistryException e) {
      return "version unknown (" + Failures.describe(e) + ")";
    }
  }

  /**
   * The error when the registry kept none of the metadata or rules sent ({@link DataContract#droppedBy}); a failed
   * read of them is a warning, as whether they were kept is then unknown.
   */
  private Optional<String> dropped(SchemaRegistryClient registry, String subject, DataContract sent, int id) {
    try {
      return sent.droppedBy(registry.contractOf(id), subject, id);
    } catch (SchemaRegistryException e) {
      getLog().warn("cannot read back the metadata and rules of subject '" + subject + "' (id " + id + "): "
          + Failures.describe(e));
      return Optional.empty();
    }
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
