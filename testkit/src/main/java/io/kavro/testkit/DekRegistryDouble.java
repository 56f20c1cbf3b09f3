package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * The in-memory DEK registry of {@link DataContractLayer}: the part of Confluent's {@code /dek-registry/v1} API that
 * Confluent's Java and JavaScript clients use for non-shared KEKs (create and read KEKs, create and read DEK
 * versions) and what its {@code RewrapDeks} tool uses (list a KEK's subjects and a subject's versions, and
 * {@code POST .../deks/{subject}?rewrap=true}, which overwrites an existing version's encrypted key material instead
 * of answering 409), with Confluent's JSON shapes and error codes. Nothing is ever deleted, so {@code deleted=} is
 * accepted and has no effect. Thread-safe: every request holds the instance's lock.
 */
final class DekRegistryDouble {
  private static final int NOT_FOUND = 40470;
  private static final int ALREADY_EXISTS = 40971;
  private static final int INVALID_KEY = 42271;
  private static final String DEFAULT_ALGORITHM = "AES256_GCM";
  private static final Set<String> ALGORITHMS = Set.of("AES128_GCM", "AES256_GCM", "AES256_SIV");

  private record DekKey(String kekName, String subject, String algorithm) {}

  private final LongSupplier clock;
  private final Map<String, ObjectNode> keks = new TreeMap<>();
  private final Map<DekKey, TreeMap<Integer, ObjectNode>> deks = new HashMap<>();

  DekRegistryDouble(LongSupplier clock) {
    this.clock = clock;
  }

  /**
   * Answers a request whose path, after {@code /dek-registry/v1/}, is {@code path} (decoded segments).
   *
   * @param body the request body, or null when it was not a JSON object
   */
  synchronized Answer handle(String method, List<String> path, Map<String, String> query, JsonNode body) {
    String context = query.get("context");
    if (context != null && !context.isEmpty() && !context.equals(".")) {
      return Answer.error(422, INVALID_KEY, "Contexts are not supported by DataContractLayer (context=" + context + ")");
    }
    int size = path.size();
    if (size >= 1 && path.get(0).equals("keks")) {
      String kek = size >= 2 ? path.get(1) : null;
      String algorithm = query.getOrDefault("algorithm", DEFAULT_ALGORITHM);
      if (size == 1 && method.equals("GET")) {
        return Answer.json(200, Answer.JSON.valueToTree(keks.keySet()));
      } else if (size == 1 && method.equals("POST")) {
        return createKek(body);
      } else if (size == 2 && method.equals("GET")) {
        return keks.containsKey(kek) ? Answer.json(200, keks.get(kek).deepCopy()) : notFound(kek);
      } else if (size == 3 && path.get(2).equals("deks") && method.equals("GET")) {
        return subjects(kek);
      } else if (size == 3 && path.get(2).equals("deks") && method.equals("POST")) {
        return createDek(kek, null, body, false);
      } else if (size == 4 && path.get(2).equals("deks") && method.equals("POST")) {
        return createDek(kek, path.get(3), body, "true".equals(query.get("rewrap")));
      } else if (size == 4 && path.get(2).equals("deks") && method.equals("GET")) {
        return version(kek, path.get(3), algorithm, "latest");
      } else if (size == 5 && path.get(2).equals("deks") && path.get(4).equals("versions") && method.equals("GET")) {
        return versions(kek, path.get(3), algorithm);
      } else if (size == 6 && path.get(2).equals("deks") && path.get(4).equals("versions") && method.equals("GET")) {
        return version(kek, path.get(3), algorithm, path.get(5));
      }
    }
    return Answer.error(405, 405, "HTTP 405 Method Not Allowed: DataContractLayer's DEK registry does not serve "
        + method + " /dek-registry/v1/" + String.join("/", path));
  }

  private Answer createKek(JsonNode body) {
    if (body == null) {
      return invalid("the body must be a JSON object");
    }
    String name = text(body, "name");
    if (name == null || name.isEmpty()) {
      return invalid("name is required");
    }
    if (text(body, "kmsType") == null || text(body, "kmsKeyId") == null) {
      return invalid("KEK '" + name + "' needs kmsType and kmsKeyId");
    }
    if (body.path("shared").asBoolean(false)) {
      return invalid("KEK '" + name + "' is shared: DataContractLayer supports only KEKs that are not shared");
    }
    if (keks.containsKey(name)) {
      return alreadyExists(name);
    }
    ObjectNode kek = Answer.JSON.createObjectNode();
    kek.put("name", name);
    kek.put("kmsType", text(body, "kmsType"));
    kek.put("kmsKeyId", text(body, "kmsKeyId"));
    JsonNode props = body.get("kmsProps");
    kek.set("kmsProps", props != null && props.isObject() ? props.deepCopy() : Answer.JSON.createObjectNode());
    if (text(body, "doc") != null) {
      kek.put("doc", text(body, "doc"));
    }
    kek.put("shared", false);
    kek.put("ts", clock.getAsLong());
    kek.put("deleted", false);
    keks.put(name, kek);
    return Answer.json(200, kek.deepCopy());
  }

  private Answer subjects(String kekName) {
    if (!keks.containsKey(kekName)) {
      return notFound(kekName);
    }
    TreeSet<String> subjects = new TreeSet<>();
    deks.forEach((key, versions) -> {
      if (key.kekName().equals(kekName) && !versions.isEmpty()) {
        subjects.add(key.subject());
      }
    });
    return Answer.json(200, Answer.JSON.valueToTree(subjects));
  }

  private Answer createDek(String kekName, String pathSubject, JsonNode body, boolean rewrap) {
    if (!keks.containsKey(kekName)) {
      return notFound(kekName);
    }
    if (body == null) {
      return invalid("the body must be a JSON object");
    }
    String subject = text(body, "subject") != null ? text(body, "subject") : pathSubject;
    if (subject == null || pathSubject != null && !pathSubject.equals(subject)) {
      return invalid("the DEK's subject '" + subject + "' must be the subject of the path '" + pathSubject + "'");
    }
    String algorithm = text(body, "algorithm") != null ? text(body, "algorithm") : DEFAULT_ALGORITHM;
    if (!ALGORITHMS.contains(algorithm)) {
      return invalid("unknown algorithm '" + algorithm + "', expected one of " + new TreeSet<>(ALGORITHMS));
    }
    JsonNode version = body.get("version");
    if (version != null && !version.isNull() && !(version.canConvertToInt() && version.intValue() >= 1)) {
      return invalid("version " + version + " of DEK '" + subject + "' is not a positive integer");
    }
    String material = text(body, "encryptedKeyMaterial");
    if (material == null || material.isEmpty()) {
      return invalid("DEK '" + subject + "' needs encryptedKeyMaterial, as KEK '" + kekName + "' is not shared");
    }
    int number = version == null || version.isNull() ? 1 : version.intValue();
    TreeMap<Integer, ObjectNode> versions = deks.computeIfAbsent(new DekKey(kekName, subject, algorithm),
        key -> new TreeMap<>());
    if (rewrap && versions.containsKey(number)) {
      ObjectNode rewrapped = versions.get(number);
      rewrapped.put("encryptedKeyMaterial", material);
      return Answer.json(200, rewrapped.deepCopy());
    }
    if (versions.containsKey(number)) {
      return alreadyExists(subject);
    }
    ObjectNode dek = Answer.JSON.createObjectNode();
    dek.put("kekName", kekName);
    dek.put("subject", subject);
    dek.put("version", number);
    dek.put("algorithm", algorithm);
    dek.put("encryptedKeyMaterial", material);
    dek.put("ts", clock.getAsLong());
    dek.put("deleted", false);
    versions.put(number, dek);
    return Answer.json(200, dek.deepCopy());
  }

  private Answer versions(String kekName, String subject, String algorithm) {
    if (!keks.containsKey(kekName)) {
      return notFound(kekName);
    }
    TreeMap<Integer, ObjectNode> versions = deks.get(new DekKey(kekName, subject, algorithm));
    ArrayNode list = Answer.JSON.createArrayNode();
    if (versions != null) {
      versions.keySet().forEach(list::add);
    }
    return Answer.json(200, list);
  }

  private Answer version(String kekName, String subject, String algorithm, String version) {
    if (!keks.containsKey(kekName)) {
      return notFound(kekName);
    }
    TreeMap<Integer, ObjectNode> versions = deks.get(new DekKey(kekName, subject, algorithm));
    if (versions == null || versions.isEmpty()) {
      return notFound(subject);
    }
    ObjectNode dek;
    if (version.equals("latest") || version.equals("-1")) {
      dek = versions.lastEntry().getValue();
    } else {
      try {
        dek = versions.get(Integer.parseInt(version));
      } catch (NumberFormatException e) {
        return invalid("version '" + version + "' of DEK '" + subject + "' is neither a number nor latest");
      }
    }
    return dek == null ? notFound(subject) : Answer.json(200, dek.deepCopy());
  }

  private static String text(JsonNode body, String field) {
    JsonNode value = body.get(field);
    return value == null || !value.isTextual() ? null : value.asText();
  }

  private static Answer notFound(String key) {
    return Answer.error(404, NOT_FOUND, "Key '" + key + "' not found");
  }

  private static Answer alreadyExists(String key) {
    return Answer.error(409, ALREADY_EXISTS, "Key '" + key + "' already exists; use a different value");
  }

  private static Answer invalid(String what) {
    return Answer.error(422, INVALID_KEY, "Invalid key: " + what);
  }
}
