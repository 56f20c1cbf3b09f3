package io.kavro.registry.internal.http;

import io.kavro.registry.RegistryConfig;
import okhttp3.HttpUrl;

/** URL helpers that keep credentials out of messages. */
final class Urls {
  private Urls() {}

  static HttpUrl withoutUserInfo(HttpUrl url) {
    return url.newBuilder().username("").password("").build();
  }

  /** The URL with its user info replaced by nothing, for messages; works on unparseable input too. */
  static String redact(String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    return parsed != null ? withoutUserInfo(parsed).toString() : RegistryConfig.redact(url);
  }
}
