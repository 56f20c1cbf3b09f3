package io.kavro.registry;

import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;

/** URL helpers that keep credentials out of messages. */
final class Urls {
  private Urls() {}

  static HttpUrl withoutUserInfo(HttpUrl url) {
    return url.newBuilder().username("").password("").build();
  }

  /**
   * The registry's root under a Confluent-compatible base URL of Apicurio's ({@code http://host/apis/ccompat/v7}
   * → {@code http://host/}, a path before {@code /apis} kept), or {@code null} when the base URL does not end
   * that way.
   */
  static HttpUrl root(HttpUrl base) {
    List<String> segments = segments(base);
    if (!endsWithApi(segments, "ccompat")) {
      return null;
    }
    HttpUrl.Builder root = base.newBuilder().encodedPath("/");
    segments.subList(0, segments.size() - 3).forEach(root::addPathSegment);
    return root.build();
  }

  /**
   * The Confluent-compatible base URL to advise for a base URL that is not a registry's: Apicurio's own API
   * ({@code .../apis/registry/v3} or {@code v2}) gives way to {@code .../apis/ccompat/v7}, a path before
   * {@code /apis} kept; any other URL gets {@code /apis/ccompat/v7} appended (Apicurio's root given).
   */
  static HttpUrl apicurioCompatible(HttpUrl base) {
    List<String> segments = segments(base);
    if (endsWithApi(segments, "registry")) {
      segments = segments.subList(0, segments.size() - 3);
    }
    HttpUrl.Builder url = base.newBuilder().encodedPath("/");
    segments.forEach(url::addPathSegment);
    return url.addPathSegments("apis/ccompat/v7").build();
  }

  /** The path segments of {@code base}, without the empty one that a trailing slash leaves. */
  private static List<String> segments(HttpUrl base) {
    List<String> segments = new ArrayList<>(base.pathSegments());
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
  static String redact(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    return parsed != null ? withoutUserInfo(parsed).toString() : RegistryConfig.redact(url);
  }
}
