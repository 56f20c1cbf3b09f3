package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.kms.hcvault.HcVaultKmsDriver;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.kafka.connect.runtime.isolation.PluginClassLoader;
import org.apache.kafka.connect.runtime.isolation.PluginUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 50: a KMS driver for a Connect worker is a jar (and the jars it needs) dropped into the Kavro plugin's
 * {@code lib/} (docs/connect.md, "KMS drivers"). Here the plugin that {@code mvn package} built is copied to a
 * {@code plugin.path}, and Connect's own {@link PluginClassLoader} is made over it the way the worker makes it
 * ({@link PluginUtils#pluginUrls}), below a loader that holds only what a worker gives plugins (Kafka's jars and
 * SLF4J), so no Kavro class of this test's class path can answer. The encryption rules' lookup
 * ({@code EncryptionKeys.configured}, run in that loader) finds no {@code hcvault} driver in the plugin as built,
 * and finds the Vault driver, loaded by the plugin's loader, once its jar is in {@code lib/}. No worker is started.
 */
class PluginKmsDriverTest {
  @TempDir
  Path pluginPath;

  @TempDir
  Path work;

  @Test
  void driverJarInThePluginsLib_isFoundByTheRules_inConnectsPluginClassLoader() throws Exception {
    Path plugin = copyPlugin();

    try (URLClassLoader worker = workerLoader(); PluginClassLoader loader = pluginLoader(plugin, worker)) {
      assertThatThrownBy(() -> kmsDriver(loader, "hcvault")).as("the plugin as built has no Vault driver")
          .hasMessageContaining("no KMS driver for KMS type 'hcvault'");
    }

    Files.copy(driverJar(), plugin.resolve("lib/kavro-kms-hcvault.jar"));

    try (URLClassLoader worker = workerLoader(); PluginClassLoader loader = pluginLoader(plugin, worker)) {
      Object driver = kmsDriver(loader, "hcvault");
      assertThat(driver.getClass().getName()).isEqualTo(HcVaultKmsDriver.class.getName());
      assertThat(driver.getClass().getClassLoader()).as("the plugin's loader, not the test's class path")
          .isSameAs(loader);
      Object client = driver.getClass().getMethod("newClient", String.class, Map.class).invoke(driver,
          "hcvault://https://vault.example.com:8200/transit/keys/orders", Map.of("token.id", "t0ken"));
      assertThat(client.getClass().getClassLoader()).as("a client on the plugin's OkHttp").isSameAs(loader);
    }
  }

  /** The Kafka 4.1+ plugin folder, as {@code mvn package} built it, copied into this test's plugin.path. */
  private Path copyPlugin() throws IOException {
    Path built = Path.of(System.getProperty("kavro.connect.plugins", "../../connect-plugin/target"))
        .resolve("kavro-connect-plugin/kavro-avro-converter");
    assertThat(built.resolve("manifest.json")).as("the packaged plugin (mvn package)").exists();
    Path plugin = pluginPath.resolve("kavro-avro-converter");
    try (Stream<Path> files = Files.walk(built)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path copy = plugin.resolve(built.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    assertThat(plugin.resolve("lib")).isDirectoryContaining(path -> path.toString().contains("kavro-rules"));
    return plugin;
  }

  /** What a worker's class path gives a plugin: Kafka's jars and SLF4J's API, nothing of Kavro. */
  private static URLClassLoader workerLoader() throws Exception {
    List<URL> urls = new ArrayList<>();
    for (Class<?> type : List.of(org.apache.kafka.common.Configurable.class,
        org.apache.kafka.connect.storage.Converter.class, org.slf4j.Logger.class)) {
      urls.add(type.getProtectionDomain().getCodeSource().getLocation());
    }
    return new URLClassLoader("worker", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  /** Connect's plugin class loader over the plugin's jars, as the worker makes it. */
  private static PluginClassLoader pluginLoader(Path plugin, ClassLoader worker) throws IOException {
    List<URL> urls = new ArrayList<>();
    for (Path path : PluginUtils.pluginUrls(plugin)) {
      urls.add(path.toUri().toURL());
    }
    return new PluginClassLoader(plugin.toUri().toURL(), urls.toArray(URL[]::new), worker);
  }

  /** The driver of {@code kmsType} that the ENCRYPT executors' keys find, in {@code loader}. */
  private static Object kmsDriver(ClassLoader loader, String kmsType) throws Exception {
    Class<?> keys = Class.forName("io.kavro.rules.encryption.EncryptionKeys", true, loader);
    assertThat(keys.getClassLoader()).as("kavro-rules from the plugin").isSameAs(loader);
    Method configured = keys.getDeclaredMethod("configured", Map.class);
    configured.setAccessible(true);
    Object found = field(field(configured.invoke(null, Map.of()), "clients"), "drivers");
    Method driver = found.getClass().getDeclaredMethod("driver", String.class);
    driver.setAccessible(true);
    try {
      return driver.invoke(found, kmsType);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** {@code owner}'s private field {@code name}: the keys' clients, the clients' drivers. */
  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }

  /** The driver's jar, as Maven built it (or, in a reactor run before package, a jar of its classes). */
  private Path driverJar() throws Exception {
    Path location = Path.of(HcVaultKmsDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (Files.isRegularFile(location)) {
      return location;
    }
    Path jar = work.resolve("kavro-kms-hcvault.jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out);
         Stream<Path> files = Files.walk(location)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        zip.putNextEntry(new JarEntry(location.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, zip);
        zip.closeEntry();
      }
    }
    return jar;
  }
}
