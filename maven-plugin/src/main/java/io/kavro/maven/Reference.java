package io.kavro.maven;

import io.kavro.schematools.SchemaImports;

/**
 * One {@code <reference>} of {@code <references>}: a type that the subject's schema takes from a version of another
 * subject, as Confluent's plugin takes it ({@code name}, {@code subject}, optional {@code version}). Maven builds it
 * from the element named {@code reference}.
 */
public class Reference {
  /** The full name of the type, as the schema uses it: {@code com.acme.Customer}. */
  String name;

  /** The subject whose version defines the type. */
  String subject;

  /** The version, from 1; the subject's latest when absent (the one just registered, when the goal registers it). */
  Integer version;

  /** For Maven, which sets the fields. */
  public Reference() {}

  Reference(String name, String subject, Integer version) {
    this.name = name;
    this.subject = subject;
    this.version = version;
  }

  /**
   * The reference as the registry client asks for it.
   *
   * @param referrer the subject that references it, for the message
   * @throws IllegalArgumentException naming the referrer when the name or subject is missing, or the version is
   *     not from 1
   */
  SchemaImports.Wanted wanted(String referrer) {
    if (name == null || name.isBlank() || subject == null || subject.isBlank()
        || version != null && version < 1) {
      throw new IllegalArgumentException("<references> of subject '" + referrer + "': a <reference> needs a <name> "
          + "and a <subject>, and a <version> from 1 if any; was name=" + name + ", subject=" + subject
          + ", version=" + version);
    }
    return new SchemaImports.Wanted(name, subject, version == null ? 0 : version);
  }
}
