package io.kavro.registry.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.internal.schema.HeldSchemaParser;
import io.kavro.registry.internal.schema.SchemaTextLimits;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * Turns a registry answer ({@code schema} text and optional {@code references}) into an Avro {@link Schema}.
 *
 * <p>A schema with references (Confluent's {@code [{"name", "subject", "version"}]}) names types registered
 * under other subjects. Each referenced version is fetched, its own references first (depth-first, each
 * subject version once), and parsed into the same Avro parser before the schema itself, so that its names
 * resolve. The result is one self-contained {@link Schema}, which is what Avro needs to read and write.
 *
 * <p>Every text is read as Avro up to 1.12.1 reads it ({@link HeldSchemaParser}): registries hold schemas that
 * Avro 1.12.2 refuses.
 */
public final class RegisteredSchemaParser {
  /** Deeper reference chains than this are refused: a registry loop, not a real schema. */
  public static final int MAX_DEPTH = 32;
  /** More referenced subject versions than this, in all, for one schema are refused. */
  public static final int MAX_REFERENCES = 1000;

  private final Function<RestRequest, JsonNode> send;
  private final int maxReferences;

  /** @param send sends a request and returns the answer's JSON (as the client's transport does) */
  public RegisteredSchemaParser(Function<RestRequest, JsonNode> send) {
    this(send, MAX_REFERENCES);
  }

  /** With another bound on the referenced versions of one schema, for tests. */
  public RegisteredSchemaParser(Function<RestRequest, JsonNode> send, int maxReferences) {
    this.send = send;
    this.maxReferences = maxReferences;
  }

  /**
   * The schema in {@code json}, the answer to {@code request}, with its references resolved.
   */
  public Schema parse(JsonNode json, RestRequest request) {
    HeldSchemaParser parser = new HeldSchemaParser();
    define(parser, json.path("references"), request.operation(), new HashSet<>(), 1);
    return parse(parser, json, request.operation());
  }

  private void define(HeldSchemaParser parser, JsonNode references, String referrer, Set<String> defined, int depth) {
    if (!references.isArray() || references.isEmpty()) {
      return;
    }
    if (depth > MAX_DEPTH) {
      throw new InvalidSchemaException(referrer + ": schema references nest deeper than " + MAX_DEPTH
          + " levels");
    }
    for (JsonNode reference : references) {
      String name = reference.path("name").asText("");
      String subject = reference.path("subject").asText("");
      JsonNode versionNode = reference.path("version");
      if (subject.isEmpty() || !versionNode.canConvertToInt()) {
        throw new SchemaRegistryException(referrer + " failed: the registry's answer has a reference without a "
            + "valid 'subject' and 'version': " + ErrorMapping.shorten(reference.toString()));
      }
      int version = versionNode.intValue();
      String versionPath = version < 0 ? "latest" : Integer.toString(version);
      if (!defined.add(subject + '\u0000' + versionPath)) {
        continue;
      }
      if (defined.size() > maxReferences) {
        throw new InvalidSchemaException(referrer + ": the schema pulls in more than " + maxReferences
            + " referenced subject versions");
      }
      String operation = "get version " + versionPath + " of subject '" + subject + "', referenced as '" + name
          + "' by " + referrer;
      JsonNode referenced;
      try {
        referenced = send.apply(RestRequest.get(operation, "subjects", subject, "versions", versionPath));
      } catch (SchemaNotFoundException e) {
        throw new InvalidSchemaException(operation + ": the registry does not have it: " + e.getMessage(),
            e.status(), e.errorCode(), e.url(), e);
      }
      define(parser, referenced.path("references"), operation, defined, depth + 1);
      parse(parser, referenced, operation);
    }
  }

  private static Schema parse(HeldSchemaParser parser, JsonNode json, String operation) {
    JsonNode text = json.get("schema");
    if (text == null || !text.isTextual()) {
      throw new SchemaRegistryException(operation + " failed: the registry's answer has no valid 'schema' field");
    }
    return parse(parser, text.asText(), operation);
  }

  /**
   * A schema that the registry answered as its bare text (schema-repo's; Apicurio's own API's, as uploaded, comments
   * included), with the same limits as any schema, and no references to resolve.
   */
  public static Schema parseText(String schema, String operation) {
    return parse(new HeldSchemaParser(), schema, operation);
  }

  private static Schema parse(HeldSchemaParser parser, String schema, String operation) {
    SchemaTextLimits.check(schema, operation, "the registry");
    try {
      return parser.parse(schema);
    } catch (AvroRuntimeException e) {
      // SchemaParseException, and Avro 1.12's AvroTypeException for a name defined nowhere.
      throw new InvalidSchemaException(operation + ": the registry returned a schema that Avro cannot parse: "
          + e.getMessage());
    }
  }
}
