package io.kavro.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JUnit 5 extension that gives tests a {@link TestStack}: one per test JVM, started on first use by
 * {@link TestStacks#start()} and stopped when every test is done. Ask for it as a constructor or method
 * parameter:
 *
 * <pre>{@code
 * @ExtendWith(KavroStackExtension.class)
 * class OrdersTest {
 *   @Test
 *   void roundTrip(TestStack stack) {
 *     Map<String, Object> config = Map.of("bootstrap.servers", stack.bootstrapServers(),
 *         "schema.registry.url", stack.registryUrl());
 *     ...
 *   }
 * }
 * }</pre>
 */
public final class KavroStackExtension implements ParameterResolver {
  private static final Logger log = LoggerFactory.getLogger(KavroStackExtension.class);

  /** Holds the stack in JUnit's root store, which closes it at the end of the run. */
  private record Holder(TestStack stack) implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    @Override
    public void close() {
      log.info("Stopping the test stack");
      stack.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestStack.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(Holder.class, key -> new Holder(TestStacks.start()), Holder.class).stack();
  }
}
