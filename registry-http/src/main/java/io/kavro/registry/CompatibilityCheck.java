package io.kavro.registry;

import java.util.List;

/**
 * A registry's answer to "could this schema be registered under this subject?", with its reasons when it says no
 * (Confluent's {@code verbose=true} messages; empty where a registry gives none).
 *
 * @param compatible whether the subject's compatibility level admits the schema
 * @param messages why it does not, in the registry's words
 */
public record CompatibilityCheck(boolean compatible, List<String> messages) {
  /** Copies the messages. */
  public CompatibilityCheck {
    messages = List.copyOf(messages);
  }
}
