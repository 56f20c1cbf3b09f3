package io.kavro.serde.framing;

/**
 * A {@link FramingResolver}'s key for a writer schema, kept apart from Kavro's own keys (ids, GUIDs, Apicurio
 * ids) so that the deserializer caches each apart.
 *
 * @param key the resolver's key, with value equality
 */
public record ResolverKey(Object key) {
  @Override
  public String toString() {
    String text;
    try {
      text = String.valueOf(key);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      text = "of " + key.getClass().getName(); // the plug-in's toString failed: no message may fail with it
    }
    return "key " + text + " of the framing resolver";
  }
}
