package io.kavro.maven;

import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.schematools.SchemaFileException;
import io.kavro.schematools.SchemaImports;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code test-local-compatibility}: without a registry, is each schema file compatible with its previous schema
 * files at the level given? The previous files are a file or a directory of {@code .avsc} files, taken oldest first
 * in the natural order of their names, numbers compared as numbers ({@code v1.avsc}, {@code v2.avsc},
 * {@code v10.avsc}); a {@code _TRANSITIVE} level tests against every
 * one, another against the last. Types may come from the {@code imports} directory, for the schema and for the
 * previous files alike (what Confluent's goal cannot take, its issue 2397). The check is the one of Kavro's
 * in-memory registry: the files are registered into one, in order, and the schema tested, so the answer and its
 * reasons, which name the field, are those a registry with Avro's rules gives. Every key is tested, and the build
 * fails once, listing each incompatible one.
 */
@Mojo(name = "test-local-compatibility", threadSafe = true)
public final class TestLocalCompatibilityMojo extends KavroMojo {
  /** Each schema file under a name of your choosing (no subject semantics). */
  @Parameter(required = true)
  Map<String, File> schemas;

  /** The previous schema file, or a directory of them, of each name. */
  @Parameter(required = true)
  Map<String, File> previousSchemaPaths;

  /** The level of each name: NONE, BACKWARD, FORWARD, FULL or their _TRANSITIVE forms. */
  @Parameter(required = true)
  Map<String, String> compatibilityLevels;

  /** The type of each schema: {@code AVRO}, the default, is the one Kavro's plugin takes. */
  @Parameter
  Map<String, String> schemaTypes;

  /** A directory of {@code .avsc} files that the schemas' types come from, importing each other. */
  @Parameter
  File imports;

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    SchemaTypes.requireAvro(schemaTypes);
    if (schemas == null || schemas.isEmpty()) {
      throw new MojoExecutionException("<schemas> names no schema: give <schemas><order>src/main/avro/order.avsc"
          + "</order></schemas>");
    }
    Path base = basedir.toPath();
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, File> schema : schemas.entrySet()) {
      String name = schema.getKey();
      CompatibilityLevel level = level(name);
      List<Path> previous = previous(name);
      Path file = path(schema.getValue());
      String what = name + " (" + shown(base, file) + ")";
      try {
        String problem = problem(name, file, previous, level, base);
        if (problem == null) {
          getLog().info(what + " is " + level + " compatible with " + previous.size() + " previous schema(s)");
        } else {
          problems.add(what + " is not " + level + " compatible: " + problem);
        }
      } catch (SchemaFileException | InvalidSchemaException e) {
        problems.add(what + ": " + Failures.describe(e));
      }
    }
    Failures.failIfAny(problems.size() + " of " + schemas.size() + " schema(s) are incompatible with their previous "
        + "schemas", problems);
  }

  /**
   * Why the schema breaks the level against the previous files, with a legend of the versions the reasons name,
   * or {@code null}.
   */
  private String problem(String name, Path file, List<Path> previous, CompatibilityLevel level, Path base) {
    Optional<Path> importsDir = Optional.ofNullable(imports).map(this::path);
    Map<Integer, List<String>> versions = new TreeMap<>();
    try (SchemaRegistryClient local = SchemaRegistryClients.inMemory()) {
      SchemaImports registering = PluginImports.against(local)
          .withImportedFiles(SchemaImports.ImportedFiles.REGISTER);
      local.setCompatibility(name, CompatibilityLevel.NONE); // the previous files need not be compatible
      for (Path old : previous) {
        SchemaImports.Resolved resolved = registering.resolve(old, List.of(), importsDir);
        local.register(name, resolved.schema(), resolved.references());
        // An identical previous file is the same version: registering is idempotent.
        int version = local.lookup(name, resolved.schema(), resolved.references()).version();
        versions.computeIfAbsent(version, v -> new ArrayList<>())
            .add(String.valueOf(shown(base, old)));
      }
      local.setCompatibility(name, level);
      SchemaImports.Resolved candidate = registering.resolve(file, List.of(), importsDir);
      CompatibilityCheck check = local.checkCompatibility(name, candidate.schema());
      return check.compatible() ? null : String.join("; ", check.messages()) + legend(versions);
    }
  }

  /** " (version 1 is v1.avsc, version 2 is v2.avsc and v2-copy.avsc)": the reasons name versions. */
  private static String legend(Map<Integer, List<String>> versions) {
    List<String> names = new ArrayList<>();
    versions.forEach((version, files) -> names.add("version " + version + " is " + String.join(" and ", files)));
    return " (" + String.join(", ", names) + ")";
  }

  private CompatibilityLevel level(String name) throws MojoExecutionException {
    String value = compatibilityLevels == null ? null : compatibilityLevels.get(name);
    if (value == null) {
      throw new MojoExecutionException("<compatibilityLevels> gives no level for '" + name + "'");
    }
    return Levels.parse("'" + name + "'", value);
  }

  /** The previous files of a name, oldest first. */
  List<Path> previous(String name) throws MojoExecutionException {
    File given = previousSchemaPaths == null ? null : previousSchemaPaths.get(name);
    if (given == null) {
      throw new MojoExecutionException("<previousSchemaPaths> gives no previous schema for '" + name + "'");
    }
    Path path = path(given);
    if (Files.isRegularFile(path)) {
      return List.of(path);
    }
    if (!Files.isDirectory(path)) {
      throw new MojoExecutionException("<previousSchemaPaths>: '" + name + "' names " + path
          + ", which is neither a file nor a directory");
    }
    List<Path> files;
    try (Stream<Path> list = Files.list(path)) {
      files = list.filter(p -> p.toString().endsWith(".avsc") && Files.isRegularFile(p))
          .sorted(NaturalOrder.OF_FILE_NAMES).toList();
    } catch (IOException e) {
      throw new MojoExecutionException("cannot list <previousSchemaPaths> " + path + ": " + e, e);
    }
    if (files.isEmpty()) {
      throw new MojoExecutionException("<previousSchemaPaths>: '" + name + "' names " + path
          + ", which holds no .avsc file");
    }
    return files;
  }
}
