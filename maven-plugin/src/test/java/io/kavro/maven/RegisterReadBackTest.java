package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code register} after the registry took a schema: reading its version and its contract back may fail, and
 * that is said, not thrown, so that the goal goes on (a registry here that registers and answers every read 404).
 */
class RegisterReadBackTest {
  @TempDir
  Path dir;

  private HttpServer server;

  @BeforeEach
  void setUp() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::answer);
    server.start();
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [{"name": "id", "type": "long"}]}""");
  }

  @AfterEach
  void tearDown() {
    server.stop(0);
  }

  /** When set, {@code GET /schemas/ids/7} answers the schema without its contract, as Apicurio does. */
  private volatile boolean dropsContracts;

  private void answer(HttpExchange exchange) throws IOException {
    exchange.getRequestBody().readAllBytes();
    boolean register = exchange.getRequestMethod().equals("POST")
        && exchange.getRequestURI().getPath().endsWith("/versions");
    boolean readBack = dropsContracts && exchange.getRequestURI().getPath().equals("/schemas/ids/7");
    byte[] body = (register ? "{\"id\": 7}" : readBack ? "{\"schema\": \"\\\"long\\\"\"}"
        : "{\"error_code\": 40403, \"message\": \"Schema not found\"}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
    exchange.sendResponseHeaders(register || readBack ? 200 : 404, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** The goal, registering order.avsc as subject orders-value with metadata. */
  private RegisterMojo mojo(RecordingLog log) {
    RegisterMojo mojo = new RegisterMojo();
    mojo.setLog(log);
    mojo.basedir = dir.toFile();
    mojo.schemaRegistryUrls = List.of("http://127.0.0.1:" + server.getAddress().getPort());
    mojo.subjects = Map.of("orders-value", new File("order.avsc"));
    mojo.decodeSubject = true;
    Metadata metadata = new Metadata();
    metadata.properties = Map.of("owner", "payments");
    mojo.metadata = Map.of("orders-value", metadata);
    return mojo;
  }

  @Test
  void run_readsAfterRegisteringFail_theGoalPasses_sayingWhatItCouldNotRead() throws Exception {
    RecordingLog log = new RecordingLog();
    RegisterMojo mojo = mojo(log);

    mojo.execute();

    assertThat(log.lines()).anySatisfy(line -> assertThat(line)
        .startsWith("INFO Registered subject 'orders-value' (order.avsc): version unknown (")
        .contains(", id 7, with metadata (properties [owner]"));
    assertThat(log.lines()).anySatisfy(line -> assertThat(line)
        .startsWith("WARN cannot read back the metadata and rules of subject 'orders-value' (id 7): "));
  }

  /**
   * Issue 49, item 13: a registry that takes the schema and drops its metadata (Apicurio, Karapace) fails the goal,
   * naming the subject and the id, as {@code kavro schema register} fails: rules that never run are an error.
   */
  @Test
  void run_theRegistryDropsTheContract_theGoalFails_namingTheSubjectAndTheId() {
    dropsContracts = true;
    RecordingLog log = new RecordingLog();
    RegisterMojo mojo = mojo(log);

    org.assertj.core.api.Assertions.assertThatThrownBy(mojo::execute)
        .isInstanceOf(org.apache.maven.plugin.MojoFailureException.class)
        .hasMessageContaining("register failed for 1 of 1 subject(s)")
        .hasMessageContaining("the registry dropped the metadata of subject 'orders-value': read back, schema id 7 "
            + "has no metadata");
  }
}
