package io.kavro.maven;

import io.kavro.registry.factory.HeldSchemas;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.schematools.SchemaFileException;
import io.kavro.schematools.SchemaFiles;
import io.kavro.schematools.SchemaImports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code validate}: each subject's schema file is one that {@code register} would send: an Avro schema that every
 * Avro line Kavro supports (1.11.4 to 1.12.2) parses, with its types from the {@code imports} directory and its
 * {@code references}. It is parsed as {@code register} parses it, as Avro 1.12.2, the strictest of them, with
 * defaults checked. A file that Avro 1.12.2 refuses though some registries would hold it (a named type referenced
 * as an object, {@code {"type":"ns.Name"}}, AVRO-4176; a default that does not match its type) fails, as it
 * fails {@code register}, with what to change, whether it is the subject's file or one it imports; versions
 * fetched from the registry for references are read as registries hold them, as {@code register} reads them. No
 * registry is needed unless a reference names a version that no subject's file is: a reference to the latest
 * version of a subject in {@code <subjects>} takes that subject's file.
 */
@Mojo(name = "validate", threadSafe = true)
public final class ValidateMojo extends SubjectSchemasMojo {
  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    List<SubjectFile> files = subjectFiles();
    Path base = basedir.toPath();
    List<String> problems = new ArrayList<>();
    try (SchemaRegistryClient registry = LocalSchemas.needsRegistry(files) ? registry(false) : null) {
      LocalSchemas schemas = localSchemas(files, Optional.ofNullable(registry));
      for (SubjectFile subject : files) {
        validate(schemas, subject, base).ifPresent(problems::add);
      }
    }
    Failures.failIfAny(problems.size() + " of " + files.size() + " schema file(s) are not valid", problems);
  }

  /**
   * Decides on the subject's resolved text as {@code register} does: strictly, as Avro 1.12.2 reads it. When that
   * fails, reading it as registries hold it tells which failure to name: one that remains when Avro 1.12.2's
   * strictness is set aside is the real reason; one that does not is Avro 1.12.2's, named with what to change.
   *
   * @return the problem, or empty when the subject's schema is valid
   */
  private Optional<String> validate(LocalSchemas schemas, SubjectFile subject, Path base) {
    SchemaFileException strict;
    try {
      schemas.resolve(subject, SchemaImports.Reading.STRICT);
      getLog().info(subject.describe(base) + " is a valid Avro schema");
      return Optional.empty();
    } catch (SchemaFileException e) {
      strict = e;
    }
    try {
      schemas.resolve(subject, SchemaImports.Reading.AS_HELD);
    } catch (SchemaFileException held) {
      // What remains when Avro 1.12.2's strictness is set aside is the real reason.
      return Optional.of(subject.describe(base) + ": " + held.getMessage());
    }
    Optional<Path> refused = strict.file();
    if (refused.isEmpty()) {
      return Optional.of(subject.describe(base) + ": " + strict.getMessage());
    }
    Path file = refused.get();
    String which = file.toAbsolutePath().normalize().equals(subject.file().toAbsolutePath().normalize()) ? "it"
        : shown(base, file) + ", which it uses";
    return Optional.of(subject.describe(base) + ": Avro 1.12.2 refuses " + which + " (" + strict.getMessage()
        + "), and so does register, whatever the registry would take: " + form(file, strict));
  }

  /** What to change, from what Avro refused and the file's text. */
  private static String form(Path file, SchemaFileException strict) {
    if (String.valueOf(strict.getMessage()).contains("Invalid default")) {
      return "a default does not match its field's type; fix the default (a reader that needs it would fail)";
    }
    if (HeldSchemas.referencesNamesAsObjects(SchemaFiles.read(file.toString(), file))) {
      return "it references a named type as an object, {\"type\":\"ns.Name\"} (AVRO-4176); write the name alone, "
          + "\"ns.Name\", which is the same schema";
    }
    return "change it as Avro 1.12.2 says";
  }
}
