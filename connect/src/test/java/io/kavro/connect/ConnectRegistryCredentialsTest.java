package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Credentials that the registry refuses themselves (HTTP 401; or its HTTP proxy's, 407), or an OAuth issuer's
 * refusal (whatever its status: no token can be had), are a configuration error, which every record meets alike:
 * the task fails (an {@code Error}, which Connect's error handling does not catch), never a {@code DataException}
 * that {@code errors.tolerance=all} would skip for every record. A 403 stays the record's {@code DataException}: the credentials were accepted, and
 * the refusal may be scoped to what one record names.
 */
class ConnectRegistryCredentialsTest {
  private static final String SECRET = "s3cret-pw";

  private final MockWebServer server = new MockWebServer();

  @BeforeEach
  void start() throws Exception {
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Every request answered with {@code status} and Confluent's error body. */
  private void answerEverything(int status, int errorCode, String message) {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse.Builder().code(status).setHeader("Content-Type", "application/json")
            .body("{\"error_code\":" + errorCode + ",\"message\":\"" + message + "\"}").build();
      }
    });
  }

  /** Basic auth from the URL's user info, as users write it: the failures name the URL without it. */
  private AvroConverter converter() {
    AvroConverter converter = new AvroConverter();
    converter.configure(Map.of("schema.registry.url", "http://connect:" + SECRET + "@" + server.getHostName() + ":"
        + server.getPort(), "basic.auth.credentials.source", "URL", "max.retries", 0), false);
    return converter;
  }

  @Test
  void refusedCredentials_failTheTask_bothWays_loggedOnce_noSecret() {
    answerEverything(401, 40101, "Unauthorized");
    try (LogCapture logs = new LogCapture(); AvroConverter converter = converter()) {
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> converter.fromConnectData("orders", Schema.STRING_SCHEMA, "x"))
            .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
            .hasMessageStartingWith("the schema registry refused the client's credentials (HTTP 401, or no OAuth "
                + "token could be had, or the HTTP proxy in front of it wants credentials: HTTP 407): a configuration "
                + "error, not the record's: fix the registry's credentials")
            .hasMessageContaining("value of topic 'orders'").hasMessageNotContaining(SECRET);
      }
      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1, 2}))
          .isExactlyInstanceOf(ConnectFailures.TaskFailure.class).hasMessageNotContaining(SECRET);
      assertThat(logs.lines(Level.ERROR)).as("once, not once a record").singleElement().asString()
          .contains("AvroConverter (value side)", "refused the client's credentials").doesNotContain(SECRET);
    }
  }

  /**
   * The HTTP proxy in front of the registry wants credentials (407), which Kavro does not send to a proxy: every
   * record meets it alike. An {@code https://} registry's tunnel refused so too (OkHttp's own failure for it read as
   * an outage).
   */
  @ParameterizedTest
  @ValueSource(strings = {"http://registry.example.invalid:8081", "https://registry.example.invalid"})
  void aProxyAskingForCredentials_failsTheTask(String registryUrl) {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse.Builder().code(407).setHeader("Proxy-Authenticate", "Basic realm=\"corp\"").build();
      }
    });
    try (AvroConverter converter = new AvroConverter()) {
      converter.configure(Map.of("schema.registry.url", registryUrl, "proxy.host", server.getHostName(),
          "proxy.port", server.getPort()), false);

      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1, 2}))
          .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
          .hasMessageContaining("the HTTP proxy in front of it wants credentials: HTTP 407")
          .hasMessageContaining("Kavro sends no credentials to a proxy");
    }
    if (registryUrl.startsWith("http:")) {
      // (MockWebServer answers an https registry's CONNECT without counting it)
      assertThat(server.getRequestCount()).as("neither retried nor failed over: the deployment's refusal")
          .isEqualTo(1);
    }
  }

  @Test
  void aRefusalOfWhatTheRecordNames_staysTheRecordsDataException() {
    answerEverything(403, 40301, "User is denied operation Read on Subject: orders-value");
    try (AvroConverter converter = converter()) {
      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1, 2}))
          .isExactlyInstanceOf(DataException.class).hasStackTraceContaining("RegistryAccessDeniedException");
    }
  }

  /** An OAuth issuer that answers 403 (a client not granted the audience): no token, for any record. */
  @Test
  void anOAuthIssuersForbidden_failsTheTask_notARecordsRefusal() {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse.Builder().code(403).setHeader("Content-Type", "application/json")
            .body("{\"error\":\"access_denied\",\"error_description\":\"Client not authorized\"}").build();
      }
    });
    try (AvroConverter converter = new AvroConverter()) {
      converter.configure(Map.of("schema.registry.url", "http://" + server.getHostName() + ":" + server.getPort(),
          "bearer.auth.credentials.source", "OAUTHBEARER", "bearer.auth.issuer.endpoint.url",
          "http://" + server.getHostName() + ":" + server.getPort() + "/token", "bearer.auth.client.id", "connect",
          "bearer.auth.client.secret", SECRET, "bearer.auth.scope", "registry", "max.retries", 0), false);

      assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1, 2}))
          .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
          .hasMessageContaining("refused the client credentials of client id 'connect' with HTTP 403")
          .hasMessageNotContaining(SECRET);
    }
  }
}
