package io.kavro.maven;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.schematools.SchemaImports;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * The goals that take subjects and their schema files, as Confluent's plugin does ({@code register},
 * {@code test-compatibility}, {@code validate}): {@code subjects}, {@code schemaTypes}, {@code references} and
 * {@code decodeSubject}, and Kavro's {@code imports}: a directory of {@code .avsc} files that the schemas' types
 * come from, importing each other, as the console tool's {@code --imports} and avro-maven-plugin's
 * {@code imports} take them.
 */
public abstract class SubjectSchemasMojo extends RegistryMojo {
  /** The schema file of each subject: {@code <orders-value>src/main/avro/order.avsc</orders-value>}. */
  @Parameter(required = true)
  Map<String, File> subjects;

  /** The type of each subject's schema: {@code AVRO}, the default, is the one Kavro's plugin takes. */
  @Parameter
  Map<String, String> schemaTypes;

  /** The types each subject's schema takes from other subjects' versions: a list of {@code <reference>}. */
  @Parameter
  Map<String, References> references;

  /**
   * A directory of {@code .avsc} files that the schemas' types come from; each file a schema needs is registered
   * (or, for the goals that register nothing, looked up) under its type's full name and referenced.
   */
  @Parameter
  File imports;

  /** Whether {@code _x} escapes in the subjects' element names are decoded ({@code my_x2Fsubject}). */
  @Parameter(defaultValue = "true")
  boolean decodeSubject;

  /**
   * A key of one of the maps, as the subject it names.
   *
   * @throws IllegalArgumentException naming the key when it names no subject ({@link SubjectEscapes#subject})
   */
  final String subject(String key) {
    return SubjectEscapes.subject(key, decodeSubject);
  }

  /**
   * The subjects' schemas for the goals that register nothing.
   *
   * @param files every subject of {@code <subjects>}
   * @param registry where references to versions are fetched, when {@link LocalSchemas#needsRegistry} says so
   */
  final LocalSchemas localSchemas(List<SubjectFile> files, Optional<SchemaRegistryClient> registry) {
    return new LocalSchemas(files, Optional.ofNullable(imports).map(this::path), registry);
  }

  /**
   * The subjects in the order to handle them: each after the subjects of {@code <subjects>} its references name,
   * so that a referenced schema is registered before the schema that references it.
   *
   * @throws MojoExecutionException when there is no subject, or the references of the subjects form a cycle
   */
  final List<SubjectFile> subjectFiles() throws MojoExecutionException {
    SchemaTypes.requireAvro(schemaTypes);
    if (subjects == null || subjects.isEmpty()) {
      throw new MojoExecutionException("<subjects> names no subject: give <subjects><orders-value>"
          + "src/main/avro/order.avsc</orders-value></subjects>");
    }
    Map<String, SubjectFile> bySubject = new LinkedHashMap<>();
    for (Map.Entry<String, File> entry : subjects.entrySet()) {
      String subject = subject(entry.getKey());
      if (entry.getValue() == null) {
        throw new MojoExecutionException("<subjects>: subject '" + subject + "' names no file");
      }
      bySubject.put(subject, new SubjectFile(subject, path(entry.getValue()), referencesOf(entry.getKey())));
    }
    List<SubjectFile> ordered = new ArrayList<>();
    Set<String> done = new LinkedHashSet<>();
    for (String subject : bySubject.keySet()) {
      visit(subject, bySubject, done, new LinkedHashSet<>(), ordered);
    }
    return ordered;
  }

  private List<SchemaImports.Wanted> referencesOf(String key) {
    List<SchemaImports.Wanted> wanted = new ArrayList<>();
    if (references != null) {
      for (Map.Entry<String, References> entry : references.entrySet()) {
        if (subject(entry.getKey()).equals(subject(key)) && entry.getValue() != null) {
          for (Reference reference : entry.getValue().list()) {
            wanted.add(reference.wanted(subject(key)));
          }
        }
      }
    }
    return wanted;
  }

  private static void visit(String subject, Map<String, SubjectFile> bySubject, Set<String> done, Set<String> path,
      List<SubjectFile> ordered) throws MojoExecutionException {
    if (done.contains(subject) || !bySubject.containsKey(subject)) {
      return;
    }
    if (!path.add(subject)) {
      throw new MojoExecutionException("<references> form a cycle: " + String.join(" -> ", path) + " -> " + subject);
    }
    for (SchemaImports.Wanted reference : bySubject.get(subject).references()) {
      visit(reference.subject(), bySubject, done, path, ordered);
    }
    path.remove(subject);
    done.add(subject);
    ordered.add(bySubject.get(subject));
  }

  /**
   * The subject's schema, whole, with the references to register it with.
   *
   * @param registry where references are fetched, and imported files registered or looked up
   * @param importedFiles what becomes of the imported files the schema needs
   */
  final SchemaImports.Resolved resolve(SchemaRegistryClient registry, SubjectFile subject,
      SchemaImports.ImportedFiles importedFiles) {
    return PluginImports.against(registry).withImportedFiles(importedFiles).resolve(subject.file(),
        subject.references(), Optional.ofNullable(imports).map(this::path));
  }
}
