package io.kavro.registry.internal.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kavro.registry.Association;
import io.kavro.registry.ApicurioId;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.internal.http.ContractJson;
import io.kavro.registry.internal.schema.HeldSchemaParser;
import io.kavro.registry.internal.schema.SchemaTextLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schemas by id on disk ({@code schema.cache.dir}), so that a consumer restarted while the registry is down
 * can still decode every id it has seen before: Confluent ids, Apicurio's global and content ids, and GUIDs.
 *
 * <p>One folder per registry (named by a hash of its URLs, since ids are only unique within a registry, and the
 * layout's version, {@link #LAYOUT}), one
 * file per id, named by its kind and number ({@code 7.json} for Confluent id 7, {@code apicurio-global-7.json},
 * {@code apicurio-content-7.json}, {@code guid-<uuid>.json}), so that ids of different kinds never share one;
 * beside them, the registry's last answer to each lookup of a topic's associations ({@code associations-<hash>.json},
 * see {@link SchemaRegistryClient#storedAssociations}). A file is written to a temporary name and moved into place atomically, and holds the id, the
 * schema text and its SHA-256: a file that is corrupt, partial, for another id or whose hash does not match
 * is ignored with a warning, never trusted. Failing to write is logged and otherwise ignored.
 *
 * <p>Thread-safe: each write goes to a temporary file of its own.
 */
public final class SchemaFileStore {
  private static final Logger log = LoggerFactory.getLogger(SchemaFileStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The layout's version, after the registry's hash in its folder's name. Folders of the layout before schema
   * contexts (the hash alone) may hold another context's schemas under default-context ids: they are never read.
   */
  static final String LAYOUT = "-v2";

  private final Path dir;

  /**
   * @param root the configured {@code schema.cache.dir}
   * @param registryKey identifies the registry's namespace: everything that selects which schemas an id names
   *     there (see {@code SchemaRegistryClients}), never a secret in clear
   */
  public SchemaFileStore(Path root, String registryKey) {
    this.dir = root.resolve(sha256(registryKey).substring(0, 16) + LAYOUT);
  }

  private SchemaFileStore(Path dir) {
    this.dir = dir;
  }

  /**
   * The store of schema context {@code qualifier}'s ids ({@code :.ctx:}), in a folder of its own inside this one: a
   * context numbers its schemas apart, so its id 1 is never read from this store's.
   */
  SchemaFileStore inContext(String qualifier) {
    return new SchemaFileStore(dir.resolve("context-" + sha256(qualifier).substring(0, 16)));
  }

  /** The schema stored for {@code id}, or {@code null} if there is none that can be trusted. */
  public Schema load(int id) {
    return load(Key.of(id));
  }

  /** The schema stored for Apicurio's {@code id}, or {@code null} if there is none that can be trusted. */
  public Schema load(ApicurioId id) {
    return load(Key.of(id));
  }

  /** The schema stored for {@code guid}, or {@code null} if there is none that can be trusted. */
  public Schema load(UUID guid) {
    return load(Key.of(guid));
  }

  /**
   * Stores the schema of {@code id}, atomically, unless the file already holds exactly it: a missing,
   * corrupt, partial or different file is rewritten, since the registry's answer wins. A failure is logged and
   * ignored.
   */
  public void save(int id, Schema schema) {
    save(Key.of(id), schema);
  }

  /** Stores the schema of Apicurio's {@code id}, as {@link #save(int, Schema)} does. */
  public void save(ApicurioId id, Schema schema) {
    save(Key.of(id), schema);
  }

  /** Stores the schema of {@code guid}, as {@link #save(int, Schema)} does. */
  public void save(UUID guid, Schema schema) {
    save(Key.of(guid), schema);
  }

  /** Removes the file of {@code id}, if any; a failure is logged and ignored. */
  void delete(int id) {
    Path file = file(Key.of(id));
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.warn("Could not delete schema cache file {}: {}", file, e.toString());
    }
  }

  /**
   * The data contract stored for schema {@code id}, or {@code null} if there is none that can be trusted: what
   * a reader needs beside the schema to read its records while the registry is down.
   */
  DataContract loadContract(int id) {
    return loadContract(Key.contract(id));
  }

  private DataContract loadContract(Key key) {
    String text = loadText(key);
    if (text == null) {
      return null;
    }
    try {
      return ContractJson.read(JSON.readTree(text), key.what());
    } catch (IOException | RuntimeException e) {
      log.warn("Ignoring schema cache file {}: {}", file(key), e.toString());
      return null;
    }
  }

  /** Stores the data contract of schema {@code id}, as {@link #save(int, Schema)} stores its schema. */
  void saveContract(int id, DataContract contract) {
    saveContract(Key.contract(id), contract);
  }

  /** The data contract stored for schema {@code guid}, or {@code null}. */
  DataContract loadContract(UUID guid) {
    return loadContract(Key.contract(guid));
  }

  /** Stores the data contract of schema {@code guid}. */
  void saveContract(UUID guid, DataContract contract) {
    saveContract(Key.contract(guid), contract);
  }

  private void saveContract(Key key, DataContract contract) {
    ObjectNode body = JSON.createObjectNode();
    ContractJson.write(body, contract);
    saveText(key, body.toString());
  }

  /**
   * The associations stored for a lookup ({@link SchemaRegistryClient#associations}), or {@code null} if there are
   * none that can be trusted: what the registry last answered for it.
   */
  java.util.List<Association> loadAssociations(String namespace, String name, String type, String associationType) {
    Key key = Key.associations(namespace, name, type, associationType);
    String text = loadText(key);
    if (text == null) {
      return null;
    }
    try {
      java.util.List<Association> found = new java.util.ArrayList<>();
      for (JsonNode entry : JSON.readTree(text)) {
        found.add(new Association(entry.path("subject").asText(null), entry.path("resourceName").asText(null),
            entry.path("resourceNamespace").asText(null), entry.path("resourceType").asText(null),
            entry.path("associationType").asText(null)));
      }
      return java.util.List.copyOf(found);
    } catch (IOException | RuntimeException e) {
      log.warn("Ignoring schema cache file {}: {}", file(key), e.toString());
      return null;
    }
  }

  /** Stores the registry's answer to a lookup of associations, atomically, as {@link #save(int, Schema)} does. */
  void saveAssociations(String namespace, String name, String type, String associationType,
      java.util.List<Association> associations) {
    com.fasterxml.jackson.databind.node.ArrayNode body = JSON.createArrayNode();
    for (Association association : associations) {
      body.addObject().put("subject", association.subject()).put("resourceName", association.resourceName())
          .put("resourceNamespace", association.resourceNamespace()).put("resourceType", association.resourceType())
          .put("associationType", association.associationType());
    }
    saveText(Key.associations(namespace, name, type, associationType), body.toString());
  }

  private Schema load(Key key) {
    String text = loadText(key);
    if (text == null) {
      return null;
    }
    try {
      // The same limits as the registry's answers: a file is no more trusted than the registry it came from.
      SchemaTextLimits.check(text, "load " + key.what(), "the schema cache file " + file(key));
      return new HeldSchemaParser().parse(text);
    } catch (RuntimeException e) {
      log.warn("Ignoring unreadable schema cache file {}: {}", file(key), e.toString());
      return null;
    }
  }

  /** The verified text of a file, or null. */
  private String loadText(Key key) {
    Path file = file(key);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      JsonNode json = JSON.readTree(Files.readAllBytes(file));
      String text = json.path("schema").asText(null);
      if (!key.id().equals(json.get("id")) || text == null || !sha256(text).equals(json.path("sha256").asText())) {
        log.warn("Ignoring schema cache file {}: it does not hold a verified entry for {}", file, key.what());
        return null;
      }
      return text;
    } catch (IOException | RuntimeException e) {
      log.warn("Ignoring unreadable schema cache file {}: {}", file, e.toString());
      return null;
    }
  }

  private void save(Key key, Schema schema) {
    saveText(key, schema.toString());
  }

  private void saveText(Key key, String text) {
    Path file = file(key);
    if (Files.exists(file)) {
      String stored = loadText(key);
      if (text.equals(stored)) {
        return;
      }
      log.warn("Rewriting schema cache file {}: it does not hold what the registry answers for {}", file,
          key.what());
    }
    ObjectNode json = JSON.createObjectNode();
    json.set("id", key.id());
    json.put("schema", text).put("sha256", sha256(text));
    Path temp = null;
    try {
      Files.createDirectories(dir);
      temp = Files.createTempFile(dir, "schema-" + key.name() + "-", ".tmp");
      Files.write(temp, JSON.writeValueAsBytes(json));
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      log.warn("Could not write {} to the schema cache in {}: {}", key.what(), dir, e.toString());
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException ignored) {
          // best effort
        }
      }
    }
  }

  Path file(int id) {
    return file(Key.of(id));
  }

  private Path file(Key key) {
    return dir.resolve(key.name() + ".json");
  }

  /**
   * What a file holds the schema of: its name (a Confluent id as it is, as ever; the other kinds prefixed, so that
   * no two kinds share a file), the {@code id} written in it and checked on reading, and words for messages.
   */
  private record Key(String name, JsonNode id, String what) {
    static Key of(int id) {
      return new Key(Integer.toString(id), IntNode.valueOf(id), "schema id " + id);
    }

    static Key of(ApicurioId id) {
      String name = (id.kind() == ApicurioId.Kind.GLOBAL_ID ? "apicurio-global-" : "apicurio-content-") + id.value();
      return new Key(name, TextNode.valueOf(name), id.toString());
    }

    static Key contract(int id) {
      String name = "contract-" + id;
      return new Key(name, TextNode.valueOf(name), "the data contract of schema id " + id);
    }

    static Key contract(UUID guid) {
      String name = "contract-guid-" + guid;
      return new Key(name, TextNode.valueOf(name), "the data contract of schema guid " + guid);
    }

    /**
     * A lookup of associations: named by a hash of its arguments (a topic's name may hold what a file name cannot),
     * which are written in the file whole and checked on reading.
     */
    static Key associations(String namespace, String name, String type, String associationType) {
      String lookup = "associations|" + namespace + "|" + name + "|" + type + "|" + associationType;
      return new Key("associations-" + sha256(lookup).substring(0, 32), TextNode.valueOf(lookup), "the "
          + associationType + " associations of " + type + " '" + name + "' (namespace '" + namespace + "')");
    }

    static Key of(UUID guid) {
      String name = "guid-" + guid;
      return new Key(name, TextNode.valueOf(name), "schema guid " + guid);
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
