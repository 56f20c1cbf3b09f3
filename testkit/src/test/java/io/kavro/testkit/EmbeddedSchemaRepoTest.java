package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: the real schema-repo 0.1.2 server in a child JVM answers as the table says, with Kavro's
 * full-compatibility validator refusing what is not compatible with every version both ways.
 */
class EmbeddedSchemaRepoTest {
  private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final AtomicInteger subjects = new AtomicInteger();
  private static final String V0 = record("{\"name\":\"a\",\"type\":\"int\"}");
  private static final String V1 = record("{\"name\":\"a\",\"type\":\"int\",\"default\":0},"
      + "{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"}");

  private static EmbeddedSchemaRepo repo;

  @BeforeAll
  static void start() {
    long started = System.nanoTime();
    repo = EmbeddedSchemaRepo.start(0);
    System.out.printf("schema-repo server ready in %d ms%n", (System.nanoTime() - started) / 1_000_000);
  }

  @AfterAll
  static void stop() {
    if (repo != null) {
      repo.close();
    }
  }

  private static String record(String fields) {
    return "{\"type\":\"record\",\"name\":\"R\",\"fields\":[" + fields + "]}";
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder at(String path) {
    return HttpRequest.newBuilder(URI.create(repo.url() + "/" + path));
  }

  /** A new subject for each test (the server is shared), with Kavro's validator. */
  private static String newSubject() throws IOException, InterruptedException {
    String subject = "t" + subjects.incrementAndGet();
    HttpResponse<String> created = send(at(subject).header("Content-Type", "application/x-www-form-urlencoded")
        .PUT(HttpRequest.BodyPublishers.ofString("repo.validators=" + EmbeddedSchemaRepo.FULL_VALIDATOR)));
    assertThat(created.statusCode()).isEqualTo(200);
    assertThat(created.body()).isEqualTo(subject);
    return subject;
  }

  private static HttpResponse<String> register(String subject, String schema)
      throws IOException, InterruptedException {
    return send(at(subject + "/register").header("Content-Type", "text/plain")
        .PUT(HttpRequest.BodyPublishers.ofString(schema)));
  }

  @Test
  void url_isTheContextPathOnLoopback_withoutTrailingSlash() throws Exception {
    assertThat(repo.url()).isEqualTo("http://127.0.0.1:" + repo.port() + "/schema-repo");
    HttpResponse<String> root = send(at("").header("Accept", "text/plain"));
    assertThat(root.statusCode()).isEqualTo(200);
  }

  @Test
  void register_thenLatest_idAndLookup() throws Exception {
    String subject = newSubject();

    HttpResponse<String> registered = register(subject, V0);
    HttpResponse<String> latest = send(at(subject + "/latest"));
    HttpResponse<String> byId = send(at(subject + "/id/0"));
    HttpResponse<String> lookup = send(at(subject + "/schema").header("Content-Type", "text/plain")
        .POST(HttpRequest.BodyPublishers.ofString(V0)));

    assertThat(registered.statusCode()).isEqualTo(200);
    assertThat(registered.body()).isEqualTo("0");
    assertThat(latest.body()).isEqualTo("0\t" + V0);
    assertThat(byId.body()).isEqualTo(V0);
    assertThat(lookup.statusCode()).isEqualTo(200);
    assertThat(lookup.body()).isEqualTo("0");
  }

  @Test
  void unknownSubject_404WithTheServersMessage() throws Exception {
    HttpResponse<String> latest = send(at("no-such-subject/latest"));

    assertThat(latest.statusCode()).isEqualTo(404);
    assertThat(latest.body()).isEqualTo("ERROR: This subject does not exist.\n");
  }

  @Test
  void compatibleSecondSchema_getsId1() throws Exception {
    String subject = newSubject();
    register(subject, V0);

    HttpResponse<String> second = register(subject, V1);

    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.body()).isEqualTo("1");
    assertThat(send(at(subject + "/latest")).body()).isEqualTo("1\t" + V1);
  }

  /** The new schema cannot read the old data: c has no default. */
  @Test
  void newFieldWithoutDefault_refused403() throws Exception {
    String subject = newSubject();
    register(subject, V0);

    HttpResponse<String> refused = register(subject, record("{\"name\":\"a\",\"type\":\"int\"},"
        + "{\"name\":\"c\",\"type\":\"long\"}"));

    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(send(at(subject + "/latest")).body()).isEqualTo("0\t" + V0);
  }

  /** Compatible both ways with the newest version, but the oldest cannot read it: a has no default in version 0. */
  @Test
  void incompatibleWithTheOldestVersionOnly_refused403() throws Exception {
    String subject = newSubject();
    register(subject, V0);
    register(subject, V1);

    HttpResponse<String> refused = register(subject, record("{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"}"));

    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(send(at(subject + "/latest")).body()).isEqualTo("1\t" + V1);
  }

  @Test
  void twoSubjects_bothStartAtId0() throws Exception {
    String first = newSubject();
    String second = newSubject();

    assertThat(register(first, V0).body()).isEqualTo("0");
    assertThat(register(second, record("{\"name\":\"z\",\"type\":\"string\"}")).body()).isEqualTo("0");
    assertThat(send(at(first + "/id/0")).body()).isEqualTo(V0);
    assertThat(send(at(second + "/id/0")).body()).contains("\"z\"");
  }

  @Test
  void restart_samePortAndUrl_emptyServer() throws Exception {
    EmbeddedSchemaRepo other = EmbeddedSchemaRepo.start(0);
    try {
      String url = other.url();
      HttpRequest.Builder create = HttpRequest.newBuilder(URI.create(url + "/kept"))
          .header("Content-Type", "application/x-www-form-urlencoded").PUT(HttpRequest.BodyPublishers.ofString(""));
      assertThat(send(create).statusCode()).isEqualTo(200);

      long started = System.nanoTime();
      other = other.restart();
      System.out.printf("schema-repo server restarted in %d ms%n", (System.nanoTime() - started) / 1_000_000);

      assertThat(other.url()).isEqualTo(url);
      HttpResponse<String> gone = send(HttpRequest.newBuilder(URI.create(url + "/kept")));
      assertThat(gone.statusCode()).isEqualTo(404);
      assertThat(gone.body()).isEqualTo("ERROR: This subject does not exist.\n");
    } finally {
      other.close();
      other.close(); // idempotent
    }
  }
}
