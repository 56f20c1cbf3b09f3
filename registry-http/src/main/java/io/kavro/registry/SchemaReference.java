package io.kavro.registry;

import java.util.Objects;

/**
 * A named type that a schema uses without defining it: the type is defined by a version of another subject
 * (Confluent's schema references). A multi-event topic's schema, a union of record types each registered under
 * its own subject, is the usual case.
 *
 * @param name the full name of the type, as the schema uses it ({@code com.acme.OrderPlaced})
 * @param subject the subject whose version defines the type
 * @param version that version, from 1
 */
public record SchemaReference(String name, String subject, int version) {
  /** Checks that the name and subject are given and the version is a version number. */
  public SchemaReference {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(subject, "subject");
    if (name.isBlank() || subject.isBlank() || version < 1) {
      throw new IllegalArgumentException("a schema reference needs a type name, a subject and a version from 1, "
          + "was " + name + "=" + subject + ":" + version);
    }
  }
}
