package io.kavro.registry.internal.cache;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An in-memory registry behind a switch: "down" makes every call unavailable, a latch can hold calls of one
 * key, and the threads that called are recorded. For the caching client's tests.
 */
final class ScriptedRegistry {
  final MockRegistry registry = MockRegistries.inMemory();
  final List<Thread> callingThreads = new CopyOnWriteArrayList<>();
  volatile boolean down;
  volatile Object heldKey;
  final CountDownLatch release = new CountDownLatch(1);
  final CountDownLatch held = new CountDownLatch(1);

  /** The client the caching client wraps. */
  SchemaRegistryClient client() {
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("close") || method.getName().equals("stats")) {
            return method.invoke(registry, args);
          }
          callingThreads.add(Thread.currentThread());
          if (args != null && args.length > 0 && args[0].equals(heldKey)) {
            held.countDown();
            release.await(10, TimeUnit.SECONDS);
          }
          if (down) {
            throw new RegistryUnavailableException("down (scripted)", 503, 50301, "scripted", null);
          }
          try {
            return method.invoke(registry, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
