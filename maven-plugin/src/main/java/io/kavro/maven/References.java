package io.kavro.maven;

import java.util.ArrayList;
import java.util.List;

/**
 * One subject's entry of {@code <references>}: its {@code <reference>} elements, as Confluent's plugin takes them.
 * Maven gives each element to {@link #addReference}: a map's values must be of a class for Maven to build them
 * (a {@code List} value would be built empty, dropping the references without a word).
 */
public class References {
  private final List<Reference> references = new ArrayList<>();

  /** For Maven, which adds the references. */
  public References() {}

  /** Maven calls it for each {@code <reference>} element. */
  public void addReference(Reference reference) {
    references.add(reference);
  }

  /** The references, in the order given. */
  List<Reference> list() {
    return List.copyOf(references);
  }
}
