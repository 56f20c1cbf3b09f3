package io.kavro.maven;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.schematools.SchemaFileException;
import io.kavro.schematools.SchemaImports;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The subjects' schemas, whole, for the goals that read them and register nothing ({@code validate},
 * {@code test-compatibility}): each subject decided on its own. Imported files are only read, never registered or
 * looked up, so they need no registry. A reference to the latest version of a subject that is itself in
 * {@code <subjects>} takes that subject's file (the version {@code register} would create); any other reference is
 * fetched from the registry, and one that the registry does not have is that subject's problem, named.
 */
final class LocalSchemas {
  private final Map<String, SubjectFile> bySubject = new LinkedHashMap<>();
  private final Optional<Path> importsDir;
  private final Optional<SchemaRegistryClient> registry;

  /**
   * The schemas of {@code files}, with their imports and references.
   *
   * @param files every subject of {@code <subjects>}
   * @param importsDir the imports directory, if any
   * @param registry where references are fetched, present when {@link #needsRegistry} says so
   */
  LocalSchemas(List<SubjectFile> files, Optional<Path> importsDir, Optional<SchemaRegistryClient> registry) {
    files.forEach(file -> bySubject.put(file.subject(), file));
    this.importsDir = Objects.requireNonNull(importsDir, "importsDir");
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** Whether a subject's reference names a version that only a registry has: one of no subject in the list. */
  static boolean needsRegistry(List<SubjectFile> files) {
    return files.stream().flatMap(file -> file.references().stream())
        .anyMatch(reference -> reference.version() != 0
            || files.stream().noneMatch(file -> file.subject().equals(reference.subject())));
  }

  /**
   * The subject's schema, whole.
   *
   * @param reading strictly (Avro 1.12.2) or as registries hold it
   * @throws SchemaFileException naming the file or the reference that failed
   */
  SchemaImports.Resolved resolve(SubjectFile subject, SchemaImports.Reading reading) {
    return SchemaImports.reading(PluginImports.LABELS, (referenced, version) -> find(subject, referenced, version,
        reading)).withReading(reading).resolve(subject.file(), subject.references(), importsDir);
  }

  private SchemaImports.Referenced find(SubjectFile referrer, String subject, int version,
      SchemaImports.Reading reading) {
    SubjectFile file = bySubject.get(subject);
    if (version == 0 && file != null) {
      return new SchemaImports.Referenced(0, resolve(file, reading).schema());
    }
    String which = "<reference> to subject '" + subject + "' " + (version == 0 ? "(latest)" : "version " + version);
    SchemaRegistryClient client = registry.orElseThrow(() -> new IllegalStateException(which + " of subject '"
        + referrer.subject() + "' needs the registry, which was not opened"));
    try {
      return SchemaImports.ReferencedVersions.in(client).find(subject, version);
    } catch (SchemaNotFoundException e) {
      throw new SchemaFileException(which + ": " + Failures.describe(e));
    }
  }
}
