package io.kavro.registry.internal.schema;

import io.kavro.registry.InvalidSchemaException;

/**
 * The limits on a schema's text that Kavro parses, wherever it comes from (the registry, or the disk cache):
 * its length and how deep its JSON nests. Avro's parser recurses into the JSON, so a deep enough text would
 * overflow the stack of the thread that reads a record.
 */
public final class SchemaTextLimits {
  /** The longest schema text accepted, in chars. */
  public static final int MAX_SCHEMA_CHARS = 4 * 1024 * 1024;
  /** The deepest nesting of JSON objects and arrays accepted. */
  public static final int MAX_JSON_DEPTH = 256;

  private SchemaTextLimits() {}

  /**
   * Checks {@code schema}'s text.
   *
   * @param source what gave the text, for the message ("the registry", "the schema cache file x")
   * @throws InvalidSchemaException naming the limit, when the text passes one
   */
  public static void check(String schema, String operation, String source) {
    if (schema.length() > MAX_SCHEMA_CHARS) {
      throw new InvalidSchemaException(operation + ": " + source + " gave a schema of " + schema.length()
          + " chars, more than the " + MAX_SCHEMA_CHARS + " Kavro accepts");
    }
    int depth = jsonDepth(schema);
    if (depth > MAX_JSON_DEPTH) {
      throw new InvalidSchemaException(operation + ": " + source + " gave a schema whose JSON nests " + depth
          + " levels deep, more than the " + MAX_JSON_DEPTH + " Kavro accepts");
    }
  }

  /** The deepest nesting of JSON objects and arrays in {@code json}, brackets inside strings aside. */
  public static int jsonDepth(String json) {
    int depth = 0;
    int deepest = 0;
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        deepest = Math.max(deepest, ++depth);
      } else if (c == '}' || c == ']') {
        depth--;
      }
    }
    return deepest;
  }
}
