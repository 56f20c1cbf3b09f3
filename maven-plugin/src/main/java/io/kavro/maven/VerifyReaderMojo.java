package io.kavro.maven;

import io.kavro.registry.SchemaIncompatibilities;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SubjectVersion;
import io.kavro.schematools.SchemaImports;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * {@code verify-reader} (Kavro's own): can a consumer's reader schema read every version a subject holds, not only
 * the latest? The reader is an {@code .avsc} file ({@code readerSchemas}) or a class Avro generated, on the
 * project's compile class path ({@code readerClasses}). Each registered version is read as the writer's schema,
 * with Avro's rules of schema resolution; a version the reader cannot read fails the build, named with its id and
 * the field. With {@code compatibilityGroup}, only the versions of the latest version's group are read: those whose
 * metadata property of that name has the latest version's value (Confluent's compatibility groups).
 */
@Mojo(name = "verify-reader", threadSafe = true, requiresDependencyResolution = ResolutionScope.COMPILE)
public final class VerifyReaderMojo extends RegistryMojo {
  /** The reader schema file of each subject: {@code <orders-value>src/main/avro/order.avsc</orders-value>}. */
  @Parameter
  Map<String, File> readerSchemas;

  /** The generated reader class of each subject: {@code <orders-value>com.acme.Order</orders-value>}. */
  @Parameter
  Map<String, String> readerClasses;

  /** Whether {@code _x} escapes in the subjects' element names are decoded ({@code my_x2Fsubject}). */
  @Parameter(defaultValue = "true")
  boolean decodeSubject = true;

  /** A metadata property that splits a subject's versions into groups; only the latest's group is read. */
  @Parameter
  String compatibilityGroup;

  /** A directory of {@code .avsc} files that the reader schema files' types come from. */
  @Parameter
  File imports;

  /** The project's compile class path, where the reader classes are. */
  @Parameter(defaultValue = "${project.compileClasspathElements}", readonly = true, required = true)
  List<String> classpathElements;

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    Map<String, Reader> readers = readers();
    List<String> problems = new ArrayList<>();
    try (SchemaRegistryClient registry = registry(false)) {
      for (Map.Entry<String, Reader> entry : readers.entrySet()) {
        String subject = entry.getKey();
        Reader reader = entry.getValue();
        List<SubjectVersion> versions = versions(registry, subject);
        List<Integer> read = new ArrayList<>();
        for (SubjectVersion version : versions) {
          List<String> reasons = SchemaIncompatibilities.of(reader.schema(), version.schema());
          if (reasons.isEmpty()) {
            read.add(version.version());
          } else {
            problems.add(reader.name() + " cannot read subject '" + subject + "' version " + version.version()
                + " (id " + version.id() + "): " + String.join("; ", reasons));
          }
        }
        getLog().info(reader.name() + " reads subject '" + subject + "' versions " + read + " of "
            + versions.stream().map(SubjectVersion::version).toList());
      }
    }
    Failures.failIfAny(problems.size() + " registered version(s) cannot be read", problems);
  }

  private String subject(String key) {
    return SubjectEscapes.subject(key, decodeSubject);
  }

  /** A reader schema and how to name it. */
  private record Reader(String name, Schema schema) {}

  private Map<String, Reader> readers() throws MojoExecutionException {
    Map<String, Reader> readers = new LinkedHashMap<>();
    if (readerSchemas != null) {
      try (SchemaRegistryClient local = SchemaRegistryClients.inMemory()) {
        for (Map.Entry<String, File> entry : readerSchemas.entrySet()) {
          SchemaImports.Resolved resolved = PluginImports.against(local)
              .withImportedFiles(SchemaImports.ImportedFiles.REGISTER)
              .resolve(path(entry.getValue()), List.of(), Optional.ofNullable(imports).map(this::path));
          readers.put(subject(entry.getKey()), new Reader("reader schema " + entry.getValue(),
              resolved.schema()));
        }
      }
    }
    if (readerClasses != null && !readerClasses.isEmpty()) {
      try (ReaderClasses classes = new ReaderClasses(classpathElements, getClass().getClassLoader())) {
        for (Map.Entry<String, String> entry : readerClasses.entrySet()) {
          String subject = subject(entry.getKey());
          if (readers.containsKey(subject)) {
            throw new MojoExecutionException("subject '" + subject + "' has a reader in both <readerSchemas> and "
                + "<readerClasses>: give one");
          }
          readers.put(subject, new Reader("reader class " + entry.getValue(), classes.schema(entry.getValue())));
        }
      }
    }
    if (readers.isEmpty()) {
      throw new MojoExecutionException("verify-reader needs a reader: <readerSchemas><orders-value>"
          + "src/main/avro/order.avsc</orders-value></readerSchemas> or <readerClasses><orders-value>com.acme.Order"
          + "</orders-value></readerClasses>");
    }
    return readers;
  }

  /** The versions to read: all of the subject's, or those of the latest version's compatibility group. */
  private List<SubjectVersion> versions(SchemaRegistryClient registry, String subject)
      throws MojoExecutionException {
    List<SubjectVersion> all;
    try {
      all = Versions.of(registry, subject);
    } catch (SchemaNotFoundException e) {
      throw new MojoExecutionException("subject '" + subject + "' has no registered version to read: "
          + Failures.describe(e), e);
    }
    if (compatibilityGroup == null || compatibilityGroup.isBlank() || all.isEmpty()) {
      return all;
    }
    SubjectVersion latest = all.get(all.size() - 1);
    String group = latest.contract().metadata().properties().get(compatibilityGroup);
    if (group == null) {
      throw new MojoExecutionException("subject '" + subject + "' version " + latest.version() + " (the latest) has no "
          + "metadata property '" + compatibilityGroup + "' (<compatibilityGroup>), so it is in no compatibility group"
          + " (does the registry keep metadata?)");
    }
    return all.stream().filter(v -> Objects.equals(v.contract().metadata().properties().get(compatibilityGroup),
        group)).toList();
  }
}
