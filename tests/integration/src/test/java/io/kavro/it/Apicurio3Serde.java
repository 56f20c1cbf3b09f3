package io.kavro.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Apicurio Registry 3's Avro serializer, loaded from the {@code tests/fixtures/apicurio3-serde} fixture's class
 * path in a class loader of its own (its classes have the names of Apicurio 2's serde, which this module's class
 * path holds), with Kafka's, Avro's and SLF4J's classes shared from the test's, so that records and headers pass
 * between them.
 */
final class Apicurio3Serde implements AutoCloseable {
  private static final List<String> SHARED = List.of("org.apache.kafka.", "org.apache.avro.", "org.slf4j.");

  private final URLClassLoader loader;

  Apicurio3Serde() {
    Path folder = Path.of(System.getProperty("kavro.apicurio3.serde", "../fixtures/apicurio3-serde/target/serde"));
    try (Stream<Path> jars = Files.list(folder)) {
      URL[] urls = jars.filter(jar -> jar.toString().endsWith(".jar")).map(Apicurio3Serde::url).toArray(URL[]::new);
      this.loader = new ChildFirst(urls, Apicurio3Serde.class.getClassLoader());
    } catch (IOException e) {
      throw new UncheckedIOException("Apicurio 3's serde is not in " + folder
          + ": build the tests/fixtures/apicurio3-serde module", e);
    }
  }

  private static URL url(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** Its serializer of values, configured with {@code configs}. */
  @SuppressWarnings("unchecked")
  Serializer<Object> serializer(Map<String, Object> configs) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      Serializer<Object> serializer = (Serializer<Object>) loader
          .loadClass("io.apicurio.registry.serde.avro.AvroKafkaSerializer").getDeclaredConstructor().newInstance();
      serializer.configure(configs, false);
      return new InLoader(serializer, loader);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot load Apicurio 3's serializer", e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  @Override
  public void close() throws IOException {
    loader.close();
  }

  /** Calls the serializer with its class loader as the thread's context loader. */
  private record InLoader(Serializer<Object> serializer, ClassLoader loader) implements Serializer<Object> {
    @Override
    public byte[] serialize(String topic, Object data) {
      return serialize(topic, null, data);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, Object data) {
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      thread.setContextClassLoader(loader);
      try {
        return headers == null ? serializer.serialize(topic, data) : serializer.serialize(topic, headers, data);
      } finally {
        thread.setContextClassLoader(previous);
      }
    }

    @Override
    public void close() {
      serializer.close();
    }
  }

  /** Its own classes first; the shared packages and the JDK's from the parent. */
  private static final class ChildFirst extends URLClassLoader {
    ChildFirst(URL[] urls, ClassLoader parent) {
      super("apicurio3-serde", urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        if (SHARED.stream().anyMatch(name::startsWith)) {
          return super.loadClass(name, resolve);
        }
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null) {
          try {
            loaded = findClass(name);
          } catch (ClassNotFoundException e) {
            return super.loadClass(name, resolve);
          }
        }
        if (resolve) {
          resolveClass(loaded);
        }
        return loaded;
      }
    }
  }
}
