package io.kavro.serde;

/**
 * A topic as a key of the engines' per-topic tables, which cannot hold {@code null}: a caller may pass a
 * {@code null} topic (Kafka's clients never do; tools and tests may), which Confluent's serde reads and writes as
 * any other (its subject under {@code TopicNameStrategy} is {@code null-value}). Kafka refuses an empty topic name,
 * so the empty string stands for it and meets no real topic.
 */
final class TopicKey {
  private TopicKey() {}

  /** {@code topic}, or the empty string for {@code null}. */
  static String of(String topic) {
    return topic == null ? "" : topic;
  }
}
