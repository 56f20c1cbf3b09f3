package io.kavro.maven;

import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.SchemaIncompatibilities;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;

/** A subject's registered versions, and what Kavro reads of a schema against them. */
final class Versions {
  private Versions() {}

  /** The subject's live versions, oldest first. */
  static List<SubjectVersion> of(SchemaRegistryClient registry, String subject) {
    List<SubjectVersion> versions = new ArrayList<>();
    for (int version : registry.versions(subject)) {
      versions.add(registry.version(subject, version));
    }
    return versions;
  }

  /**
   * The subject's latest version with this id: the version that a registration answering {@code id} made or
   * found. A lookup by schema alone could name another version, one with the same schema and other metadata or
   * rules. Reads the versions from the latest down, so a new version costs one read.
   */
  static Optional<SubjectVersion> withId(SchemaRegistryClient registry, String subject, int id) {
    List<Integer> numbers = registry.versions(subject);
    for (int i = numbers.size() - 1; i >= 0; i--) {
      SubjectVersion version = registry.version(subject, numbers.get(i));
      if (version.id() == id) {
        return Optional.of(version);
      }
    }
    return Optional.empty();
  }

  /**
   * Why the subject cannot take {@code schema} at the level in force, as Avro finds it against the versions the
   * level names (every one for a transitive level), naming the field: "BACKWARD: new schema cannot read version 1
   * (field Order.priority ...)"; or {@code null} when Avro finds nothing.
   */
  static String kavroReading(SchemaRegistryClient registry, String subject, CompatibilityInForce level,
      Schema schema) {
    return SchemaIncompatibilities.firstProblem(level.level(), of(registry, subject), schema).orElse(null);
  }
}
