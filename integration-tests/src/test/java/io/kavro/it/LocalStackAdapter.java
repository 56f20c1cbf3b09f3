package io.kavro.it;

import io.kavro.examples.stack.LocalStack;

/** The stack without Docker: the examples' local stack (in-JVM KRaft broker, Apicurio child JVM). */
final class LocalStackAdapter implements Stack {
  private final LocalStack stack = LocalStack.start();

  @Override
  public String bootstrapServers() {
    return stack.bootstrapServers();
  }

  @Override
  public String registryUrl() {
    return stack.registryUrl();
  }

  @Override
  public void close() {
    stack.close();
  }
}
