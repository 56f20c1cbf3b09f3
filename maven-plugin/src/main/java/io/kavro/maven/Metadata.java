package io.kavro.maven;

import java.util.Map;
import java.util.Set;

/**
 * One subject's entry of {@code <metadata>}: the data contract's metadata a registered version carries, in the shape
 * of Confluent's plugin ({@code properties}, {@code tags}, {@code sensitive}).
 */
public class Metadata {
  /** Properties of the version: {@code <owner>payments</owner>}. */
  Map<String, String> properties;

  /** Tags, by field path: refused for now (see {@link #toContract}). */
  Map<String, Set<String>> tags;

  /** Names of properties whose values are secret. */
  Set<String> sensitive;

  /** For Maven, which sets the fields. */
  public Metadata() {}

  /**
   * The client's value.
   *
   * @throws IllegalArgumentException when tags are given: Maven builds a map of sets empty, so they are refused
   *     rather than dropped
   */
  io.kavro.registry.contract.Metadata toContract(String subject) {
    if (tags != null && !tags.isEmpty()) {
      throw new IllegalArgumentException("<metadata> of subject '" + subject + "': <tags> are not taken by Kavro's "
          + "plugin yet; give <properties> and <sensitive>, or register the tags through the registry's API");
    }
    return new io.kavro.registry.contract.Metadata(tags == null ? Map.of() : tags,
        properties == null ? Map.of() : properties, sensitive == null ? Set.of() : sensitive);
  }
}
