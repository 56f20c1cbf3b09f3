package io.kavro.maven;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * One subject's entry of {@code <metadata>}: the data contract's metadata a registered version carries, in the shape
 * of Confluent's plugin ({@code properties}, {@code tags}, {@code sensitive}). A field path of {@code tags} is an
 * element name, escaped as subjects are ({@code _x2A_x2A.ssn} is {@code **.ssn}).
 */
public class Metadata {
  /** Properties of the version: {@code <owner>payments</owner>}. */
  Map<String, String> properties;

  /** Tags, by field path: {@code <_x2A_x2A.ssn><tag>PII</tag></_x2A_x2A.ssn>}. */
  Map<String, TagNames> tags;

  /** Names of properties whose values are secret. */
  Set<String> sensitive;

  /** For Maven, which sets the fields. */
  public Metadata() {}

  /**
   * The client's value.
   *
   * @param subject the subject it is for, for messages
   * @param paths how an element name of {@code tags} becomes a field path
   * @throws IllegalArgumentException naming the subject and the entry when a property or a path has no value, or
   *     an element of {@code tags} does not decode
   */
  io.kavro.registry.contract.Metadata toContract(String subject, UnaryOperator<String> paths) {
    String where = "<metadata> of subject '" + subject + "'";
    Map<String, Set<String>> tagsByPath = new LinkedHashMap<>();
    if (tags != null) {
      tags.forEach((element, names) -> {
        String path;
        try {
          path = paths.apply(element);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(where + ": <tags>: " + e.getMessage(), e);
        }
        if (names == null || names.isEmpty() || names.stream().anyMatch(n -> n == null || n.isBlank())) {
          throw new IllegalArgumentException(where + ": <tags> gives field path '" + path + "' no tag; give <"
              + element + "><tag>PII</tag></" + element + ">");
        }
        tagsByPath.put(path, new LinkedHashSet<>(names));
      });
    }
    if (properties != null) {
      properties.forEach((name, value) -> {
        if (value == null) {
          throw new IllegalArgumentException(where + ": property '" + name + "' has no value");
        }
      });
    }
    if (sensitive != null && sensitive.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException(where + ": <sensitive> has an empty entry");
    }
    return new io.kavro.registry.contract.Metadata(tagsByPath, properties, sensitive);
  }
}
