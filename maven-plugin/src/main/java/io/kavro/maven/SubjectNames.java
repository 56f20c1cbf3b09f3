package io.kavro.maven;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Subject names written as XML element names, as Confluent's plugin writes them: a name is an element of
 * {@code <subjects>}, and what an element name cannot hold is URL-encoded with {@code _x} for {@code %}
 * ({@code my_x2Fsubject} is {@code my/subject}, {@code _x3A} a colon). The same escaping makes file names of
 * subjects in {@code download}.
 */
final class SubjectNames {
  private SubjectNames() {}

  /**
   * The subject an element name stands for: {@code _x} read as {@code %} and the name URL-decoded, a {@code +}
   * kept as it is (URL decoding would read it as a space; a space is {@code _x20}); if that fails, only
   * {@code _x2F} read as {@code /}; the name as it is when neither changes it.
   */
  static String decode(String element) {
    if (!element.contains("_x")) {
      return element;
    }
    try {
      return URLDecoder.decode(element.replace("+", "%2B").replace("_x", "%"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return element.replace("_x2F", "/");
    }
  }

  /**
   * A file name for a subject: URL-encoded, with {@code _x} for {@code %} ({@code a/b} is {@code a_x2Fb}) and
   * {@code _x20} for a space, so that {@link #decode} reads it back.
   */
  static String encode(String subject) {
    return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20").replace("%", "_x");
  }
}
