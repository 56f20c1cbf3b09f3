package io.kavro.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.Schema;

/**
 * A schema file and the named types it takes from elsewhere, as the console tool's {@code schema register} and
 * {@code schema check} and the Maven plugin's goals read it: from subject versions (schema references) and from a
 * directory of {@code .avsc} files that import each other, the way avro-maven-plugin's {@code imports} work.
 *
 * <p>Each imported file that the schema needs, directly or through another file, is registered first, under the
 * full name of its type (the subject naming of Confluent's {@code RecordNameStrategy}, the usual one for
 * referenced types), with references to the files it needs in turn; the schema then references them. A file is
 * registered only when it is needed, and registering an unchanged file again is a no-op in the registry. With an
 * in-memory registry ({@link SchemaRegistryClients#inMemory()}), the same resolution needs no registry at all.
 *
 * <p>Every failure of a file is a {@link SchemaFileException} that names the file; what the registry refuses is
 * its {@link SchemaRegistryException}.
 */
public final class SchemaImports {
  private static final Set<String> PRIMITIVES = Set.of("null", "boolean", "int", "long", "float", "double",
      "bytes", "string");

  /**
   * The schema, whole, and the references to register it with.
   *
   * @param schema the schema, with every type it takes from elsewhere defined in it
   * @param references the references to register it with; empty for a schema that takes nothing from elsewhere
   */
  public record Resolved(Schema schema, List<SchemaReference> references) {
    /** Copies the references. */
    public Resolved {
      java.util.Objects.requireNonNull(schema, "schema");
      references = List.copyOf(references);
    }
  }

  /** One {@code .avsc} file of the imports directory: what it defines and what it uses from elsewhere. */
  private record ImportFile(Path path, String text, String name, Set<String> defines, Map<String, String> uses) {}

  private final SchemaRegistryClient registry;
  private final Map<String, ImportFile> byType = new LinkedHashMap<>();
  private final Map<Path, SchemaReference> registered = new LinkedHashMap<>();
  private final Map<String, Schema> known = new LinkedHashMap<>();

  private SchemaImports(SchemaRegistryClient registry) {
    this.registry = registry;
  }

  /**
   * Reads {@code file} with the types of {@code references} and of {@code importsDir}.
   *
   * @param registry where the references are fetched and the imported files registered or looked up
   * @param file the schema file
   * @param references the types the schema takes from subject versions
   * @param importsDir a directory of {@code .avsc} files the schema's types come from, or {@code null}
   * @param register whether imported files are registered (for {@code register}); otherwise they are looked up
   *     (for {@code check}), and one that is not registered is an error that names it
   * @return the schema, whole, and its references
   * @throws SchemaFileException naming the file, for a file that cannot be read or parsed, or a type that neither
   *     the references nor the imports define
   */
  public static Resolved resolve(SchemaRegistryClient registry, Path file, List<Wanted> references, Path importsDir,
      boolean register) {
    SchemaImports imports = new SchemaImports(registry);
    List<SchemaReference> all = new ArrayList<>();
    for (Wanted reference : references) {
      all.add(imports.fetch(reference));
    }
    if (importsDir != null) {
      imports.index(importsDir);
      ImportFile main = describe(file);
      all.addAll(imports.importFor(main, new LinkedHashSet<>(), register));
    }
    return new Resolved(imports.parse(file, read(file)), List.copyOf(all));
  }

  /**
   * A reference as asked for: a type that a version of a subject defines.
   *
   * @param name the full name of the type, as the schema uses it
   * @param subject the subject whose version defines it
   * @param version the version, from 1, or 0 for the subject's latest
   */
  public record Wanted(String name, String subject, int version) {
    /** Checks that the name and subject are given and the version is a version number or 0. */
    public Wanted {
      java.util.Objects.requireNonNull(name, "name");
      java.util.Objects.requireNonNull(subject, "subject");
      if (name.isBlank() || subject.isBlank() || version < 0) {
        throw new IllegalArgumentException("a reference needs a type name, a subject and a version from 1 (0 "
            + "for the latest), was " + name + "=" + subject + ":" + version);
      }
    }

    /** {@code name=subject:version}, the version a number or {@code latest}. */
    @Override
    public String toString() {
      return name + "=" + subject + ":" + (version == 0 ? "latest" : Integer.toString(version));
    }
  }

  private SchemaReference fetch(Wanted reference) {
    SubjectVersion version = reference.version() == 0 ? registry.latestVersion(reference.subject())
        : registry.version(reference.subject(), reference.version());
    Schema.Parser definitions = new Schema.Parser();
    definitions.parse(version.schema().toString());
    Map<String, Schema> types = definitions.getTypes();
    if (!types.containsKey(reference.name())) {
      throw new SchemaFileException("reference " + reference.name() + "=" + reference.subject() + ":"
          + version.version() + ": that version does not define " + reference.name() + "; it defines "
          + String.join(", ", types.keySet()));
    }
    types.forEach(known::putIfAbsent);
    return new SchemaReference(reference.name(), reference.subject(), version.version());
  }

  private void index(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new SchemaFileException("imports " + dir + " is not a directory");
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(p -> p.toString().endsWith(".avsc") && Files.isRegularFile(p)).sorted().toList();
    } catch (IOException e) {
      throw new SchemaFileException("cannot read imports " + dir + ": " + e.getMessage());
    }
    for (Path path : files) {
      ImportFile file = describe(path);
      if (file.name() == null) {
        throw new SchemaFileException("imports: " + path + " defines no named type at its top; an imported file is "
            + "a record, enum or fixed");
      }
      for (String type : file.defines()) {
        ImportFile other = byType.putIfAbsent(type, file);
        if (other != null) {
          throw new SchemaFileException("imports: " + type + " is defined by both " + other.path() + " and " + path);
        }
      }
    }
  }

  /** The references to the imported files that {@code file} needs, each registered (or found) first. */
  private List<SchemaReference> importFor(ImportFile file, Set<Path> path, boolean register) {
    Map<Path, String> needed = new LinkedHashMap<>();
    for (Map.Entry<String, String> use : file.uses().entrySet()) {
      // Avro looks a name up in the enclosing namespace, then in none.
      String type = byType.containsKey(use.getKey()) || known.containsKey(use.getKey()) ? use.getKey()
          : use.getValue();
      ImportFile from = byType.get(type);
      if (from != null && !from.path().equals(file.path())) {
        needed.merge(from.path(), type, (first, next) -> next.equals(from.name()) ? next : first);
      } else if (from == null && !known.containsKey(type)) {
        throw new SchemaFileException(file.path() + " uses " + use.getKey() + ", which neither the imports nor a "
            + "reference defines");
      }
    }
    List<SchemaReference> references = new ArrayList<>();
    for (Map.Entry<Path, String> need : needed.entrySet()) {
      ImportFile imported = byType.get(need.getValue());
      SchemaReference done = registered.get(imported.path());
      if (done == null) {
        if (!path.add(imported.path())) {
          throw new SchemaFileException("imports: the files import each other in a cycle: " + path
              + "; a referenced subject cannot reference back");
        }
        List<SchemaReference> own = importFor(imported, path, register);
        path.remove(imported.path());
        Schema schema = parse(imported.path(), imported.text());
        if (register) {
          registry.register(imported.name(), schema, own);
        }
        SubjectVersion version = registry.lookup(imported.name(), schema, own);
        done = new SchemaReference(imported.name(), imported.name(), version.version());
        registered.put(imported.path(), done);
      }
      String name = need.getValue().equals(imported.name()) ? imported.name() : need.getValue();
      references.add(new SchemaReference(name, done.subject(), done.version()));
    }
    return references;
  }

  private Schema parse(Path path, String text) {
    Schema.Parser parser = new Schema.Parser();
    parser.addTypes(known);
    Schema schema = SchemaFiles.parse(parser, path.toString(), text);
    parser.getTypes().forEach(known::putIfAbsent);
    return schema;
  }

  private static String read(Path file) {
    return SchemaFiles.read(file.toString(), file);
  }

  /** What the file defines and what named types it uses without defining them, from its JSON. */
  private static ImportFile describe(Path file) {
    Path path = file.toAbsolutePath().normalize();
    String text = read(path);
    JsonNode json;
    try {
      json = JsonBodies.MAPPER.readTree(text);
    } catch (IOException e) {
      throw new SchemaFileException(path + SchemaFiles.problem(e));
    }
    Set<String> defines = new LinkedHashSet<>();
    Map<String, String> uses = new LinkedHashMap<>();
    walk(json, "", defines, uses);
    uses.keySet().removeAll(defines);
    String name = json.isObject() && defines.iterator().hasNext() && isNamed(json.path("type").asText())
        ? defines.iterator().next() : null;
    return new ImportFile(path, text, name, defines, uses);
  }

  private static boolean isNamed(String type) {
    return type.equals("record") || type.equals("error") || type.equals("enum") || type.equals("fixed");
  }

  /** Avro's naming rules: a name with a dot is full; otherwise it is in the enclosing namespace. */
  private static void walk(JsonNode node, String namespace, Set<String> defines, Map<String, String> uses) {
    if (node.isTextual()) {
      String name = node.asText();
      if (!PRIMITIVES.contains(name)) {
        uses.put(name.contains(".") || namespace.isEmpty() ? name : namespace + "." + name, name);
      }
    } else if (node.isArray()) {
      node.forEach(branch -> walk(branch, namespace, defines, uses));
    } else if (node.isObject()) {
      JsonNode type = node.path("type");
      if (type.isTextual() && isNamed(type.asText())) {
        String name = node.path("name").asText("");
        String space = name.contains(".") ? name.substring(0, name.lastIndexOf('.'))
            : node.has("namespace") ? node.path("namespace").asText("") : namespace;
        defines.add(name.contains(".") || space.isEmpty() ? name : space + "." + name);
        node.path("fields").forEach(field -> walk(field.path("type"), space, defines, uses));
      } else if (type.isTextual() && type.asText().equals("array")) {
        walk(node.path("items"), namespace, defines, uses);
      } else if (type.isTextual() && type.asText().equals("map")) {
        walk(node.path("values"), namespace, defines, uses);
      } else {
        walk(type, namespace, defines, uses);
      }
    }
  }
}
