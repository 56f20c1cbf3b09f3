package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/**
 * The three library modules as a module-path user meets them: each compiles as a module with its
 * {@code module-info} (so every package it uses is one it requires), a consumer compiles against the exported
 * packages and is refused the implementation (unexported packages, package-private types), and the descriptors
 * export exactly the public packages. The build compiles the same module-info files into the jars' {@code
 * META-INF/versions/17/}.
 */
class ModulePathTest {

  private static final List<String> MODULES = List.of("registry-http", "serde", "connect");

  @TempDir
  static Path work;

  private static Path modules;

  /** Compiles registry-http, serde and connect, in that order, each with its module-info, as exploded modules. */
  @BeforeAll
  static void compileTheModules() throws IOException {
    modules = Files.createDirectories(work.resolve("modules"));
    List<Path> path = modulePath();
    for (String module : MODULES) {
      Path sources = projectRoot().resolve(module).resolve("src/main");
      List<Path> files = javaFiles(sources.resolve("java"));
      files.add(sources.resolve("java17/module-info.java"));
      List<String> errors = compile(files, modules.resolve(module), path);
      assertThat(errors).as("%s compiled as a module", module).isEmpty();
      path.add(modules.resolve(module));
    }
  }

  @Test
  void consumerCompilesAgainstTheExportedPackages() throws IOException {
    List<String> errors = compileConsumer("""
        package consumer;

        import io.kavro.connect.AvroConverter;
        import io.kavro.registry.SchemaRegistryClient;
        import io.kavro.registry.mock.MockRegistries;
        import io.kavro.registry.mock.MockRegistry;
        import io.kavro.serde.KafkaAvroSerializer;
        import io.kavro.serde.metrics.SerdeMetrics;
        import io.kavro.serde.subject.TopicNameStrategy;

        public class Uses {
          public static final Class<?>[] USED = {AvroConverter.class, SchemaRegistryClient.class,
              MockRegistries.class, MockRegistry.class, KafkaAvroSerializer.class, SerdeMetrics.class,
              TopicNameStrategy.class};
        }
        """);

    assertThat(errors).isEmpty();
  }

  /**
   * The implementation is out of reach: the registry's lives in packages the descriptor does not export (one type
   * of each: the caches, the dialects, the transport, TLS and OAuth, the schema rules), its in-memory registry is
   * package-private beside the mock scopes, and the serde's Avro plumbing and codecs are package-private beside the
   * engines.
   */
  @Test
  void consumerIsRefusedTheImplementation() throws IOException {
    List<String> errors = compileConsumer("""
        package consumer;

        import io.kavro.registry.internal.auth.OAuthTokenSource;
        import io.kavro.registry.internal.cache.CachingSchemaRegistryClient;
        import io.kavro.registry.internal.dialect.HttpSchemaRegistryClient;
        import io.kavro.registry.internal.http.RestTransport;
        import io.kavro.registry.internal.schema.SchemaDefaults;
        import io.kavro.registry.mock.InMemorySchemaRegistry;
        import io.kavro.serde.BoundedBinaryDecoder;
        import io.kavro.serde.EncoderCompiler;

        public class Uses {}
        """);

    assertThat(errors).containsExactlyInAnyOrder(
        "package io.kavro.registry.internal.auth is not visible",
        "package io.kavro.registry.internal.cache is not visible",
        "package io.kavro.registry.internal.dialect is not visible",
        "package io.kavro.registry.internal.http is not visible",
        "package io.kavro.registry.internal.schema is not visible",
        "io.kavro.registry.mock.InMemorySchemaRegistry is not public in io.kavro.registry.mock; cannot be accessed "
            + "from outside package",
        "io.kavro.serde.BoundedBinaryDecoder is not public in io.kavro.serde; cannot be accessed from outside package",
        "io.kavro.serde.EncoderCompiler is not public in io.kavro.serde; cannot be accessed from outside package");
  }

  @Test
  void descriptorsExportOnlyThePublicPackages() throws IOException {
    assertThat(exports("registry-http")).containsExactly("io.kavro.registry", "io.kavro.registry.config",
        "io.kavro.registry.contract", "io.kavro.registry.factory", "io.kavro.registry.mock");
    assertThat(exports("serde")).containsExactly("io.kavro.serde", "io.kavro.serde.framing", "io.kavro.serde.metrics",
        "io.kavro.serde.rules", "io.kavro.serde.subject");
    assertThat(exports("connect")).containsExactly("io.kavro.connect");
  }

  @Test
  void connectProvidesItsConverterAndTransformsAsServices() throws IOException {
    assertThat(descriptor("connect").provides().stream().map(p -> p.service() + " with " + p.providers()))
        .containsExactlyInAnyOrder(
            "org.apache.kafka.connect.storage.Converter with [io.kavro.connect.AvroConverter]",
            "org.apache.kafka.connect.transforms.Transformation with [io.kavro.connect.SchemaIdTranslation$Key, "
                + "io.kavro.connect.SchemaIdTranslation$Value]");
  }

  /** A module's exports, sorted, a qualified one as "package to [modules]". */
  private static List<String> exports(String module) throws IOException {
    return descriptor(module).exports().stream()
        .map(e -> e.isQualified() ? e.source() + " to " + new TreeSet<>(e.targets()) : e.source())
        .sorted()
        .toList();
  }

  /** The descriptor compiled from a module's src/main/java17/module-info.java, the one its jar carries. */
  private static ModuleDescriptor descriptor(String module) throws IOException {
    try (InputStream in = Files.newInputStream(modules.resolve(module).resolve("module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  /** Compiles one class in a module "consumer" that requires io.kavro.connect, on the modules compiled above. */
  private static List<String> compileConsumer(String source) throws IOException {
    Path consumer = Files.createTempDirectory(work, "consumer");
    Path moduleInfo = Files.writeString(consumer.resolve("module-info.java"),
        "module consumer { requires io.kavro.connect; }\n");
    Path uses = Files.createDirectories(consumer.resolve("consumer")).resolve("Uses.java");
    Files.writeString(uses, source);
    List<Path> path = modulePath();
    MODULES.forEach(module -> path.add(modules.resolve(module)));
    return compile(List.of(moduleInfo, uses), consumer.resolve("out"), path);
  }

  /** The error messages of compiling {@code files} into {@code out}, first lines only. */
  private static List<String> compile(List<Path> files, Path out, List<Path> modulePath) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      List<String> options = List.of("--release", "17", "-proc:none", "-d", out.toString(),
          "--module-path", modulePath.stream().map(Path::toString).collect(Collectors.joining(
              File.pathSeparator)));
      javac.getTask(null, fileManager, diagnostics, options, null,
          fileManager.getJavaFileObjectsFromPaths(files)).call();
    }
    return diagnostics.getDiagnostics().stream()
        .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
        .map(d -> d.getMessage(Locale.ROOT).lines().findFirst().orElse(""))
        .toList();
  }

  /** The jars of the modules Kavro requires, found from a class of each, as on a user's module path. */
  private static List<Path> modulePath() {
    return Stream.of(org.apache.avro.Schema.class, ObjectMapper.class, JsonParser.class, JsonAutoDetect.class,
            OkHttpClient.class, kotlin.Unit.class, okio.Buffer.class, Caffeine.class, Logger.class,
            org.apache.kafka.common.serialization.Serializer.class, org.apache.kafka.connect.data.Schema.class)
        .map(ModulePathTest::location)
        .distinct()
        .collect(Collectors.toCollection(ArrayList::new));
  }

  private static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(type.getName(), e);
    }
  }

  /** The folder above connect's, which holds registry-http and serde beside it. */
  private static Path projectRoot() {
    return Path.of("").toAbsolutePath().getParent();
  }

  private static List<Path> javaFiles(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toCollection(ArrayList::new));
    } catch (IOException e) {
      throw new UncheckedIOException(folder.toString(), e);
    }
  }
}
