package io.kavro.serde.framing;

/**
 * Where one record names its writer schema and where its Avro body is, as {@link SchemaIdReader#locate} found
 * them. Mutable and reused, one per thread, so that finding the id allocates nothing: read it before the next
 * record. Not thread-safe.
 *
 * <p>The writer schema is named by {@link #schemaId()} (a Confluent schema id) when {@link #key()} is {@code null},
 * else by the key: a {@link java.util.UUID} schema GUID, an {@link io.kavro.registry.ApicurioId}, or a
 * {@link ResolverKey}. When the record has an id header and its payload also starts with a whole prefix, the
 * prefix's reading is the {@link #alternative()}: either may be the framing its producer used.
 */
public final class Located {
  private int schemaId;
  private Object key;
  private int bodyOffset;
  private int bodyLength;
  private Object alternative;
  private int alternativeOffset;
  private int alternativeLength;

  /** A location to fill. */
  public Located() {}

  void set(int schemaId, Object key, int bodyOffset, int bodyLength) {
    this.schemaId = schemaId;
    this.key = key;
    this.bodyOffset = bodyOffset;
    this.bodyLength = bodyLength;
    this.alternative = null;
  }

  void alternative(Object key, int bodyOffset, int bodyLength) {
    this.alternative = key;
    this.alternativeOffset = bodyOffset;
    this.alternativeLength = bodyLength;
  }

  /** The Confluent schema id, when {@link #key()} is {@code null}. */
  public int schemaId() {
    return schemaId;
  }

  /** How the record names its writer schema otherwise, or {@code null} for {@link #schemaId()}. */
  public Object key() {
    return key;
  }

  /** {@link #key()}, or the schema id boxed: how the record names its writer schema, for messages. */
  public Object named() {
    return key != null ? key : (Object) schemaId;
  }

  /** Where the Avro body starts in the payload's array. */
  public int bodyOffset() {
    return bodyOffset;
  }

  /** The Avro body's length. */
  public int bodyLength() {
    return bodyLength;
  }

  /**
   * The key the payload's prefix holds (an {@code Integer} schema id, a GUID or an Apicurio id) when the record
   * names a schema in an id header too, else {@code null}.
   */
  public Object alternative() {
    return alternative;
  }

  /** Where the body starts after that prefix. */
  public int alternativeOffset() {
    return alternativeOffset;
  }

  /** The body's length after that prefix. */
  public int alternativeLength() {
    return alternativeLength;
  }
}
