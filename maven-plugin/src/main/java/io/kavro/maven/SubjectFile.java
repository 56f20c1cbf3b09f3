package io.kavro.maven;

import io.kavro.schematools.SchemaImports;
import java.nio.file.Path;
import java.util.List;

/**
 * A subject of {@code <subjects>}, its schema file and the references its schema is registered with.
 *
 * @param subject the subject, decoded
 * @param file the schema file
 * @param references the types its schema takes from other subjects' versions
 */
record SubjectFile(String subject, Path file, List<SchemaImports.Wanted> references) {
  /** Copies the references. */
  SubjectFile {
    references = List.copyOf(references);
  }

  /** "subject 'orders-value' (src/main/avro/order.avsc)", the file from {@code base}. */
  String describe(Path base) {
    return "subject '" + subject + "' (" + KavroMojo.shown(base, file) + ")";
  }
}
