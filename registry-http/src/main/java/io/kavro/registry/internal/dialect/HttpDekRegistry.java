package io.kavro.registry.internal.dialect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import io.kavro.registry.internal.http.JsonBodies;
import io.kavro.registry.internal.http.OptionalApi;
import io.kavro.registry.internal.http.RestRequest;
import io.kavro.registry.internal.schema.SubjectNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Confluent's DEK registry REST API ({@code /dek-registry/v1}) on the schema registry client's transport: the
 * four calls that field encryption makes, as Confluent's Java and JavaScript clients make them, and the listing
 * and rewrap calls of the rewrap tool, as Confluent's {@code RewrapDeks} makes them.
 *
 * <ul>
 *   <li>A get answered 404 with the DEK registry's "key not found" ({@code error_code} 40470) is empty.</li>
 *   <li>A create answered 409 (another client created it first) is looked up again, and what the registry holds
 *       is returned; a DEK create answered 405 (a registry before the subject was in the path) is sent to
 *       {@code /keks/{kek}/deks}.</li>
 *   <li>Only the DEK registry's own answers say that something does not exist: its error codes 4047x. Any other
 *       404 (a proxy's HTML page, a JSON {@code error_code} 404, a {@code 40400}, another API's 404xx) is an
 *       outage ({@link RegistryUnavailableException}), retried and failed over like a 503 by the transport, and
 *       never remembered: a transient answer must not switch field encryption off. A registry without the API
 *       (Apicurio, Karapace, Confluent before 7.5) answers so too, and every encrypted record then fails
 *       retriably: fail-closed. So is a 2xx whose body is not JSON.</li>
 * </ul>
 *
 * <p>KEK names and subjects travel percent-encoded in the path ({@link io.kavro.registry.internal.http.Urls#encode});
 * an empty, {@code .} or
 * {@code ..} subject is refused ({@link io.kavro.registry.InvalidSubjectException}), and such a KEK name too, before
 * anything is sent.
 *
 * <p>Neither KMS properties nor key material appear in a message: operations name KEKs and subjects only.
 * Thread-safe.
 */
public final class HttpDekRegistry implements DekRegistry {
  /** How a DEK version of {@link #LATEST} is named in a path: Confluent's clients send -1, its server takes it. */
  static final String LATEST_SEGMENT = "-1";

  private final Function<RestRequest, JsonNode> send;

  /**
   * @param send sends a request of the DEK registry API (marked {@link OptionalApi#DEK_REGISTRY}, so that any 404
   *     but the API's own is an outage)
   */
  HttpDekRegistry(Function<RestRequest, JsonNode> send) {
    this.send = send;
  }

  @Override
  public Optional<Kek> kek(String name, boolean deleted) {
    RestRequest request = RestRequest.get("get KEK '" + name + "'", "dek-registry", "v1", "keks", name)
        .withQuery("deleted", Boolean.toString(deleted));
    return find(request).map(json -> kekOf(json, request));
  }

  /** {@inheritDoc} A 409 is answered by the KEK of that name, looked up without soft-deleted ones. */
  @Override
  public Kek createKek(Kek kek) {
    ObjectNode body = JsonBodies.object().put("name", kek.name()).put("kmsType", kek.kmsType())
        .put("kmsKeyId", kek.kmsKeyId());
    if (!kek.kmsProps().isEmpty()) {
      ObjectNode props = body.putObject("kmsProps");
      new java.util.TreeMap<>(kek.kmsProps()).forEach(props::put);
    }
    if (kek.doc() != null) {
      body.put("doc", kek.doc());
    }
    body.put("shared", kek.shared());
    RestRequest request = RestRequest.post("create KEK '" + kek.name() + "'", body, "dek-registry", "v1", "keks");
    try {
      return kekOf(sendDek(request), request);
    } catch (SchemaRegistryException e) {
      if (e.status() != 409) {
        throw e;
      }
      return kek(kek.name(), false).orElseThrow(() -> conflict(e, "no KEK of that name"));
    }
  }

  @Override
  public Optional<Dek> dek(String kekName, String subject, String algorithm, int version, boolean deleted) {
    SubjectNames.checked(subject, "get DEK of KEK '" + kekName + "', subject '" + subject + "'");
    String segment = version == LATEST ? LATEST_SEGMENT : Integer.toString(checkedVersion(version, kekName, subject));
    RestRequest request = RestRequest.get("get " + (version == LATEST ? "latest DEK" : "DEK version " + version)
        + " of KEK '" + kekName + "', subject '" + subject + "'", "dek-registry", "v1", "keks", kekName, "deks",
        subject, "versions", segment);
    if (algorithm != null) {
      request = request.withQuery("algorithm", algorithm);
    }
    RestRequest sent = request.withQuery("deleted", Boolean.toString(deleted));
    return find(sent).map(json -> dekOf(json, sent, kekName, subject, algorithm));
  }

  /**
   * {@inheritDoc} A 405 (a registry that takes no subject in the path) is sent again to {@code /keks/{kek}/deks};
   * a 409 is answered by that DEK version, looked up without soft-deleted ones.
   */
  @Override
  public Dek createDek(String kekName, String subject, String algorithm, int version, String encryptedKeyMaterial) {
    SubjectNames.checked(subject, "create DEK of KEK '" + kekName + "', subject '" + subject + "'");
    checkedVersion(version, kekName, subject);
    ObjectNode body = JsonBodies.object().put("subject", subject).put("version", version);
    if (algorithm != null) {
      body.put("algorithm", algorithm);
    }
    if (encryptedKeyMaterial != null) {
      body.put("encryptedKeyMaterial", encryptedKeyMaterial);
    }
    String operation = "create DEK version " + version + " of KEK '" + kekName + "', subject '" + subject + "'";
    RestRequest request = RestRequest.post(operation, body, "dek-registry", "v1", "keks", kekName, "deks", subject);
    try {
      try {
        return dekOf(sendDek(request), request, kekName, subject, algorithm);
      } catch (SchemaRegistryException e) {
        if (e.status() != 405) {
          throw e;
        }
        RestRequest older = RestRequest.post(operation, body, "dek-registry", "v1", "keks", kekName, "deks");
        return dekOf(sendDek(older), older, kekName, subject, algorithm);
      }
    } catch (SchemaRegistryException e) {
      if (e.status() != 409) {
        throw e;
      }
      return dek(kekName, subject, algorithm, version, false)
          .orElseThrow(() -> conflict(e, "no such DEK version"));
    }
  }

  @Override
  public List<String> dekSubjects(String kekName, boolean deleted) {
    RestRequest request = RestRequest.get("list the DEK subjects of KEK '" + kekName + "'", "dek-registry", "v1",
        "keks", kekName, "deks").withQuery("deleted", Boolean.toString(deleted));
    JsonNode json = sendDek(request);
    if (!json.isArray()) {
      throw malformed(request, "subjects");
    }
    List<String> subjects = new ArrayList<>();
    for (JsonNode subject : json) {
      if (!subject.isTextual()) {
        throw malformed(request, "subjects");
      }
      subjects.add(subject.asText());
    }
    return List.copyOf(subjects);
  }

  @Override
  public List<Integer> dekVersions(String kekName, String subject, String algorithm, boolean deleted) {
    SubjectNames.checked(subject, "list the DEK versions of KEK '" + kekName + "', subject '" + subject + "'");
    RestRequest request = RestRequest.get("list the " + (algorithm == null ? "" : algorithm + " ")
        + "DEK versions of KEK '" + kekName + "', subject '" + subject + "'", "dek-registry", "v1", "keks", kekName,
        "deks", subject, "versions").withQuery("deleted", Boolean.toString(deleted));
    if (algorithm != null) {
      request = request.withQuery("algorithm", algorithm);
    }
    JsonNode json = sendDek(request);
    if (!json.isArray()) {
      throw malformed(request, "versions");
    }
    List<Integer> versions = new ArrayList<>();
    for (JsonNode version : json) {
      if (!version.isIntegralNumber() || !version.canConvertToInt()) {
        throw malformed(request, "versions");
      }
      versions.add(version.intValue());
    }
    return List.copyOf(versions);
  }

  /**
   * {@inheritDoc} Never sent again to the older {@code /keks/{kek}/deks} on a 405: a registry without the subject
   * in the path cannot rewrap, and would answer 409 there.
   */
  @Override
  public Dek rewrapDek(Dek dek, String encryptedKeyMaterial) {
    SubjectNames.checked(dek.subject(), "rewrap " + dek);
    checkedVersion(dek.version(), dek.kekName(), dek.subject());
    ObjectNode body = JsonBodies.object().put("subject", dek.subject()).put("version", dek.version())
        .put("algorithm", dek.algorithm());
    if (encryptedKeyMaterial != null) {
      body.put("encryptedKeyMaterial", encryptedKeyMaterial);
    }
    body.put("deleted", dek.deleted());
    RestRequest request = RestRequest.post("rewrap " + dek, body, "dek-registry", "v1", "keks", dek.kekName(),
        "deks", dek.subject()).withQuery("rewrap", "true");
    return dekOf(sendDek(request), request, dek.kekName(), dek.subject(), dek.algorithm());
  }

  /** The answer, or empty for the DEK registry's "key not found". */
  private Optional<JsonNode> find(RestRequest request) {
    try {
      return Optional.of(sendDek(request));
    } catch (SchemaNotFoundException e) {
      if (e.errorCode() == OptionalApi.DEK_KEY_NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Sends a call of the API. A success whose body is not JSON (a proxy's or a captive portal's page) is no answer
   * of the DEK registry: an outage (the transport retries and fails it over), never a failure that a rule's action
   * could pass over.
   */
  private JsonNode sendDek(RestRequest request) {
    return send.apply(request.of(OptionalApi.DEK_REGISTRY));
  }

  private static SchemaRegistryException conflict(SchemaRegistryException e, String found) {
    return new SchemaRegistryException(e.getMessage() + "; looked up again, the registry has " + found,
        e.status(), e.errorCode(), e.url(), e);
  }

  /** {@code version}, when it is one a DEK can have: 1 or more. */
  public static int checkedVersion(int version, String kekName, String subject) {
    if (version < 1) {
      throw new IllegalArgumentException("DEK version of KEK '" + kekName + "', subject '" + subject
          + "' must be at least 1 (or DekRegistry.LATEST for a lookup), was " + version);
    }
    return version;
  }

  private static Kek kekOf(JsonNode json, RestRequest request) {
    Map<String, String> props = new LinkedHashMap<>();
    JsonNode kmsProps = json.path("kmsProps");
    if (!kmsProps.isMissingNode() && !kmsProps.isNull()) {
      if (!kmsProps.isObject()) {
        throw malformed(request, "kmsProps");
      }
      kmsProps.fields().forEachRemaining(entry -> props.put(entry.getKey(), entry.getValue().asText()));
    }
    return new Kek(requiredText(json, "name", request), requiredText(json, "kmsType", request),
        requiredText(json, "kmsKeyId", request), props, optionalText(json, "doc"),
        json.path("shared").asBoolean(false), json.path("deleted").asBoolean(false));
  }

  private static Dek dekOf(JsonNode json, RestRequest request, String kekName, String subject, String algorithm) {
    JsonNode version = json.get("version");
    if (version == null || !version.canConvertToInt() || !version.isIntegralNumber()) {
      throw malformed(request, "version");
    }
    String answeredAlgorithm = optionalText(json, "algorithm");
    if (answeredAlgorithm == null && algorithm == null) {
      throw malformed(request, "algorithm");
    }
    return new Dek(json.path("kekName").asText(kekName), json.path("subject").asText(subject), version.intValue(),
        answeredAlgorithm != null ? answeredAlgorithm : algorithm, optionalText(json, "encryptedKeyMaterial"),
        optionalText(json, "keyMaterial"), json.path("ts").asLong(0), json.path("deleted").asBoolean(false));
  }

  private static String requiredText(JsonNode json, String field, RestRequest request) {
    String text = optionalText(json, field);
    if (text == null) {
      throw malformed(request, field);
    }
    return text;
  }

  private static String optionalText(JsonNode json, String field) {
    JsonNode node = json.get(field);
    return node == null || !node.isTextual() ? null : node.asText();
  }

  /**
   * A success that is no KEK or DEK ({@code {}}, a gateway's {@code {"status":"ok"}}): no answer of the DEK
   * registry, so an outage, as a success that is not JSON is, never a failure a rule's action could pass over.
   * Names the field only: the answer may hold key material or KMS properties.
   */
  private static RegistryUnavailableException malformed(RestRequest request, String field) {
    return new RegistryUnavailableException(request.operation() + " failed: the registry's answer has no valid '"
        + field + "' field; not an answer of the DEK registry: treated as an outage", -1, -1, null, null);
  }
}
