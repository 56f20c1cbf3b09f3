package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 37, item 1: {@code -Dkavro.stack=external} uses a broker and a registry that are already running, named by
 * system properties or by the variables {@code kavro stack} prints, and says clearly what is missing or down.
 */
class ExternalStackTest {
  @StartStop
  private final MockWebServer registry = new MockWebServer();

  private ServerSocket broker;
  private final Map<String, String> properties = new HashMap<>();
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void listen() throws IOException {
    broker = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void stopListening() throws IOException {
    broker.close();
  }

  private String brokerAddress() {
    return "127.0.0.1:" + broker.getLocalPort();
  }

  private String registryUrl() {
    return registry.url("/apis/ccompat/v7").toString();
  }

  private ExternalStack connect() {
    UnaryOperator<String> property = properties::get;
    UnaryOperator<String> variable = env::get;
    return ExternalStack.connect(property, variable);
  }

  @Test
  void connect_fromSystemProperties_givesTheirAddresses() throws InterruptedException {
    registry.enqueue(new MockResponse.Builder().code(200).body("[]").build());
    properties.put("kavro.bootstrap.servers", brokerAddress());
    properties.put("kavro.registry.url", registryUrl() + "/");

    try (ExternalStack stack = connect()) {
      assertThat(stack.bootstrapServers()).isEqualTo(brokerAddress());
      assertThat(stack.registryUrl()).isEqualTo(registryUrl());
    }
    assertThat(registry.takeRequest().getUrl().encodedPath()).isEqualTo("/apis/ccompat/v7/subjects");
  }

  @Test
  void connect_fromTheVariablesKavroStackPrints() {
    registry.enqueue(new MockResponse.Builder().code(200).body("[]").build());
    env.put("KAVRO_BOOTSTRAP_SERVERS", "127.0.0.1:1," + brokerAddress());
    env.put("KAVRO_SCHEMA_REGISTRY_URL", registryUrl());

    assertThat(connect().bootstrapServers()).isEqualTo("127.0.0.1:1," + brokerAddress());
  }

  @Test
  void connect_withoutAddresses_namesBothSettings() {
    assertThatThrownBy(this::connect).isInstanceOf(IllegalStateException.class)
        .hasMessage("-Dkavro.stack=external needs the broker's address (-Dkavro.bootstrap.servers=host:port or "
            + "KAVRO_BOOTSTRAP_SERVERS) and the registry's URL (-Dkavro.registry.url=http://host:port/... or "
            + "KAVRO_SCHEMA_REGISTRY_URL)");
  }

  @Test
  void connect_withoutTheRegistry_namesIt() {
    properties.put("kavro.bootstrap.servers", brokerAddress());

    assertThatThrownBy(this::connect).hasMessage("-Dkavro.stack=external needs the registry's URL "
        + "(-Dkavro.registry.url=http://host:port/... or KAVRO_SCHEMA_REGISTRY_URL)");
  }

  @Test
  void connect_toABrokerThatIsDown_saysSo() throws IOException {
    String down = brokerAddress();
    broker.close();
    properties.put("kavro.bootstrap.servers", down);
    properties.put("kavro.registry.url", registryUrl());

    assertThatThrownBy(this::connect).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("no Kafka broker answers at kavro.bootstrap.servers=" + down + " (" + down + ": ")
        .hasMessageEndingWith("): start it, or choose another -Dkavro.stack");
  }

  @Test
  void connect_withAMalformedBrokerAddress_showsIt() {
    properties.put("kavro.bootstrap.servers", "localhost");
    properties.put("kavro.registry.url", registryUrl());

    assertThatThrownBy(this::connect)
        .hasMessage("kavro.bootstrap.servers must be host:port[,host:port...], was 'localhost'");
  }

  @Test
  void connect_toAURLThatIsNoRegistry_pointsAtTheBaseURL_withoutCredentials() {
    registry.enqueue(new MockResponse.Builder().code(404).build());
    properties.put("kavro.bootstrap.servers", brokerAddress());
    String url = registry.url("/").toString().replace("://", "://alice:secret@");
    properties.put("kavro.registry.url", url);

    assertThatThrownBy(this::connect).isInstanceOf(IllegalStateException.class)
        .hasMessage("GET " + registry.url("/") + "subjects answered HTTP 404: is kavro.registry.url the "
            + "registry's Confluent-compatible base URL (Apicurio's ends in /apis/ccompat/v7)?")
        .message().doesNotContain("secret");
  }

  @Test
  void connect_toARegistryThatIsDown_saysSo() {
    String down = "http://127.0.0.1:" + Ports.free() + "/apis/ccompat/v7";
    properties.put("kavro.bootstrap.servers", brokerAddress());
    properties.put("kavro.registry.url", down);

    assertThatThrownBy(this::connect).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("no schema registry answers at kavro.registry.url=" + down + " (");
  }

  /**
   * A password may hold '/', '@' or ':' unescaped; whatever the check refuses the URL for (malformed, not absolute,
   * no registry there), no message of the failure or of its causes holds any piece of it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"s3cr/etpw", "s3cr@etpw", "s3cr:etpw", "s3/cr@et:pw", "@s3cr/etpw@"})
  void connect_refusingAURLWithCredentials_showsNoPartOfThePassword(String password) {
    properties.put("kavro.bootstrap.servers", brokerAddress());
    String host = registry.url("/").host() + ":" + registry.url("/").port();
    for (String url : new String[] {
        "http://alice:" + password + "@" + host + "/", // no registry there (or not absolute, as URI parses it)
        "http://alice:" + password + "@" + host + "/apis ccompat/v7", // malformed: a space
        "http://alice:" + password + "@" + host + "/apis%zz", // malformed: a bad escape
        "alice:" + password + "@" + host}) { // no scheme
      registry.enqueue(new MockResponse.Builder().code(404).build());
      properties.put("kavro.registry.url", url);

      assertThatThrownBy(this::connect).isInstanceOf(IllegalStateException.class)
          .satisfies(e -> assertThat(messages(e)).as(url).doesNotContain(fragments(password)));
    }
  }

  @Test
  void connect_toAMalformedURL_saysSo_withoutTheParsersMessage() {
    properties.put("kavro.bootstrap.servers", brokerAddress());
    properties.put("kavro.registry.url", "http://alice:pw/x@registry:8081/a b");

    assertThatThrownBy(this::connect).isInstanceOf(IllegalStateException.class).hasNoCause()
        .hasMessage("kavro.registry.url must be the registry's base URL, http://host:port/..., was "
            + "'http://registry:8081/a b': it is malformed");
  }

  @Test
  void withoutUserInfo_removesEverythingUpToTheLastAt() {
    assertThat(ExternalStack.withoutUserInfo("http://alice:s/e@c:r@et@registry:8081/x"))
        .isEqualTo("http://registry:8081/x");
    assertThat(ExternalStack.withoutUserInfo("https://registry:8081/apis/ccompat/v7"))
        .isEqualTo("https://registry:8081/apis/ccompat/v7");
    assertThat(ExternalStack.withoutUserInfo("alice:s/e@cret@registry:8081")).isEqualTo("registry:8081");
  }

  /** The messages of {@code e} and of every cause, and their string forms, in one text. */
  private static String messages(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      text.append(t).append('\n').append(t.getMessage()).append('\n');
    }
    return text.toString();
  }

  /** Every piece of the password four characters long or more: none may show. */
  private static String[] fragments(String password) {
    java.util.List<String> pieces = new java.util.ArrayList<>();
    for (int from = 0; from + 4 <= password.length(); from++) {
      pieces.add(password.substring(from, from + 4));
    }
    return pieces.toArray(String[]::new);
  }
}
