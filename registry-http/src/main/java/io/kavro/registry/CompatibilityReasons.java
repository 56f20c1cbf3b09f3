package io.kavro.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Why a schema breaks a compatibility level: as a registry's answer says it, or as Avro's {@link SchemaCompatibility}
 * finds it (the in-memory registry's rule, and the reasons a client gives when a registry answers "not compatible"
 * without any).
 */
final class CompatibilityReasons {
  private CompatibilityReasons() {}

  /**
   * The reasons a registry's compatibility answer gives, in its words, each once: Confluent's {@code messages}
   * (texts, or objects quoted as JSON) and Apicurio's {@code reason}; empty when it gives none.
   */
  static List<String> fromAnswer(JsonNode answer) {
    Set<String> reasons = new LinkedHashSet<>();
    collect(answer.get("messages"), reasons);
    collect(answer.get("reason"), reasons);
    return List.copyOf(reasons);
  }

  private static void collect(JsonNode node, Set<String> into) {
    if (node == null || node.isNull()) {
      return;
    }
    if (node.isArray()) {
      node.forEach(item -> collect(item, into));
    } else if (!node.isTextual()) {
      into.add(node.toString());
    } else if (!node.asText().isBlank()) {
      into.add(node.asText().strip());
    }
  }

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

  /**
   * As {@link #firstProblem(CompatibilityLevel, List, Schema)}, against the subject's live versions as {@code
   * client} gives them, fetching only those the level judges against: the latest, or every one for a transitive
   * level; none for {@code NONE}. So a non-transitive level costs two requests (the version list and the latest),
   * whatever the number of versions, fresh from the registry.
   */
  static String firstProblem(SchemaRegistryClient client, String subject, CompatibilityLevel level,
      Schema candidate) {
    if (level == CompatibilityLevel.NONE) {
      return null;
    }
    List<Integer> numbers = client.versions(subject);
    if (numbers.isEmpty()) {
      return null;
    }
    List<Integer> against = level.transitive() ? numbers : List.of(numbers.get(numbers.size() - 1));
    List<SubjectVersion> versions = new ArrayList<>(against.size());
    for (int number : against) {
      versions.add(client.version(subject, number));
    }
    return firstProblem(level, versions, candidate);
  }

  private static String problem(Schema reader, Schema writer, String what) {
    String reasons = SchemaIncompatibilities.summary(reader, writer);
    return reasons == null ? null : what + " (" + reasons + ")";
  }
}
