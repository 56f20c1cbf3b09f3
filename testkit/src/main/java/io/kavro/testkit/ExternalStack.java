package io.kavro.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A broker and a registry that are already running ({@code -Dkavro.stack=external}): their addresses come from
 * {@value #BOOTSTRAP_PROPERTY} and {@value #REGISTRY_PROPERTY} (system properties), else from
 * {@value #BOOTSTRAP_ENV} and {@value #REGISTRY_ENV} (the variables {@code kavro stack} prints). Both are checked
 * once, when the stack is made: the broker must accept a connection, the registry must answer. Closing it stops
 * nothing: the stack is not the test's.
 */
final class ExternalStack implements TestStack {
  static final String BOOTSTRAP_PROPERTY = "kavro.bootstrap.servers";
  static final String REGISTRY_PROPERTY = "kavro.registry.url";
  static final String BOOTSTRAP_ENV = "KAVRO_BOOTSTRAP_SERVERS";
  static final String REGISTRY_ENV = "KAVRO_SCHEMA_REGISTRY_URL";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final String bootstrapServers;
  private final String registryUrl;

  private ExternalStack(String bootstrapServers, String registryUrl) {
    this.bootstrapServers = bootstrapServers;
    this.registryUrl = registryUrl;
  }

  /**
   * The stack that the settings name, checked.
   *
   * @param properties system properties by name ({@code System::getProperty})
   * @param env environment variables by name ({@code System::getenv})
   * @throws IllegalStateException when an address is missing or malformed, when no broker accepts a connection,
   *     or when the registry does not answer {@code GET <url>/subjects}; the message names the setting
   */
  static ExternalStack connect(UnaryOperator<String> properties, UnaryOperator<String> env) {
    String bootstrap = setting(properties, BOOTSTRAP_PROPERTY, env, BOOTSTRAP_ENV);
    String registry = setting(properties, REGISTRY_PROPERTY, env, REGISTRY_ENV);
    List<String> missing = new ArrayList<>();
    if (bootstrap == null) {
      missing.add("the broker's address (-D" + BOOTSTRAP_PROPERTY + "=host:port or " + BOOTSTRAP_ENV + ")");
    }
    if (registry == null) {
      missing.add("the registry's URL (-D" + REGISTRY_PROPERTY + "=http://host:port/... or " + REGISTRY_ENV + ")");
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("-D" + TestStacks.STACK_PROPERTY + "=external needs "
          + String.join(" and ", missing));
    }
    requireBroker(bootstrap);
    String url = registry.endsWith("/") ? registry.substring(0, registry.length() - 1) : registry;
    requireRegistry(url);
    return new ExternalStack(bootstrap, url);
  }

  private static String setting(UnaryOperator<String> properties, String property, UnaryOperator<String> env,
      String variable) {
    String value = properties.apply(property);
    if (value == null || value.isBlank()) {
      value = env.apply(variable);
    }
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** At least one bootstrap address accepts a TCP connection, as a Kafka client needs. */
  private static void requireBroker(String bootstrap) {
    List<String> failures = new ArrayList<>();
    for (String server : bootstrap.split(",")) {
      String address = server.strip();
      int colon = address.lastIndexOf(':');
      int port;
      try {
        port = colon > 0 ? Integer.parseInt(address.substring(colon + 1)) : -1;
      } catch (NumberFormatException e) {
        port = -1;
      }
      if (port < 1 || port > 65535) {
        throw new IllegalStateException(BOOTSTRAP_PROPERTY + " must be host:port[,host:port...], was '"
            + bootstrap + "'");
      }
      try (Socket socket = new Socket()) {
        String host = address.substring(0, colon).replaceAll("^\\[|]$", ""); // [::1]:9092
        socket.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
        return;
      } catch (IOException e) {
        failures.add(address + ": " + e.getMessage());
      }
    }
    throw new IllegalStateException("no Kafka broker answers at " + BOOTSTRAP_PROPERTY + "=" + bootstrap + " ("
        + String.join("; ", failures) + "): start it, or choose another -D" + TestStacks.STACK_PROPERTY);
  }

  /** The registry answers {@code GET <url>/subjects}: with 200, or 401/403 if it wants the tests' credentials. */
  private static void requireRegistry(String url) {
    URI subjects;
    try {
      subjects = URI.create(url + "/subjects");
    } catch (IllegalArgumentException e) {
      // Never the parser's message, nor its cause: both quote the whole input, user info and all.
      throw new IllegalStateException(REGISTRY_PROPERTY + " must be the registry's base URL, http://host:port/..., "
          + "was '" + withoutUserInfo(url) + "': it is malformed");
    }
    if (subjects.getScheme() == null || subjects.getHost() == null) {
      throw new IllegalStateException(REGISTRY_PROPERTY + " must be the registry's base URL, http://host:port/..., "
          + "was '" + withoutUserInfo(url) + "': it is not an absolute http(s) URL");
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    int status;
    try {
      status = http.send(HttpRequest.newBuilder(subjects).timeout(TIMEOUT).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      throw new IllegalStateException("no schema registry answers at " + REGISTRY_PROPERTY + "="
          + withoutUserInfo(url) + " (" + e + "): start it, or choose another -D" + TestStacks.STACK_PROPERTY, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the schema registry", e);
    }
    if (status != 200 && status != 401 && status != 403) {
      throw new IllegalStateException("GET " + withoutUserInfo(url) + "/subjects answered HTTP " + status
          + ": is " + REGISTRY_PROPERTY + " the registry's Confluent-compatible base URL (Apicurio's ends in "
          + "/apis/ccompat/v7)?");
    }
  }

  /**
   * The URL without its {@code user:password@} part, which must never be printed: everything up to the last
   * {@code @} goes, since a password may hold {@code /}, {@code :} or {@code @} unescaped (a message may lose a
   * path, never a secret). A copy of {@code io.kavro.registry.config.RegistryConfig.redact}: the testkit does not
   * depend
   * on kavro-registry-http, whose jars would join the broker's class path ({@link BrokerClassPath}).
   */
  static String withoutUserInfo(String url) {
    int scheme = url.indexOf("://");
    int at = url.lastIndexOf('@');
    if (scheme >= 0 && at > scheme) {
      return url.substring(0, scheme + 3) + url.substring(at + 1);
    }
    if (scheme < 0 && at > 0 && url.chars().noneMatch(Character::isWhitespace)) { // "alice:pw@host:8081"
      return url.substring(at + 1);
    }
    return url;
  }

  @Override
  public String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public String registryUrl() {
    return registryUrl;
  }

  /** Stops nothing: the broker and the registry are not the test's. */
  @Override
  public void close() {
    // not ours to stop
  }
}
