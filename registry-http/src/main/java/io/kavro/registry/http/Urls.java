package io.kavro.registry.http;

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
    if (parsed != null) {
      return withoutUserInfo(parsed).toString();
    }
    int scheme = url.indexOf("://");
    int at = url.lastIndexOf('@');
    return scheme >= 0 && at > scheme ? url.substring(0, scheme + 3) + url.substring(at + 1) : url;
  }
}
