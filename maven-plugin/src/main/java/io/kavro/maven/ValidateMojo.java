package io.kavro.maven;

import io.kavro.registry.HeldSchemas;
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
 * {@code validate}: each subject's schema file is an Avro schema that every Avro line Kavro supports (1.11.4 to
 * 1.12.2) parses, with its types from the {@code imports} directory and its {@code references}: it is parsed
 * as Avro 1.12.2, the strictest of them, parses it, defaults checked. A file that Avro 1.12.2 refuses but a
 * registry holds and Kavro reads (a named type referenced as an object, {@code {"type":"ns.Name"}}, AVRO-4176; a
 * default that does not match its type) passes with a warning that says which, whether it is the subject's file
 * or one it imports. No registry is needed unless a reference names a version that no subject's file is: a
 * reference to the latest version of a subject in {@code <subjects>} takes that subject's file.
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
   * Decides on the subject's resolved text: strictly, as Avro 1.12.2 reads it; when that fails, as registries hold
   * it. Only a strict failure of one file that reading as held then takes is a warning; anything else is the
   * subject's problem, in the words of the failure that remains.
   *
   * @return the problem, or empty when the subject's schema is valid, with or without a warning
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
        : (file.startsWith(base) ? base.relativize(file) : file) + ", which it uses";
    getLog().warn(subject.describe(base) + ": Avro 1.12.2 refuses " + which + " (" + strict.getMessage()
        + "), though Avro 1.11.4 to 1.12.1, registries and Kavro read it: " + form(file, strict));
    return Optional.empty();
  }

  /** What to change for consumers on Avro 1.12.2, from what Avro refused and the file's text. */
  private static String form(Path file, SchemaFileException strict) {
    if (String.valueOf(strict.getMessage()).contains("Invalid default")) {
      return "a default does not match its field's type; fix the default for consumers on Avro 1.12.2";
    }
    if (HeldSchemas.referencesNamesAsObjects(SchemaFiles.read(file.toString(), file))) {
      return "it references a named type as an object, {\"type\":\"ns.Name\"} (AVRO-4176); write the name alone, "
          + "\"ns.Name\", for consumers on Avro 1.12.2";
    }
    return "change it as Avro 1.12.2 says, for consumers on Avro 1.12.2";
  }
}
