package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.subject.SubjectNameStrategies;
import io.kavro.serde.subject.TickedAssociatedNameStrategy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/** For tests of the serde around association lookups: a client whose lookups can fail, as in an outage. */
final class AssociationLookups {
  private AssociationLookups() {}

  /**
   * The value settings of {@code serdes} and {@code keyValues}, with {@link TickedAssociatedNameStrategy} as the
   * strategy, which is given {@code client}.
   */
  static AvroSerdeConfig ticked(Serdes serdes, SchemaRegistryClient client, Object... keyValues) {
    Object[] settings = new Object[keyValues.length + 2];
    settings[0] = "value.subject.name.strategy";
    settings[1] = TickedAssociatedNameStrategy.class;
    System.arraycopy(keyValues, 0, settings, 2, keyValues.length);
    AvroSerdeConfig config = new AvroSerdeConfig(serdes.config(settings), false);
    SubjectNameStrategies.useRegistry(config.subjectNameStrategy(), client);
    return config;
  }

  /**
   * {@code client}, except that each call of {@code associations} runs {@code before} first, which may throw (the
   * registry's failure) or count.
   */
  static SchemaRegistryClient intercepted(SchemaRegistryClient client, Runnable before) {
    return (SchemaRegistryClient) Proxy.newProxyInstance(AssociationLookups.class.getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("associations")) {
            before.run();
          }
          try {
            return method.invoke(client, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
