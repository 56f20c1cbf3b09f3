package io.kavro.serde.subject;

/**
 * No context: every topic's schemas are in the registry's default context, and subjects are not qualified. The
 * default of {@code context.name.strategy}, as Confluent's {@code NullContextNameStrategy} is.
 */
public final class NullContextNameStrategy implements ContextNameStrategy {
  @Override
  public String contextName(String topic) {
    return null;
  }
}
