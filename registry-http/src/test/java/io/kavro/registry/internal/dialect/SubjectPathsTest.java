package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.InvalidSubjectException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.TestSchemas;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.internal.http.JsonBodies;
import io.kavro.registry.internal.http.Urls;
import io.kavro.registry.mock.MockRegistries;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Issue 49, item 8: every call that takes a subject, on both protocols (Confluent's REST API with its DEK registry,
 * and schema-repo's), sends the subject as exactly one path segment, every character outside RFC 3986's unreserved
 * set percent-encoded, so that the server reads that subject and no other ({@code victim-value;x} reached
 * {@code victim-value} when {@code ;} went out as it is). The encoded forms are written out by hand. An empty,
 * {@code .} or {@code ..} subject is refused by name, before anything is sent, by every call, the in-memory registry's
 * too.
 */
class SubjectPathsTest {
  private static final Schema SCHEMA = TestSchemas.USER_V1;
  private static final String SCHEMA_JSON = JsonBodies.write(
      com.fasterxml.jackson.databind.node.TextNode.valueOf(SCHEMA.toString()));

  /** A subject and its path segment as it must go out, by hand. */
  private record Spelling(String subject, String encoded) {}

  private static final List<Spelling> SPELLINGS = List.of(
      new Spelling("victim-value;x", "victim-value%3Bx"),
      new Spelling("semi;colon", "semi%3Bcolon"),
      new Spelling("../victim", "..%2Fvictim"),
      new Spelling("a/b", "a%2Fb"),
      new Spelling("what?x=1", "what%3Fx%3D1"),
      new Spelling("frag#ment", "frag%23ment"),
      new Spelling("per%2Fcent%", "per%252Fcent%25"),
      new Spelling("with space", "with%20space"),
      new Spelling("plus+sign", "plus%2Bsign"),
      new Spelling(":.ctx:orders@v", "%3A.ctx%3Aorders%40v"),
      new Spelling("sub!$&'()*,delims", "sub%21%24%26%27%28%29%2A%2Cdelims"),
      new Spelling("back\\slash\"<>[]{}|^`", "back%5Cslash%22%3C%3E%5B%5D%7B%7D%7C%5E%60"),
      new Spelling("café-ü€𝄞", "caf%C3%A9-%C3%BC%E2%82%AC%F0%9D%84%9E"),
      new Spelling("...", "..."),
      new Spelling("..x", "..x"),
      new Spelling("a.b_c~d-E9", "a.b_c~d-E9"));

  /** What the server answers, and the request it must have received ({@code {s}}: the encoded subject). */
  private record Exchange(int code, String answer, String method, String target) {}

  /** One call that takes a subject, and the exchanges it makes. */
  private record Call(String name, BiConsumer<SchemaRegistryClient, String> invoke, List<Exchange> exchanges) {}

  private static Exchange ok(String answer, String method, String target) {
    return new Exchange(200, answer, method, target);
  }

  private static final String VERSION_JSON = "{\"id\":7,\"version\":1,\"schema\":" + SCHEMA_JSON + "}";
  private static final String DEK_JSON = "{\"version\":1,\"algorithm\":\"AES256_GCM\","
      + "\"encryptedKeyMaterial\":\"AQIDBA==\"}";

  /** Confluent's protocol, under the base path {@code /reg}. The KEK's name is spelt as the subject. */
  private static final List<Call> CONFLUENT_CALLS = List.of(
      new Call("register", (c, s) -> c.register(s, SCHEMA),
          List.of(ok("{\"id\":7}", "POST", "/reg/subjects/{s}/versions"))),
      new Call("register with a contract", (c, s) -> c.register(s, SCHEMA, List.of(), DataContract.NONE),
          List.of(ok("{\"id\":7}", "POST", "/reg/subjects/{s}/versions"))),
      new Call("lookup", (c, s) -> c.lookup(s, SCHEMA),
          List.of(ok("{\"id\":7,\"version\":1}", "POST", "/reg/subjects/{s}"))),
      new Call("latestVersion", (c, s) -> c.latestVersion(s),
          List.of(ok(VERSION_JSON, "GET", "/reg/subjects/{s}/versions/latest"))),
      new Call("latestWithMetadata", (c, s) -> c.latestWithMetadata(s, Map.of("own;er", "a&b=c d+e")),
          List.of(ok(VERSION_JSON, "GET", "/reg/subjects/{s}/metadata?key=own%3Ber&value=a%26b%3Dc%20d%2Be"))),
      new Call("version", (c, s) -> c.version(s, 3),
          List.of(ok(VERSION_JSON, "GET", "/reg/subjects/{s}/versions/3"))),
      new Call("versions", (c, s) -> c.versions(s), List.of(ok("[1]", "GET", "/reg/subjects/{s}/versions"))),
      new Call("checkCompatibility", (c, s) -> c.checkCompatibility(s, SCHEMA),
          List.of(ok("{\"is_compatible\":false,\"messages\":[\"no\"]}", "POST",
              "/reg/compatibility/subjects/{s}/versions/latest?verbose=true"))),
      new Call("isCompatible", (c, s) -> c.isCompatible(s, SCHEMA),
          List.of(ok("{\"is_compatible\":true}", "POST", "/reg/compatibility/subjects/{s}/versions/latest"),
              ok("[1]", "GET", "/reg/subjects/{s}/versions"))),
      new Call("compatibility", (c, s) -> c.compatibility(s),
          List.of(ok("{\"compatibilityLevel\":\"FULL\"}", "GET", "/reg/config/{s}?defaultToGlobal=true"))),
      new Call("compatibilityInForce", (c, s) -> c.compatibilityInForce(s),
          List.of(ok("{\"compatibilityLevel\":\"FULL\"}", "GET", "/reg/config/{s}"))),
      new Call("setCompatibility", (c, s) -> c.setCompatibility(s, CompatibilityLevel.FULL),
          List.of(ok("{\"compatibility\":\"FULL\"}", "PUT", "/reg/config/{s}"))),
      new Call("deleteSubject", (c, s) -> c.deleteSubject(s), List.of(ok("[1]", "DELETE", "/reg/subjects/{s}"))),
      new Call("deleteSubjectPermanently", (c, s) -> c.deleteSubjectPermanently(s),
          List.of(ok("[1]", "DELETE", "/reg/subjects/{s}?permanent=true"))),
      new Call("deleteVersion", (c, s) -> c.deleteVersion(s, 2),
          List.of(ok("2", "DELETE", "/reg/subjects/{s}/versions/2"))),
      new Call("deleteVersionPermanently", (c, s) -> c.deleteVersionPermanently(s, 2),
          List.of(ok("2", "DELETE", "/reg/subjects/{s}/versions/2?permanent=true"))),
      new Call("dek", (c, s) -> c.dekRegistry().dek(s, s, "AES256_GCM", 2, false),
          List.of(ok(DEK_JSON, "GET", "/reg/dek-registry/v1/keks/{s}/deks/{s}/versions/2"
              + "?algorithm=AES256_GCM&deleted=false"))),
      new Call("latest dek", (c, s) -> c.dekRegistry().dek(s, s, "AES256_GCM", -1, true),
          List.of(ok(DEK_JSON, "GET", "/reg/dek-registry/v1/keks/{s}/deks/{s}/versions/-1"
              + "?algorithm=AES256_GCM&deleted=true"))),
      new Call("createDek", (c, s) -> c.dekRegistry().createDek(s, s, "AES256_GCM", 1, "AQIDBA=="),
          List.of(ok(DEK_JSON, "POST", "/reg/dek-registry/v1/keks/{s}/deks/{s}"))),
      new Call("kek", (c, s) -> c.dekRegistry().kek(s, false),
          List.of(ok("{\"name\":\"k\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"m\"}", "GET",
              "/reg/dek-registry/v1/keks/{s}?deleted=false"))));

  private static final String NO_SUBJECT = "ERROR: This subject does not exist.\n";
  private static final String NO_SCHEMA = "ERROR: This schema does not exist.\n";
  private static final String ALL_JSON = "[{\"id\":\"0\",\"schema\":" + SCHEMA_JSON + "}]";

  /** schema-repo's protocol, under its base path {@code /schema-repo}. */
  private static final List<Call> SCHEMA_REPO_CALLS = List.of(
      new Call("register, found by text", (c, s) -> c.register(s, SCHEMA),
          List.of(ok("0", "POST", "/schema-repo/{s}/schema"))),
      new Call("register, found by parsed form", (c, s) -> c.register(s, SCHEMA),
          List.of(new Exchange(404, NO_SCHEMA, "POST", "/schema-repo/{s}/schema"),
              ok(ALL_JSON, "GET", "/schema-repo/{s}/all"))),
      new Call("register, creating the subject", (c, s) -> c.register(s, SCHEMA),
          List.of(new Exchange(404, NO_SUBJECT, "POST", "/schema-repo/{s}/schema"),
              new Exchange(404, NO_SUBJECT, "GET", "/schema-repo/{s}/all"),
              new Exchange(404, NO_SUBJECT, "PUT", "/schema-repo/{s}/register"),
              ok("{s}", "PUT", "/schema-repo/{s}"),
              ok("0", "PUT", "/schema-repo/{s}/register"))),
      new Call("lookup", (c, s) -> c.lookup(s, SCHEMA), List.of(ok("0", "POST", "/schema-repo/{s}/schema"))),
      new Call("schemaById", (c, s) -> c.forSubject(s).schemaById(0),
          List.of(ok(SCHEMA.toString(), "GET", "/schema-repo/{s}/id/0"))),
      new Call("latestVersion", (c, s) -> c.latestVersion(s),
          List.of(ok("0\t" + SCHEMA, "GET", "/schema-repo/{s}/latest"))),
      new Call("version", (c, s) -> c.version(s, 1), List.of(ok(SCHEMA.toString(), "GET", "/schema-repo/{s}/id/0"))),
      new Call("versions", (c, s) -> c.versions(s), List.of(ok(ALL_JSON, "GET", "/schema-repo/{s}/all"))),
      new Call("checkCompatibility", (c, s) -> c.checkCompatibility(s, SCHEMA),
          List.of(ok(ALL_JSON, "GET", "/schema-repo/{s}/all"))));

  /** schema-repo's calls that send nothing (it has no such API): they refuse a subject all the same. */
  private static final List<BiConsumer<SchemaRegistryClient, String>> UNSENT = List.of(
      (c, s) -> c.compatibilityInForce(s), (c, s) -> c.setCompatibility(s, CompatibilityLevel.FULL),
      (c, s) -> c.latestWithMetadata(s, Map.of()), (c, s) -> c.deleteSubject(s),
      (c, s) -> c.deleteSubjectPermanently(s), (c, s) -> c.deleteVersion(s, 1),
      (c, s) -> c.deleteVersionPermanently(s, 1));

  @StartStop
  final MockWebServer server = new MockWebServer();

  private Map<String, Object> config(String path) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url(path).toString());
    config.put("max.retries", 0);
    return config;
  }

  private SchemaRegistryClient confluent() {
    return new HttpSchemaRegistryClient(RegistryConfig.from(config("/reg")));
  }

  private SchemaRegistryClient schemaRepo() {
    Map<String, Object> config = config("/schema-repo");
    config.put("schema.registry.api", "schema-repo");
    RegistryConfig parsed = RegistryConfig.from(config);
    return new SchemaRepoClient(parsed, RegistryHttp.of(parsed, null));
  }

  @Test
  void confluent_everyCallSendsTheSubjectAsOneEncodedSegment() throws Exception {
    sendsEachSpelling(CONFLUENT_CALLS, this::confluent);
  }

  @Test
  void schemaRepo_everyCallSendsTheSubjectAsOneEncodedSegment() throws Exception {
    sendsEachSpelling(SCHEMA_REPO_CALLS, this::schemaRepo);
  }

  private void sendsEachSpelling(List<Call> calls, java.util.function.Supplier<SchemaRegistryClient> clients)
      throws Exception {
    List<String> failures = new ArrayList<>();
    for (Call call : calls) {
      for (Spelling spelling : SPELLINGS) {
        try (SchemaRegistryClient client = clients.get()) {
          for (Exchange exchange : call.exchanges()) {
            server.enqueue(new MockResponse.Builder().code(exchange.code())
                .setHeader("Content-Type", exchange.code() == 200 && !exchange.answer().startsWith("ERROR")
                    ? "application/json" : "text/plain")
                .body(exchange.answer().replace("{s}", spelling.subject())).build());
          }
          String what = call.name() + " of '" + spelling.subject() + "'";
          try {
            call.invoke().accept(client, spelling.subject());
          } catch (RuntimeException e) {
            failures.add(what + " threw " + e);
          }
          for (Exchange exchange : call.exchanges()) {
            RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
            String expected = exchange.target().replace("{s}", spelling.encoded());
            if (request == null) {
              failures.add(what + ": no request " + exchange.method() + " " + expected);
              continue;
            }
            if (!request.getMethod().equals(exchange.method()) || !request.getTarget().equals(expected)) {
              failures.add(what + ": sent " + request.getMethod() + " " + request.getTarget() + ", not "
                  + exchange.method() + " " + expected);
            }
            if (!request.getUrl().pathSegments().contains(spelling.subject())) {
              failures.add(what + ": no path segment of " + request.getTarget() + " decodes to the subject");
            }
          }
        }
      }
    }
    assertThat(failures).isEmpty();
    assertThat(server.getRequestCount()).as("nothing more sent").isEqualTo(
        calls.stream().mapToInt(c -> c.exchanges().size()).sum() * SPELLINGS.size());
  }

  /** The subjects that no URL can carry as themselves (null: none given). */
  private static final List<String> REFUSED = java.util.Arrays.asList(".", "..", "", null, "lone\uD800surrogate");

  @Test
  void confluent_aSubjectNoUrlCarries_isRefusedByName_byEveryCall_unsent() {
    refusedByEveryCall(CONFLUENT_CALLS.stream().filter(c -> !c.name().equals("kek")).map(Call::invoke).toList(),
        confluent());
  }

  @Test
  void schemaRepo_aSubjectNoUrlCarries_isRefusedByName_byEveryCall_unsent() {
    List<BiConsumer<SchemaRegistryClient, String>> calls = new ArrayList<>(
        SCHEMA_REPO_CALLS.stream().map(Call::invoke).toList());
    calls.addAll(UNSENT);
    refusedByEveryCall(calls, schemaRepo());
  }

  @Test
  void inMemory_aSubjectNoUrlCarries_isRefusedByName_asRealRegistriesDo() {
    List<BiConsumer<SchemaRegistryClient, String>> calls = new ArrayList<>(CONFLUENT_CALLS.stream()
        .filter(c -> !c.name().contains("ek")).map(Call::invoke).toList());
    refusedByEveryCall(calls, MockRegistries.inMemory());
  }

  /** Through the public factory, cache in front: the same refusal, never a NullPointerException from a cache. */
  @Test
  void throughTheFactory_everyProtocolRefusesByName_unsent() {
    List<BiConsumer<SchemaRegistryClient, String>> confluentCalls = CONFLUENT_CALLS.stream()
        .filter(c -> !c.name().equals("kek")).map(Call::invoke).toList();
    refusedByEveryCall(confluentCalls, SchemaRegistryClients.create(config("/reg")));
    Map<String, Object> schemaRepo = config("/schema-repo");
    schemaRepo.put("schema.registry.api", "schema-repo");
    List<BiConsumer<SchemaRegistryClient, String>> schemaRepoCalls = new ArrayList<>(
        SCHEMA_REPO_CALLS.stream().map(Call::invoke).toList());
    schemaRepoCalls.addAll(UNSENT);
    refusedByEveryCall(schemaRepoCalls, SchemaRegistryClients.create(schemaRepo));
    refusedByEveryCall(confluentCalls.stream().limit(16).toList(),
        SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://subject-paths")));
  }

  private void refusedByEveryCall(List<BiConsumer<SchemaRegistryClient, String>> calls,
      SchemaRegistryClient client) {
    try (client) {
      for (BiConsumer<SchemaRegistryClient, String> call : calls) {
        for (String subject : REFUSED) {
          assertThatThrownBy(() -> call.accept(client, subject))
              .isExactlyInstanceOf(InvalidSubjectException.class)
              .hasMessageContaining(subject == null ? "the subject is missing" : "the subject '" + subject + "'")
              .hasMessageContaining("nothing was sent")
              .satisfies(e -> assertThat(((InvalidSubjectException) e).subject()).isEqualTo(subject));
        }
      }
    }
    assertThat(server.getRequestCount()).isZero();
  }

  /** Any other name in a path, a KEK's, is refused so too (it is no subject: a plain registry failure). */
  @Test
  void aKekNameNoUrlCarries_isRefusedUnsent() {
    try (SchemaRegistryClient client = confluent()) {
      for (String name : List.of(".", "..")) {
        assertThatThrownBy(() -> client.dekRegistry().kek(name, false))
            .isInstanceOf(SchemaRegistryException.class)
            .hasMessageContaining("get KEK '" + name + "'")
            .hasMessageContaining("nothing was sent");
      }
    }
    assertThat(server.getRequestCount()).isZero();
  }

  /**
   * Apicurio's own API is reached under the base URL's path: a segment written encoded there ({@code %3B}, {@code
   * %2F}) goes out as written, never decoded into a {@code ;} or {@code /} that the server reads otherwise.
   */
  @Test
  void anEncodedBasePath_staysEncoded_onApicuriosOwnApi_andInTheAdvice() {
    okhttp3.HttpUrl base = okhttp3.HttpUrl.get("http://127.0.0.1:8080/reg%3Bx/a%2Fb/apis/ccompat/v7");
    assertThat(Urls.root(base).encodedPath()).isEqualTo("/reg%3Bx/a%2Fb");
    assertThat(Urls.apicurioCompatible(okhttp3.HttpUrl.get("http://127.0.0.1:8080/reg%3Bx/apis/registry/v3"))
        .encodedPath()).isEqualTo("/reg%3Bx/apis/ccompat/v7");
    assertThat(Urls.apicurioCompatible(okhttp3.HttpUrl.get("http://127.0.0.1:8080/reg%3Bx")).encodedPath())
        .isEqualTo("/reg%3Bx/apis/ccompat/v7");
  }
}
