package io.kavro.maven;

import io.kavro.registry.HeldSchemas;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.schematools.SchemaFileException;
import io.kavro.schematools.SchemaFiles;
import io.kavro.schematools.SchemaImports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code validate}: each subject's schema file is an Avro schema that every Avro line Kavro supports (1.11.4 to
 * 1.12.2) parses, with its types from the {@code imports} directory and its {@code references}: it is parsed
 * as Avro 1.12.2, the strictest of them, parses it, defaults checked. A file that Avro 1.12.2 refuses but a
 * registry holds and Kavro reads (a named type referenced as an object, {@code {"type":"ns.Name"}}, AVRO-4176; a
 * default that does not match its type) passes with a warning that says which. No registry is needed unless a
 * reference names a version that no subject's file is: a reference to the latest version of a subject in
 * {@code <subjects>} takes that subject's file.
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
        try {
          schemas.resolve(subject, SchemaImports.Reading.STRICT);
          getLog().info(subject.describe(base) + " is a valid Avro schema");
        } catch (SchemaFileException | InvalidSchemaException e) {
          String refused = Failures.describe(e);
          if (refusedAlone(subject.file(), refused) && readAsHeld(subject.file())) {
            getLog().warn(subject.describe(base) + ": Avro 1.12.2 refuses it (" + refused + "), though Avro 1.11.4 "
                + "to 1.12.1, registries and Kavro read it: " + form(subject.file()));
          } else {
            problems.add(subject.describe(base) + ": " + refused);
          }
        }
      }
    }
    Failures.failIfAny(problems.size() + " of " + files.size() + " schema file(s) are not valid", problems);
  }

  /**
   * Whether Avro 1.12.2 refuses the file alone for the reason {@code refused}: if not, what failed was something
   * else (a file in the imports, a reference), and that is reported as it is, not as Avro's strictness.
   */
  private static boolean refusedAlone(Path file, String refused) {
    try {
      SchemaFiles.parse(new Schema.Parser(), file.toString(), SchemaFiles.read(file.toString(), file));
      return false;
    } catch (AvroRuntimeException | SchemaFileException e) {
      return Failures.describe(e).equals(refused);
    }
  }

  /** Whether the file is a schema as a registry holds it and Kavro reads it, alone. */
  private static boolean readAsHeld(Path file) {
    try {
      HeldSchemas.parse(SchemaFiles.read(file.toString(), file));
      return true;
    } catch (AvroRuntimeException | SchemaFileException e) {
      return false;
    }
  }

  private static String form(Path file) {
    return HeldSchemas.referencesNamesAsObjects(SchemaFiles.read(file.toString(), file))
        ? "it references a named type as an object, {\"type\":\"ns.Name\"} (AVRO-4176); write the name alone, "
            + "\"ns.Name\", for consumers on Avro 1.12.2"
        : "a default does not match its field's type; fix the default for consumers on Avro 1.12.2";
  }
}
