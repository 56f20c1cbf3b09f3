package io.kavro.registry.contract;

import java.util.Map;
import java.util.Set;

/**
 * The metadata of a schema version ({@code metadata}).
 *
 * @param tags field tags by path pattern ({@code "**.ssn"} to {@code ["PII"]}), added to the fields' own
 *     {@code confluent:tags}
 * @param properties free properties ({@code owner}, {@code major_version}, ...); rule parameters fall back to them
 * @param sensitive the names of properties that hold secrets
 */
public record Metadata(Map<String, Set<String>> tags, Map<String, String> properties, Set<String> sensitive) {
  /** No metadata. */
  public static final Metadata EMPTY = new Metadata(Map.of(), Map.of(), Set.of());

  /** Copies the collections; null ones are empty. */
  public Metadata {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
    tags.values().forEach(java.util.Objects::requireNonNull);
    properties = Map.copyOf(properties == null ? Map.of() : properties);
    sensitive = Set.copyOf(sensitive == null ? Set.of() : sensitive);
  }

  /** Whether there is no metadata at all. */
  public boolean isEmpty() {
    return tags.isEmpty() && properties.isEmpty() && sensitive.isEmpty();
  }

  /** The property names only: the values of sensitive ones are secrets. */
  @Override
  public String toString() {
    return "metadata(tags " + tags.keySet() + ", properties " + properties.keySet() + ")";
  }
}
