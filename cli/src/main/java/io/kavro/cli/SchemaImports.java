package io.kavro.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
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
 * A schema file and the named types it takes from elsewhere, as {@code schema register} and {@code schema check}
 * read it: from subject versions ({@code --reference name=subject:version}) and from a directory of {@code .avsc}
 * files that import each other ({@code --imports DIR}), the way avro-maven-plugin's {@code imports} work.
 *
 * <p>Each imported file that the schema needs, directly or through another file, is registered first, under the
 * full name of its type (the subject naming of Confluent's {@code RecordNameStrategy}, the usual one for
 * referenced types), with references to the files it needs in turn; the schema then references them. A file is
 * registered only when it is needed, and registering an unchanged file again is a no-op in the registry.
 */
final class SchemaImports {
  private static final Set<String> PRIMITIVES = Set.of("null", "boolean", "int", "long", "float", "double",
      "bytes", "string");

  /** The schema, whole, and the references to register it with. */
  record Resolved(Schema schema, List<SchemaReference> references) {}

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
   * @param register whether imported files are registered (for {@code register}); otherwise they are looked up
   *     (for {@code check}), and one that is not registered is an error that names it
   */
  static Resolved resolve(SchemaRegistryClient registry, Path file, List<Wanted> references, Path importsDir,
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

  /** A {@code --reference} as given: its version is 0 for {@code latest}. */
  record Wanted(String name, String subject, int version) {}

  /** {@code name=subject:version}, the version a number or {@code latest}. */
  static Wanted parseReference(String text) {
    int equals = text.indexOf('=');
    int colon = text.lastIndexOf(':');
    if (equals <= 0 || colon < equals + 2 || colon == text.length() - 1) {
      throw new CliException("--reference must be NAME=SUBJECT:VERSION (com.acme.Order=com.acme.Order:1), was '"
          + text + "'", 2);
    }
    String version = text.substring(colon + 1);
    int number = -1;
    if (version.equals("latest")) {
      number = 0;
    } else if (version.chars().allMatch(Character::isDigit) && version.length() < 10) {
      number = Integer.parseInt(version);
    }
    if (number < 0 || version.equals("0")) {
      throw new CliException("--reference '" + text + "': the version must be a number from 1 or latest", 2);
    }
    return new Wanted(text.substring(0, equals), text.substring(equals + 1, colon), number);
  }

  private SchemaReference fetch(Wanted reference) {
    SubjectVersion version = reference.version() == 0 ? registry.latestVersion(reference.subject())
        : registry.version(reference.subject(), reference.version());
    Schema.Parser definitions = new Schema.Parser();
    definitions.parse(version.schema().toString());
    Map<String, Schema> types = definitions.getTypes();
    if (!types.containsKey(reference.name())) {
      throw new CliException("--reference " + reference.name() + "=" + reference.subject() + ":"
          + version.version() + ": that version does not define " + reference.name() + "; it defines "
          + String.join(", ", types.keySet()), 2);
    }
    types.forEach(known::putIfAbsent);
    return new SchemaReference(reference.name(), reference.subject(), version.version());
  }

  private void index(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new CliException("--imports " + dir + " is not a directory", 2);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(p -> p.toString().endsWith(".avsc") && Files.isRegularFile(p)).sorted().toList();
    } catch (IOException e) {
      throw new CliException("cannot read --imports " + dir + ": " + e.getMessage(), 2);
    }
    for (Path path : files) {
      ImportFile file = describe(path);
      if (file.name() == null) {
        throw new CliException("--imports: " + path + " defines no named type at its top; an imported file is a "
            + "record, enum or fixed", 2);
      }
      for (String type : file.defines()) {
        ImportFile other = byType.putIfAbsent(type, file);
        if (other != null) {
          throw new CliException("--imports: " + type + " is defined by both " + other.path() + " and " + path, 2);
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
        throw new CliException(file.path() + " uses " + use.getKey() + ", which neither --imports nor a "
            + "--reference defines", 2);
      }
    }
    List<SchemaReference> references = new ArrayList<>();
    for (Map.Entry<Path, String> need : needed.entrySet()) {
      ImportFile imported = byType.get(need.getValue());
      SchemaReference done = registered.get(imported.path());
      if (done == null) {
        if (!path.add(imported.path())) {
          throw new CliException("--imports: the files import each other in a cycle: " + path
              + "; a referenced subject cannot reference back", 2);
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
      json = JsonLines.MAPPER.readTree(text);
    } catch (IOException e) {
      throw new CliException(path + SchemaFiles.problem(e), 2);
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
