package io.kavro.registry;

import java.util.List;
import org.apache.avro.Schema;

/**
 * Why a schema breaks a compatibility level, as Avro's {@link SchemaCompatibility} finds it: the in-memory
 * registry's rule, and the reasons a client gives when a registry answers "not compatible" without any.
 */
final class CompatibilityReasons {
  private CompatibilityReasons() {}

  /**
   * The first reason the {@code candidate} breaks {@code level} against the subject's live {@code versions} (oldest
   * first), or {@code null} when it does not.
   */
  static String firstProblem(CompatibilityLevel level, List<SubjectVersion> versions, Schema candidate) {
    if (level == CompatibilityLevel.NONE || versions.isEmpty()) {
      return null;
    }
    List<SubjectVersion> against = level.transitive() ? versions : List.of(versions.get(versions.size() - 1));
    for (SubjectVersion v : against) {
      if (level.backward()) {
        String problem = problem(candidate, v.schema(), "new schema cannot read version " + v.version());
        if (problem != null) {
          return level + ": " + problem;
        }
      }
      if (level.forward()) {
        String problem = problem(v.schema(), candidate, "version " + v.version() + " cannot read the new schema");
        if (problem != null) {
          return level + ": " + problem;
        }
      }
    }
    return null;
  }

  private static String problem(Schema reader, Schema writer, String what) {
    String reasons = SchemaIncompatibilities.summary(reader, writer);
    return reasons == null ? null : what + " (" + reasons + ")";
  }
}
