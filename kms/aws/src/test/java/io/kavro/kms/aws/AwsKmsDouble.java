package io.kavro.kms.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A protocol double of AWS KMS's JSON 1.1 API ({@code POST /}, {@code X-Amz-Target: TrentService.Encrypt} or
 * {@code .Decrypt}, {@code application/x-amz-json-1.1}) on 127.0.0.1, for the SDKs to be pointed at as at a VPC
 * endpoint ({@code aws.endpointUrlKms}, {@code AWS_ENDPOINT_URL_KMS}).
 *
 * <p>It checks every request's SigV4 {@code Authorization} header by signing the request again with the secret
 * of the access key it names (a wrong secret is {@code InvalidSignatureException}, an unknown access key
 * {@code UnrecognizedClientException}), and the credential scope's service ({@code kms}) and region (the key's).
 * It really encrypts: AES-256-GCM under a random secret per key, with the key ARN and the encryption context as
 * associated data; the blob is {@code 0x01 ‖ uint16 length ‖ key ARN ‖ iv(12) ‖ ciphertext ‖ tag}, so Decrypt
 * finds the key and answers its {@code KeyId}, and a blob made under another context does not decrypt. Errors are
 * AWS's: {@code NotFoundException}, {@code DisabledException}, {@code IncorrectKeyException},
 * {@code InvalidCiphertextException}, {@code AccessDeniedException}. It can be told to fail the next calls as an
 * outage ({@link #fail}). It is STS too ({@code AssumeRole}, reached by {@code aws.endpointUrlSts}), handing out
 * temporary credentials whose session token KMS calls must carry. Every request is logged ({@link #requests()}).
 */
final class AwsKmsDouble implements AutoCloseable {
  /** A session token that AWS's InvalidSignatureException quotes in its canonical request: never to be printed. */
  static final String SIGNED_TOKEN = "IQoJb3JpZ2luX2VjKAVROSESSIONTOKEN0000";
  /** How the double fails a call when told to. */
  enum Outage {
    /** 400 {@code ThrottlingException}, "Rate exceeded", as KMS answers a request over its quota. */
    THROTTLING(400, "ThrottlingException", "Rate exceeded"),
    /** 503 {@code ServiceUnavailableException}. */
    UNAVAILABLE(503, "ServiceUnavailableException", "Service Unavailable"),
    /** 500 {@code KMSInternalException}. */
    INTERNAL(500, "KMSInternalException", "An internal error occurred");

    final int status;
    final String type;
    final String message;

    Outage(int status, String type, String message) {
      this.status = status;
      this.type = type;
      this.message = message;
    }
  }

  /**
   * A request as the double saw it.
   *
   * @param target the operation ({@code Encrypt}, {@code Decrypt})
   * @param accessKeyId the access key of its signature
   * @param region its credential scope's region
   * @param body its JSON body
   * @param status the HTTP status answered
   * @param answer the JSON answered
   */
  record Request(String target, String accessKeyId, String region, JsonNode body, int status, JsonNode answer) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String JSON_1_1 = "application/x-amz-json-1.1";
  private static final Pattern AUTHORIZATION = Pattern.compile(
      "AWS4-HMAC-SHA256 Credential=([^/]+)/(\\d{8})/([^/]+)/([^/]+)/aws4_request, ?SignedHeaders=([^,]+), ?"
          + "Signature=([0-9a-f]{64})");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final Map<String, String> secrets = new ConcurrentHashMap<>();
  private final Map<String, byte[]> keys = new ConcurrentHashMap<>();
  private final Map<String, String> aliases = new ConcurrentHashMap<>();
  private final Set<String> disabled = ConcurrentHashMap.newKeySet();
  private final Set<String> denied = ConcurrentHashMap.newKeySet();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Map<String, String> sessionTokens = new ConcurrentHashMap<>();
  private final Map<String, String> roles = new ConcurrentHashMap<>();
  private final AtomicInteger sessions = new AtomicInteger();
  private final AtomicInteger outages = new AtomicInteger();
  private volatile Outage outage = Outage.THROTTLING;
  private volatile String answeredKeyId;

  private AwsKmsDouble(HttpServer server) {
    this.server = server;
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** A double over HTTP, with no keys and no credentials. */
  static AwsKmsDouble start() throws IOException {
    return new AwsKmsDouble(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
  }

  /** A double over HTTPS, with this certificate, as a VPC endpoint with a private CA. */
  static AwsKmsDouble startTls(okhttp3.tls.HeldCertificate certificate) throws IOException {
    com.sun.net.httpserver.HttpsServer server = com.sun.net.httpserver.HttpsServer.create(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(
        new okhttp3.tls.HandshakeCertificates.Builder().heldCertificate(certificate).build().sslContext()));
    return new AwsKmsDouble(server);
  }

  /** Its URL, {@code http(s)://127.0.0.1:<port>}. */
  String url() {
    return (server instanceof com.sun.net.httpserver.HttpsServer ? "https" : "http") + "://127.0.0.1:"
        + server.getAddress().getPort();
  }

  /** Accepts requests signed with this access key and secret. */
  AwsKmsDouble credentials(String accessKeyId, String secretAccessKey) {
    secrets.put(accessKeyId, secretAccessKey);
    return this;
  }

  /** Makes a key, {@code arn:aws:kms:<region>:111122223333:key/<id>}, with a random secret; returns its ARN. */
  String createKey(String region, String id) {
    String arn = "arn:aws:kms:" + region + ":111122223333:key/" + id;
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    keys.put(arn, secret);
    return arn;
  }

  /** Names a key by an alias; returns the alias ARN. */
  String alias(String keyArn, String name) {
    String alias = keyArn.substring(0, keyArn.indexOf(":key/")) + ":alias/" + name;
    aliases.put(alias, keyArn);
    return alias;
  }

  /** Lets STS AssumeRole this role, with the caller's credentials; returns the role ARN. */
  String role(String name) {
    String arn = "arn:aws:iam::111122223333:role/" + name;
    roles.put(arn, name);
    return arn;
  }

  void disable(String keyArn) {
    disabled.add(keyArn);
  }

  /** Refuses every call signed with this access key: {@code AccessDeniedException}. */
  void deny(String accessKeyId) {
    denied.add(accessKeyId);
  }

  /** Fails the next {@code calls} calls (whatever they are) with this outage. */
  void fail(int calls, Outage outage) {
    this.outage = outage;
    outages.set(calls);
  }

  /** Answers Decrypt with this KeyId instead of the blob's key (a KMS that decrypted with another key). */
  void answerKeyId(String keyId) {
    answeredKeyId = keyId;
  }

  /** The requests so far, oldest first. */
  List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The requests of an operation. */
  List<Request> requests(String target) {
    return requests.stream().filter(r -> r.target().equals(target)).toList();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      String operation = target == null ? "" : target.replaceFirst("^TrentService\\.", "");
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      Matcher auth = authorization == null ? null : AUTHORIZATION.matcher(authorization);
      boolean signed = auth != null && auth.matches();
      String accessKeyId = signed ? auth.group(1) : null;
      String region = signed ? auth.group(3) : null;
      JsonNode request;
      try {
        request = JSON.readTree(body);
      } catch (IOException e) {
        request = JSON.createObjectNode();
      }
      if (signed && auth.group(4).equals("sts")) {
        handleSts(exchange, body, auth);
        return;
      }
      Answer answer;
      if (!"POST".equals(exchange.getRequestMethod()) || target == null || !target.startsWith("TrentService.")
          || !String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")).startsWith(JSON_1_1)) {
        answer = error(400, "UnknownOperationException", "not a KMS JSON 1.1 call");
      } else if (!signed) {
        answer = error(400, "MissingAuthenticationTokenException", "Request is missing Authentication Token");
      } else if (!secrets.containsKey(accessKeyId)) {
        answer = error(400, "UnrecognizedClientException", "The security token included in the request is invalid.");
      } else if (sessionTokens.containsKey(accessKeyId) && !sessionTokens.get(accessKeyId).equals(
          exchange.getRequestHeaders().getFirst("X-Amz-Security-Token"))) {
        answer = error(400, "UnrecognizedClientException", "The security token included in the request is invalid.");
      } else if (!auth.group(4).equals("kms") || !auth.group(6).equals(signature(exchange, body, auth))) {
        answer = error(400, "InvalidSignatureException", "The request signature we calculated does not match the "
            + "signature you provided. Check your AWS Secret Access Key and signing method. Consult the service "
            + "documentation for details.\n\nThe Canonical String for this request should have been\n'POST\n/\n\n"
            + "host:kms\nx-amz-security-token:" + SIGNED_TOKEN + "\n'");
      } else if (outages.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        Outage now = outage;
        answer = error(now.status, now.type, now.message);
      } else if (denied.contains(accessKeyId)) {
        answer = error(400, "AccessDeniedException", "User: arn:aws:iam::111122223333:user/" + accessKeyId
            + " is not authorized to perform: kms:" + operation);
      } else {
        answer = switch (operation) {
          case "Encrypt" -> encrypt(request, region);
          case "Decrypt" -> decrypt(request, region);
          default -> error(400, "UnknownOperationException", operation);
        };
      }
      requests.add(new Request(operation, accessKeyId, region, request, answer.status, answer.body));
      byte[] out = JSON.writeValueAsBytes(answer.body);
      exchange.getResponseHeaders().set("Content-Type", JSON_1_1);
      exchange.getResponseHeaders().set("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
      exchange.sendResponseHeaders(answer.status, out.length);
      try (OutputStream stream = exchange.getResponseBody()) {
        stream.write(out);
      }
    }
  }

  /**
   * STS's {@code AssumeRole} (its query protocol: a form body, an XML answer), signed as KMS calls are: temporary
   * credentials whose session token KMS calls must then carry. Outages ({@link #fail}) and {@link #deny} apply.
   */
  private void handleSts(HttpExchange exchange, byte[] body, Matcher auth) throws IOException {
    ObjectNode form = JSON.createObjectNode();
    for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    String accessKeyId = auth.group(1);
    int status = 400;
    String xml;
    if (!secrets.containsKey(accessKeyId)) {
      xml = stsError("InvalidClientTokenId", "The security token included in the request is invalid.");
    } else if (!auth.group(6).equals(signature(exchange, body, auth))) {
      xml = stsError("SignatureDoesNotMatch", "The request signature we calculated does not match.");
    } else if (outages.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      status = outage.status;
      xml = stsError(outage == Outage.THROTTLING ? "Throttling" : "ServiceUnavailable", outage.message);
    } else if (denied.contains(accessKeyId) || !"AssumeRole".equals(form.path("Action").asText())
        || !roles.containsKey(form.path("RoleArn").asText())) {
      status = 403;
      xml = stsError("AccessDenied", "User: arn:aws:iam::111122223333:user/" + accessKeyId
          + " is not authorized to perform: sts:AssumeRole on resource: " + form.path("RoleArn").asText());
    } else {
      String temporaryKey = "ASIAKAVRO" + sessions.incrementAndGet();
      byte[] random = new byte[24];
      RANDOM.nextBytes(random);
      String temporarySecret = Base64.getEncoder().encodeToString(random);
      RANDOM.nextBytes(random);
      String token = Base64.getEncoder().encodeToString(random);
      secrets.put(temporaryKey, temporarySecret);
      sessionTokens.put(temporaryKey, token);
      status = 200;
      xml = "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><AssumeRoleResult>"
          + "<Credentials><AccessKeyId>" + temporaryKey + "</AccessKeyId><SecretAccessKey>" + temporarySecret
          + "</SecretAccessKey><SessionToken>" + token + "</SessionToken><Expiration>"
          + java.time.Instant.now().plusSeconds(3600) + "</Expiration></Credentials><AssumedRoleUser>"
          + "<AssumedRoleId>AROAKAVRO:" + form.path("RoleSessionName").asText() + "</AssumedRoleId><Arn>"
          + "arn:aws:sts::111122223333:assumed-role/" + roles.get(form.path("RoleArn").asText()) + "/"
          + form.path("RoleSessionName").asText() + "</Arn></AssumedRoleUser></AssumeRoleResult>"
          + "<ResponseMetadata><RequestId>" + java.util.UUID.randomUUID() + "</RequestId></ResponseMetadata>"
          + "</AssumeRoleResponse>";
    }
    requests.add(new Request(form.path("Action").asText(), accessKeyId, auth.group(3), form, status,
        JSON.createObjectNode().put("xml", status == 200 ? "(credentials)" : xml)));
    byte[] out = xml.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml");
    exchange.sendResponseHeaders(status, out.length);
    try (OutputStream stream = exchange.getResponseBody()) {
      stream.write(out);
    }
  }

  private static String stsError(String code, String message) {
    return "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>Sender</Type><Code>"
        + code + "</Code><Message>" + message + "</Message></Error><RequestId>" + java.util.UUID.randomUUID()
        + "</RequestId></ErrorResponse>";
  }

  private Answer encrypt(JsonNode request, String region) {
    String keyArn = resolve(request.path("KeyId").asText(null), region);
    if (keyArn == null) {
      return notFound(request.path("KeyId").asText());
    }
    if (disabled.contains(keyArn)) {
      return error(400, "DisabledException", keyArn + " is disabled.");
    }
    byte[] plaintext = Base64.getDecoder().decode(request.path("Plaintext").asText());
    byte[] arn = keyArn.getBytes(StandardCharsets.UTF_8);
    byte[] iv = new byte[12];
    RANDOM.nextBytes(iv);
    byte[] sealed = gcm(Cipher.ENCRYPT_MODE, keyArn, iv, aad(arn, request.path("EncryptionContext")), plaintext);
    ByteBuffer blob = ByteBuffer.allocate(3 + arn.length + iv.length + sealed.length);
    blob.put((byte) 1).putShort((short) arn.length).put(arn).put(iv).put(sealed);
    ObjectNode answer = JSON.createObjectNode();
    answer.put("CiphertextBlob", Base64.getEncoder().encodeToString(blob.array()));
    answer.put("KeyId", keyArn);
    answer.put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
    return new Answer(200, answer);
  }

  private Answer decrypt(JsonNode request, String region) {
    byte[] blob = Base64.getDecoder().decode(request.path("CiphertextBlob").asText());
    ByteBuffer in = ByteBuffer.wrap(blob);
    String keyArn;
    byte[] arn;
    byte[] iv = new byte[12];
    byte[] sealed;
    try {
      if (in.get() != 1) {
        throw new IllegalArgumentException();
      }
      arn = new byte[in.getShort()];
      in.get(arn).get(iv);
      sealed = new byte[in.remaining()];
      in.get(sealed);
      keyArn = new String(arn, StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      return error(400, "InvalidCiphertextException", null);
    }
    if (!keys.containsKey(keyArn)) {
      return error(400, "InvalidCiphertextException", null);
    }
    if (request.hasNonNull("KeyId")) {
      String named = resolve(request.get("KeyId").asText(), region);
      if (named == null) {
        return notFound(request.get("KeyId").asText());
      }
      if (!named.equals(keyArn)) {
        return error(400, "IncorrectKeyException", "The key ID in the request does not identify a CMK that can "
            + "perform this operation.");
      }
    }
    if (disabled.contains(keyArn)) {
      return error(400, "DisabledException", keyArn + " is disabled.");
    }
    byte[] plaintext;
    try {
      plaintext = gcm(Cipher.DECRYPT_MODE, keyArn, iv, aad(arn, request.path("EncryptionContext")), sealed);
    } catch (IllegalStateException e) {
      return error(400, "InvalidCiphertextException", null);
    }
    ObjectNode answer = JSON.createObjectNode();
    String reported = answeredKeyId;
    answer.put("KeyId", reported != null ? reported : keyArn);
    answer.put("Plaintext", Base64.getEncoder().encodeToString(plaintext));
    answer.put("EncryptionAlgorithm", "SYMMETRIC_DEFAULT");
    return new Answer(200, answer);
  }

  /** The key ARN that a KeyId names in a region (a key ARN or an alias ARN), or null. */
  private String resolve(String keyId, String region) {
    if (keyId == null) {
      return null;
    }
    String arn = aliases.getOrDefault(keyId, keyId);
    return keys.containsKey(arn) && arn.split(":")[3].equals(region) ? arn : null;
  }

  private static Answer notFound(String keyId) {
    return error(400, "NotFoundException", "Key '" + keyId + "' does not exist");
  }

  /** The key ARN, then the encryption context's entries in key order. */
  private static byte[] aad(byte[] arn, JsonNode context) {
    StringBuilder text = new StringBuilder(new String(arn, StandardCharsets.UTF_8));
    TreeMap<String, String> sorted = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = context.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      sorted.put(entry.getKey(), entry.getValue().asText());
    }
    sorted.forEach((k, v) -> text.append('\n').append(k).append('=').append(v));
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private byte[] gcm(int mode, String keyArn, byte[] iv, byte[] aad, byte[] input) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, new SecretKeySpec(keys.get(keyArn), "AES"), new GCMParameterSpec(128, iv));
      cipher.updateAAD(aad);
      return cipher.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** SigV4's signature of the request, made again with the secret of its access key. */
  private String signature(HttpExchange exchange, byte[] body, Matcher auth) {
    String amzDate = exchange.getRequestHeaders().getFirst("X-Amz-Date");
    if (amzDate == null || !amzDate.startsWith(auth.group(2))) {
      return "";
    }
    StringBuilder canonical = new StringBuilder();
    canonical.append(exchange.getRequestMethod()).append('\n');
    String path = exchange.getRequestURI().getRawPath();
    canonical.append(path.isEmpty() ? "/" : path).append('\n');
    String query = exchange.getRequestURI().getRawQuery();
    canonical.append(query == null ? "" : query).append('\n');
    String signedHeaders = auth.group(5);
    for (String name : signedHeaders.split(";")) {
      List<String> values = exchange.getRequestHeaders().get(name);
      if (values == null) {
        return "";
      }
      List<String> trimmed = new ArrayList<>();
      values.forEach(v -> trimmed.add(v.trim().replaceAll("\\s+", " ")));
      canonical.append(name).append(':').append(String.join(",", trimmed)).append('\n');
    }
    canonical.append('\n').append(signedHeaders).append('\n').append(hex(sha256(body)));
    String scope = auth.group(2) + "/" + auth.group(3) + "/" + auth.group(4) + "/aws4_request";
    String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
        + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    byte[] key = ("AWS4" + secrets.get(auth.group(1))).getBytes(StandardCharsets.UTF_8);
    for (String part : List.of(auth.group(2), auth.group(3), auth.group(4), "aws4_request")) {
      key = hmac(key, part);
    }
    return hex(hmac(key, toSign));
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static Answer error(int status, String type, String message) {
    ObjectNode body = JSON.createObjectNode();
    body.put("__type", type);
    if (message != null) {
      body.put("message", message);
    }
    return new Answer(status, body);
  }

  private record Answer(int status, JsonNode body) {}
}
