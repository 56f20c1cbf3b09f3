package io.kavro.it;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * Starts one {@link Stack} per test JVM, on first use, and stops it when all tests are done. Chosen once
 * and logged: {@code -Dkavro.stack=containers} or {@code local} forces a choice; the default {@code auto}
 * uses Testcontainers when a Docker engine answers and the local stack otherwise.
 *
 * <p>Test classes get it as a parameter: {@code @ExtendWith(SharedStack.class)}.
 */
public final class SharedStack implements ParameterResolver {
  private static final Logger log = LoggerFactory.getLogger(SharedStack.class);

  /** Holds the stack in JUnit's root store, which closes it at the end of the run. */
  private record Holder(Stack stack) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      log.info("Stopping the test stack");
      stack.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Stack.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(Holder.class, key -> new Holder(start()), Holder.class).stack();
  }

  private static Stack start() {
    String choice = System.getProperty("kavro.stack", "auto").trim();
    boolean containers = switch (choice) {
      case "containers" -> true;
      case "local" -> false;
      case "auto", "" -> dockerAvailable();
      default -> throw new IllegalArgumentException("-Dkavro.stack must be auto, local or containers, was '"
          + choice + "'");
    };
    log.info("Test stack: {} (kavro.stack={})", containers ? "Testcontainers (Docker)"
        : "local (in-JVM KRaft broker, Apicurio child JVM)", choice);
    return containers ? new ContainersStack() : new LocalStackAdapter();
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }
}
