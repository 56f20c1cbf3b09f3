package io.kavro.schematools;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kavro.registry.factory.HeldSchemas;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.util.internal.Accessor;

/**
 * A schema file and the named types it takes from elsewhere, as the console tool's {@code schema register} and
 * {@code schema check} and the Maven plugin's goals read it: from subject versions (schema references) and from a
 * directory of {@code .avsc} files that import each other, the way avro-maven-plugin's {@code imports} work.
 *
 * <p>Each imported file that the schema needs, directly or through another file, is registered first
 * ({@link ImportedFiles#REGISTER}), under the full name of its type (the subject naming of Confluent's
 * {@code RecordNameStrategy}, the usual one for referenced types), with references to the files it needs in turn;
 * the schema then references them. A file is registered only when it is needed, and registering an unchanged file
 * again is a no-op in the registry. With an in-memory registry ({@link SchemaRegistryClients#inMemory()}), the
 * same resolution needs no registry at all.
 *
 * <p>Immutable: each {@code with} method returns a copy. Every failure of a file is a {@link SchemaFileException}
 * that names the file, with the names the tool gives its two sources ({@link Labels}); what the registry refuses
 * is its {@link SchemaRegistryException}.
 */
public final class SchemaImports {
  private static final Set<String> PRIMITIVES = Set.of("null", "boolean", "int", "long", "float", "double",
      "bytes", "string");
  /** Reads import files as Avro's parser reads schemas (comments allowed), to see what they define and use. */
  private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.ALLOW_COMMENTS);

  /** What becomes of each imported file the schema needs. */
  public enum ImportedFiles {
    /** Registered under its type's full name, then referenced: for registering the schema. */
    REGISTER,
    /**
     * Looked up under its type's full name, then referenced: for checking a schema against the registry. One that
     * is not registered fails with the registry's {@code SchemaNotFoundException}.
     */
    LOOK_UP,
    /**
     * Read, and its types defined in the schema, with no registry at all: for a schema that is only read (validated,
     * tested for compatibility), whose references to the imported files are never sent. {@link Resolved#references()}
     * then holds the references of {@link Wanted} versions only.
     */
    READ
  }

  /** How each schema text is read. */
  public enum Reading {
    /** As Avro 1.12.2 reads it, the strictest line Kavro supports: defaults are checked. */
    STRICT,
    /**
     * As a registry holds it and Kavro reads it ({@link io.kavro.registry.factory.HeldSchemas}): defaults are not
     * checked,
     * and a named type referenced as an object, {@code {"type":"ns.Place"}}, is read as the name (AVRO-4176).
     */
    AS_HELD
  }

  /**
   * How a tool names the two sources of types in its messages: {@code --imports} and {@code --reference} for the
   * console tool, {@code <imports>} and {@code <reference>} for the Maven plugin.
   *
   * @param imports the name of the directory of imported files
   * @param reference the name of one reference to a subject's version
   */
  public record Labels(String imports, String reference) {
    /** Checks that both are given. */
    public Labels {
      Objects.requireNonNull(imports, "imports");
      Objects.requireNonNull(reference, "reference");
    }
  }

  /**
   * Where the versions that references name are found.
   */
  @FunctionalInterface
  public interface ReferencedVersions {
    /**
     * The version a reference names.
     *
     * @param subject the subject
     * @param version the version, from 1, or 0 for the subject's latest
     * @return the version's number (which the reference is registered with) and its schema
     * @throws SchemaFileException or the registry's exception, naming what was not found
     */
    Referenced find(String subject, int version);

    /**
     * The versions a registry holds.
     *
     * @param registry the registry
     * @return versions found there
     */
    static ReferencedVersions in(SchemaRegistryClient registry) {
      Objects.requireNonNull(registry, "registry");
      return (subject, version) -> {
        SubjectVersion found = version == 0 ? registry.latestVersion(subject) : registry.version(subject, version);
        return new Referenced(found.version(), found.schema());
      };
    }
  }

  /**
   * A version that a reference names, as found.
   *
   * @param version its number, from 1; or 0 for a schema not registered yet (a file about to be registered), which
   *     gives its types but no reference to register with
   * @param schema its schema, whose named types the file may use
   */
  public record Referenced(int version, Schema schema) {
    /** Checks that the schema is given and the version is a version number or 0. */
    public Referenced {
      Objects.requireNonNull(schema, "schema");
      if (version < 0) {
        throw new IllegalArgumentException("a version is from 1 (0 for one not registered yet), was " + version);
      }
    }
  }

  /**
   * The schema, whole, and the references to register it with.
   *
   * @param schema the schema, with every type it takes from elsewhere defined in it
   * @param references the references to register it with; empty for a schema that takes nothing from elsewhere
   */
  public record Resolved(Schema schema, List<SchemaReference> references) {
    /** Copies the references. */
    public Resolved {
      Objects.requireNonNull(schema, "schema");
      references = List.copyOf(references);
    }
  }

  /** One {@code .avsc} file of the imports directory: what it defines and what it uses from elsewhere. */
  private record ImportFile(Path path, String text, String name, Set<String> defines, Map<String, String> uses) {}

  /** Where imported files are registered or looked up; empty when they are only read. */
  private final Optional<SchemaRegistryClient> registry;
  private final Labels labels;
  private final ImportedFiles importedFiles;
  private final Reading reading;
  private final ReferencedVersions referencedVersions;

  private SchemaImports(Optional<SchemaRegistryClient> registry, Labels labels, ImportedFiles importedFiles,
      Reading reading, ReferencedVersions referencedVersions) {
    if (registry.isEmpty() && importedFiles != ImportedFiles.READ) {
      throw new IllegalStateException("imported files are registered or looked up in a registry, and none was "
          + "given: use against(registry, labels)");
    }
    this.registry = registry;
    this.labels = Objects.requireNonNull(labels, "labels");
    this.importedFiles = Objects.requireNonNull(importedFiles, "importedFiles");
    this.reading = Objects.requireNonNull(reading, "reading");
    this.referencedVersions = Objects.requireNonNull(referencedVersions, "referencedVersions");
  }

  /**
   * Resolution against {@code registry}: references are fetched from it, imported files looked up in it
   * ({@link ImportedFiles#LOOK_UP}), each text read {@link Reading#STRICT}.
   *
   * @param registry where references are fetched and imported files looked up or registered
   * @param labels how the tool names its imports directory and its references
   * @return the resolution
   */
  public static SchemaImports against(SchemaRegistryClient registry, Labels labels) {
    return new SchemaImports(Optional.of(registry), labels, ImportedFiles.LOOK_UP, Reading.STRICT,
        ReferencedVersions.in(registry));
  }

  /**
   * Resolution without a registry: references are found in {@code versions}, imported files only read
   * ({@link ImportedFiles#READ}; no other is possible), each text read {@link Reading#STRICT}.
   *
   * @param labels how the tool names its imports directory and its references
   * @param versions where the versions that references name are found
   * @return the resolution
   */
  public static SchemaImports reading(Labels labels, ReferencedVersions versions) {
    return new SchemaImports(Optional.empty(), labels, ImportedFiles.READ, Reading.STRICT, versions);
  }

  /**
   * A copy that does {@code importedFiles} with each imported file the schema needs.
   *
   * @param importedFiles register, look up or only read them
   * @return the copy
   * @throws IllegalStateException to register or look them up without a registry
   */
  public SchemaImports withImportedFiles(ImportedFiles importedFiles) {
    return new SchemaImports(registry, labels, importedFiles, reading, referencedVersions);
  }

  /**
   * A copy that reads each text, the schema's and the imported files', {@code reading}.
   *
   * @param reading strictly or as registries hold it
   * @return the copy
   */
  public SchemaImports withReading(Reading reading) {
    return new SchemaImports(registry, labels, importedFiles, reading, referencedVersions);
  }

  /**
   * A copy that finds the versions references name in {@code versions} rather than the registry.
   *
   * @param versions where the versions are found
   * @return the copy
   */
  public SchemaImports withReferencedVersions(ReferencedVersions versions) {
    return new SchemaImports(registry, labels, importedFiles, reading, versions);
  }

  /**
   * Reads {@code file} with the types of {@code references} and of {@code importsDir}.
   *
   * @param file the schema file
   * @param references the types the schema takes from subject versions
   * @param importsDir a directory of {@code .avsc} files the schema's types come from
   * @return the schema, whole, and its references
   * @throws SchemaFileException naming the file, for a file that cannot be read or parsed, or a type that neither
   *     the references nor the imports define
   */
  public Resolved resolve(Path file, List<Wanted> references, Optional<Path> importsDir) {
    return new Resolution().resolve(file, references, importsDir);
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
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(subject, "subject");
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

  /** One resolution's state: the import files by type, those done, and the types known so far. */
  private final class Resolution {
    private final Map<String, ImportFile> byType = new LinkedHashMap<>();
    /** Each imported file done, and its subject and version when it was registered or looked up. */
    private final Map<Path, Optional<SchemaReference>> registered = new LinkedHashMap<>();
    private final Map<String, Schema> known = new LinkedHashMap<>();

    Resolved resolve(Path file, List<Wanted> references, Optional<Path> importsDir) {
      List<SchemaReference> all = new ArrayList<>();
      for (Wanted reference : references) {
        fetch(reference).ifPresent(all::add);
      }
      if (importsDir.isPresent()) {
        index(importsDir.get());
        ImportFile main = describe(file);
        all.addAll(importFor(main, new LinkedHashSet<>()));
      }
      return new Resolved(parse(file, read(file)), List.copyOf(all));
    }

    /** The reference to register with, empty for a version not registered yet; its types become known. */
    private Optional<SchemaReference> fetch(Wanted reference) {
      Referenced version = referencedVersions.find(reference.subject(), reference.version());
      // The version's types as the client read them, not parsed again: registries hold what Avro 1.12.2 refuses.
      Map<String, Schema> types = new LinkedHashMap<>();
      namedTypes(version.schema(), types);
      if (!types.containsKey(reference.name())) {
        throw new SchemaFileException(labels.reference() + " " + new Wanted(reference.name(), reference.subject(),
            version.version()) + ": that version does not define " + reference.name() + "; it defines "
            + String.join(", ", types.keySet()));
      }
      types.forEach(known::putIfAbsent);
      return version.version() == 0 ? Optional.empty()
          : Optional.of(new SchemaReference(reference.name(), reference.subject(), version.version()));
    }

    private void index(Path dir) {
      if (!Files.isDirectory(dir)) {
        throw new SchemaFileException(labels.imports() + " " + dir + " is not a directory");
      }
      List<Path> files;
      try (Stream<Path> walk = Files.walk(dir)) {
        files = walk.filter(p -> p.toString().endsWith(".avsc") && Files.isRegularFile(p)).sorted().toList();
      } catch (IOException e) {
        throw new SchemaFileException("cannot read " + labels.imports() + " " + dir + ": " + e.getMessage());
      }
      for (Path path : files) {
        ImportFile file = describe(path);
        if (file.name() == null) {
          throw new SchemaFileException(labels.imports() + ": " + path + " defines no named type at its top; an "
              + "imported file is a record, enum or fixed");
        }
        for (String type : file.defines()) {
          ImportFile other = byType.putIfAbsent(type, file);
          if (other != null) {
            throw new SchemaFileException(labels.imports() + ": " + type + " is defined by both " + other.path()
                + " and " + path);
          }
        }
      }
    }

    /** The references to the imported files that {@code file} needs, each registered (or found) first. */
    private List<SchemaReference> importFor(ImportFile file, Set<Path> path) {
      Map<Path, String> needed = new LinkedHashMap<>();
      for (Map.Entry<String, String> use : file.uses().entrySet()) {
        // Avro looks a name up in the enclosing namespace, then in none.
        String type = byType.containsKey(use.getKey()) || known.containsKey(use.getKey()) ? use.getKey()
            : use.getValue();
        ImportFile from = byType.get(type);
        if (from != null && !from.path().equals(file.path())) {
          needed.merge(from.path(), type, (first, next) -> next.equals(from.name()) ? next : first);
        } else if (from == null && !known.containsKey(type)) {
          throw new SchemaFileException(file.path() + " uses " + use.getKey() + ", which neither "
              + labels.imports() + " nor a " + labels.reference() + " defines");
        }
      }
      List<SchemaReference> references = new ArrayList<>();
      for (Map.Entry<Path, String> need : needed.entrySet()) {
        ImportFile imported = byType.get(need.getValue());
        Optional<SchemaReference> done = registered.get(imported.path());
        if (done == null) {
          if (!path.add(imported.path())) {
            throw new SchemaFileException(labels.imports() + ": the files import each other in a cycle: " + path
                + "; a referenced subject cannot reference back");
          }
          List<SchemaReference> own = importFor(imported, path);
          path.remove(imported.path());
          Schema schema = parse(imported.path(), imported.text());
          done = switch (importedFiles) {
            case REGISTER -> {
              registry.get().register(imported.name(), schema, own);
              yield Optional.of(lookUp(imported, schema, own));
            }
            case LOOK_UP -> Optional.of(lookUp(imported, schema, own));
            case READ -> Optional.empty();
          };
          registered.put(imported.path(), done);
        }
        if (done.isPresent()) {
          String name = need.getValue().equals(imported.name()) ? imported.name() : need.getValue();
          references.add(new SchemaReference(name, done.get().subject(), done.get().version()));
        }
      }
      return references;
    }

    private SchemaReference lookUp(ImportFile imported, Schema schema, List<SchemaReference> own) {
      SubjectVersion version = registry.get().lookup(imported.name(), schema, own);
      return new SchemaReference(imported.name(), imported.name(), version.version());
    }

    /** The schema of a file's text, read {@link #reading}, with the types known so far; its own become known. */
    private Schema parse(Path path, String text) {
      Schema.Parser parser = parser();
      Schema schema;
      try {
        schema = parser.parse(text);
      } catch (RuntimeException refused) {
        Optional<String> named = reading == Reading.AS_HELD ? HeldSchemas.withNamedReferences(text)
            : Optional.empty();
        if (named.isEmpty()) {
          throw new SchemaFileException(path, path + SchemaFiles.problem(refused));
        }
        parser = parser(); // a failed parse may have left some of the text's names in the parser
        try {
          schema = parser.parse(named.get());
        } catch (RuntimeException alsoRefused) {
          throw new SchemaFileException(path, path + SchemaFiles.problem(refused));
        }
      }
      Map<String, Schema> defined = new LinkedHashMap<>(parser.getTypes());
      defined.keySet().removeAll(known.keySet());
      if (reading == Reading.STRICT) {
        checkDefaults(path, defined.values());
      }
      known.putAll(defined);
      return schema;
    }

    /**
     * A parser with the types known so far, which checks no default: Avro 1.12.2's would check the defaults of the
     * known types too, and a referenced version may hold one that does not match (registries hold such versions).
     * {@link #checkDefaults} checks the file's own.
     */
    private Schema.Parser parser() {
      Schema.Parser parser = new Schema.Parser().setValidateDefaults(false);
      parser.addTypes(known);
      return parser;
    }
  }

  /**
   * Checks the defaults of the fields of {@code types} as Avro 1.12.2's parser does, by building each field with a
   * default again through the constructor the parser uses, its check on.
   */
  private static void checkDefaults(Path path, Iterable<Schema> types) {
    for (Schema type : types) {
      if (type.getType() != Schema.Type.RECORD) {
        continue;
      }
      for (Schema.Field field : type.getFields()) {
        if (field.hasDefaultValue()) {
          try {
            Accessor.createField(field.name(), field.schema(), null, Accessor.defaultValue(field), true,
                field.order());
          } catch (AvroRuntimeException e) {
            throw new SchemaFileException(path, path + SchemaFiles.problem(e));
          }
        }
      }
    }
  }

  /** Each named type of {@code schema}, by full name, as Avro's parser would have defined them, in order. */
  private static void namedTypes(Schema schema, Map<String, Schema> types) {
    switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> {
        if (types.putIfAbsent(schema.getFullName(), schema) == null && schema.getType() == Schema.Type.RECORD) {
          schema.getFields().forEach(field -> namedTypes(field.schema(), types));
        }
      }
      case ARRAY -> namedTypes(schema.getElementType(), types);
      case MAP -> namedTypes(schema.getValueType(), types);
      case UNION -> schema.getTypes().forEach(branch -> namedTypes(branch, types));
      default -> { }
    }
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
      json = JSON.readTree(text);
    } catch (IOException e) {
      throw new SchemaFileException(path, path + SchemaFiles.problem(e));
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
