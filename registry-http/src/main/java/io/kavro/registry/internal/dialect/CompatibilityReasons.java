package io.kavro.registry.internal.dialect;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Why a schema breaks a compatibility level, as a registry's answer says it: Confluent's {@code messages} and
 * Apicurio's {@code reason}. When a registry refuses without a reason, the client asks
 * {@link io.kavro.registry.SchemaIncompatibilities} for one.
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
}
