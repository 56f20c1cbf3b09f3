package io.kavro.registry;

/**
 * A schema id of Apicurio Registry's own API, as Apicurio's serdes write it into records: a <em>global id</em>
 * names one version of one artifact, a <em>content id</em> names the schema text, shared by every version that
 * holds the same text. Neither is a Confluent schema id in general (Apicurio's Confluent-compatible API gives
 * content ids by default, global ids in its legacy id mode). Immutable.
 *
 * @param kind which of Apicurio's ids this is
 * @param value the id, positive
 */
public record ApicurioId(Kind kind, long value) {

  /** Apicurio's two kinds of schema id. */
  public enum Kind {
    /** One artifact version ({@code GET /ids/globalIds/{id}}; Apicurio 2's serde default). */
    GLOBAL_ID("global id", "globalIds"),
    /** One schema text ({@code GET /ids/contentIds/{id}}; Apicurio 3's serde default). */
    CONTENT_ID("content id", "contentIds");

    private final String text;
    private final String pathSegment;

    Kind(String text, String pathSegment) {
      this.text = text;
      this.pathSegment = pathSegment;
    }

    /** The path segment of Apicurio's {@code /ids/...} API for this kind. */
    public String pathSegment() {
      return pathSegment;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** @throws IllegalArgumentException if {@code kind} is {@code null} */
  public ApicurioId {
    if (kind == null) {
      throw new IllegalArgumentException("kind is required");
    }
  }

  /** "Apicurio global id 42". */
  @Override
  public String toString() {
    return "Apicurio " + kind + " " + value;
  }
}
