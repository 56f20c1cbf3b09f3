package io.kavro.serde.subject;

/**
 * Chooses the schema context a topic's schemas are in (Confluent's {@code context.name.strategy}): the serializer
 * registers and looks up its subjects in that context ({@code :.ctx:orders-value}), and the deserializer reads a
 * record's schema id within it, since each context numbers its schemas apart.
 *
 * <p>Implementations must be thread-safe and deterministic: the same topic must always give the same context,
 * because the serde caches the answer. Name a class with a public no-arg constructor in {@code
 * context.name.strategy} (or give the {@code Class}). A strategy that also implements Kafka's {@code Configurable}
 * receives the serde's configuration once, when it is made. The default, {@link NullContextNameStrategy}, puts every
 * topic in the registry's default context.
 */
public interface ContextNameStrategy {

  /**
   * The context of {@code topic}'s schemas: a name with or without its colons and leading dot ({@code ctx},
   * {@code .ctx} and {@code :.ctx:} are one context), or {@code null} (or {@code .}) for the default context. A name
   * that holds a colon is refused.
   *
   * @param topic the topic the record goes to or comes from
   */
  String contextName(String topic);
}
