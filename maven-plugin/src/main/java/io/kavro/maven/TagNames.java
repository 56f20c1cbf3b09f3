package io.kavro.maven;

import java.util.ArrayList;

/**
 * The tags of one field path in {@code <metadata>}'s {@code <tags>}, one element each, of any name:
 * {@code <_x2A_x2A.ssn><tag>PII</tag></_x2A_x2A.ssn>}, Confluent's shape. A class of its own because Maven 3.8's
 * configurator builds the values of a {@code Map<String, Set<String>>} as null: it finds the element type of a
 * collection from the collection's class, not from the map's type arguments.
 */
public class TagNames extends ArrayList<String> {
  private static final long serialVersionUID = 1L;

  /** For Maven, which adds the tags. */
  public TagNames() {}
}
