package io.kavro.registry.internal.http;

import io.kavro.registry.config.RegistryConfig;
import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;

/** URL helpers: names percent-encoded for a path or query, and credentials kept out of messages. */
public final class Urls {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private Urls() {}

  /**
   * {@code name} percent-encoded for one path segment or one query name or value: every UTF-8 byte of a character
   * outside RFC 3986's unreserved set ({@code ALPHA DIGIT - . _ ~}) becomes {@code %XX}. So a subject reaches the
   * server as one segment whatever it holds: {@code ;} (which OkHttp leaves as it is in a path, and servers cut
   * the segment at), {@code / ? # % +}, spaces, {@code : @} and non-ASCII alike. A name with a lone surrogate,
   * which UTF-8 cannot carry, never gets here: {@link RestRequest} refuses it ({@link
   * io.kavro.registry.internal.schema.SubjectNames#problem}).
   */
  static String encode(String name) {
    byte[] bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    StringBuilder encoded = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      int c = b & 0xFF;
      if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
          || c == '~') {
        encoded.append((char) c);
      } else {
        encoded.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
      }
    }
    return encoded.toString();
  }

  public static HttpUrl withoutUserInfo(HttpUrl url) {
    return url.newBuilder().username("").password("").build();
  }

  /**
   * The registry's root under a Confluent-compatible base URL of Apicurio's ({@code http://host/apis/ccompat/v7}
   * → {@code http://host/}, a path before {@code /apis} kept), or {@code null} when the base URL does not end
   * that way.
   */
  public static HttpUrl root(HttpUrl base) {
    List<String> segments = segments(base);
    if (!endsWithApi(segments, "ccompat")) {
      return null;
    }
    HttpUrl.Builder root = base.newBuilder().encodedPath("/");
    encodedSegments(base).subList(0, segments.size() - 3).forEach(root::addEncodedPathSegment);
    return root.build();
  }

  /**
   * The Confluent-compatible base URL to advise for a base URL that is not a registry's: Apicurio's own API
   * ({@code .../apis/registry/v3} or {@code v2}) gives way to {@code .../apis/ccompat/v7}, a path before
   * {@code /apis} kept; any other URL gets {@code /apis/ccompat/v7} appended (Apicurio's root given).
   */
  public static HttpUrl apicurioCompatible(HttpUrl base) {
    List<String> segments = segments(base);
    if (endsWithApi(segments, "registry")) {
      segments = segments.subList(0, segments.size() - 3);
    }
    HttpUrl.Builder url = base.newBuilder().encodedPath("/");
    encodedSegments(base).subList(0, segments.size()).forEach(url::addEncodedPathSegment);
    return url.addPathSegments("apis/ccompat/v7").build();
  }

  /**
   * The path segments of {@code base}, decoded, without the empty one that a trailing slash leaves: to match
   * names in, never to build a URL from ({@code %3B} would go out as {@code ;}).
   */
  private static List<String> segments(HttpUrl base) {
    return withoutTrailingEmpty(base.pathSegments());
  }

  /** The path segments of {@code base} as they are written ({@code %3B} kept), as {@link #segments} cuts them. */
  private static List<String> encodedSegments(HttpUrl base) {
    return withoutTrailingEmpty(base.encodedPathSegments());
  }

  private static List<String> withoutTrailingEmpty(List<String> all) {
    List<String> segments = new ArrayList<>(all);
    if (!segments.isEmpty() && segments.get(segments.size() - 1).isEmpty()) {
      segments.remove(segments.size() - 1);
    }
    return segments;
  }

  /** Whether {@code segments} end with Apicurio's {@code apis/<api>/v<N>} ({@code apis/ccompat/v7}). */
  private static boolean endsWithApi(List<String> segments, String api) {
    int n = segments.size();
    return n >= 3 && segments.get(n - 3).equals("apis") && segments.get(n - 2).equals(api)
        && segments.get(n - 1).matches("v[0-9]+");
  }

  /** The URL with its user info replaced by nothing, for messages; works on unparseable input too. */
  public static String redact(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    return parsed != null ? withoutUserInfo(parsed).toString() : RegistryConfig.redact(url);
  }
}
