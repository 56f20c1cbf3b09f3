package io.kavro.registry;

/**
 * A subject's association with a resource, as Confluent's registry (8.3 and later) keeps them under
 * {@code /associations}: the subject whose schemas a Kafka topic's keys or values use. Immutable.
 *
 * @param subject the associated subject
 * @param resourceName the resource's name: a topic's name
 * @param resourceNamespace the resource's namespace: the Kafka cluster id, or {@code "-"} (any)
 * @param resourceType the resource's type: {@code "topic"}
 * @param associationType what of the resource the subject is for: {@code "key"} or {@code "value"}
 */
public record Association(String subject, String resourceName, String resourceNamespace, String resourceType,
    String associationType) {

  /** The namespace that matches every namespace ({@code "-"}): a topic of any Kafka cluster. */
  public static final String ANY_NAMESPACE = "-";
  /** The resource type of a Kafka topic. */
  public static final String TOPIC = "topic";
  /** The association type of a topic's keys. */
  public static final String KEY = "key";
  /** The association type of a topic's values. */
  public static final String VALUE = "value";

  /**
   * @throws IllegalArgumentException naming the field when a field is null or blank
   */
  public Association {
    requireText(subject, "subject");
    requireText(resourceName, "resourceName");
    requireText(resourceNamespace, "resourceNamespace");
    requireText(resourceType, "resourceType");
    requireText(associationType, "associationType");
  }

  private static void requireText(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("an association needs a " + field + ", got " + (value == null ? "null"
          : "'" + value + "'"));
    }
  }
}
