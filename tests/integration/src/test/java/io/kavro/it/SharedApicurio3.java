package io.kavro.it;

import io.kavro.testkit.EmbeddedRegistry;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Apicurio Registry 3 ({@link EmbeddedRegistry#startApicurio3}, a child JVM of Java 21 or later) as an
 * {@link EmbeddedRegistry} parameter: one for every test class of this JVM that asks for it, started on first use
 * and stopped by JUnit's root store at the end of the run. Its users take subjects and topics of their own.
 */
final class SharedApicurio3 implements ParameterResolver {
  /** Holds the registry in JUnit's root store, which closes it at the end of the run. */
  private record Holder(EmbeddedRegistry registry) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      registry.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == EmbeddedRegistry.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(Holder.class, key -> new Holder(EmbeddedRegistry.startApicurio3(0)), Holder.class)
        .registry();
  }
}
