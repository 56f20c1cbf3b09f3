package io.kavro.connect;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Names as Confluent's converter makes them: a full name split into namespace and name, and, with
 * {@code scrub.invalid.names}, each part made valid for Avro the way Confluent's converter does it (URL-encoded,
 * then every character other than a letter, digit or {@code _} replaced by {@code _}, and an {@code x} before a
 * leading digit).
 */
final class AvroNames {
  private AvroNames() {}

  /** One name part; unchanged when {@code scrub} is off or the name is valid. */
  static String scrub(String name, boolean scrub) {
    if (!scrub || name == null || name.isEmpty() || isValid(name)) {
      return name;
    }
    String encoded = URLEncoder.encode(name, StandardCharsets.UTF_8);
    if (Character.isDigit(encoded.charAt(0)) && encoded.charAt(0) <= '9') {
      encoded = "x" + encoded;
    }
    StringBuilder scrubbed = new StringBuilder(encoded);
    for (int i = 0; i < scrubbed.length(); i++) {
      if (!isNameChar(scrubbed.charAt(i))) {
        scrubbed.setCharAt(i, '_');
      }
    }
    return scrubbed.toString();
  }

  /** {@code [namespace or null, name]}, each part scrubbed when {@code scrub} is on. */
  static String[] split(String fullName, boolean scrub) {
    if (fullName == null || fullName.isEmpty()) {
      return new String[] {null, fullName};
    }
    String[] parts = fullName.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      parts[i] = scrub(parts[i], scrub);
    }
    if (parts.length <= 1) {
      return new String[] {null, parts[0]};
    }
    return new String[] {String.join(".", Arrays.copyOfRange(parts, 0, parts.length - 1)),
        parts[parts.length - 1]};
  }

  /** The full name with every part scrubbed. */
  static String scrubFullName(String fullName, boolean scrub) {
    if (fullName == null || !scrub) {
      return fullName;
    }
    String[] split = split(fullName, true);
    return split[0] == null ? split[1] : split[0] + "." + split[1];
  }

  private static boolean isValid(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (!isNameChar(name.charAt(i))) {
        return false;
      }
    }
    return name.charAt(0) < '0' || name.charAt(0) > '9';
  }

  private static boolean isNameChar(char c) {
    return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_';
  }
}
