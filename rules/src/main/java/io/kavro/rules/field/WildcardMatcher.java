package io.kavro.rules.field;

import java.util.regex.Pattern;

/**
 * A glob over dotted names, as Confluent's {@code WildcardMatcher} reads it ({@code metadata.tags} keys such as
 * {@code **.ssn} or {@code com.acme.User.*}): {@code **} matches anything, dots included; {@code *} anything but a
 * dot; {@code ?} one character but a dot; {@code **.*} is {@code **}. The glob must match the whole name. An
 * immutable value, thread-safe.
 */
public final class WildcardMatcher {
  private static final char SEPARATOR = '.';

  private final String glob;
  private final Pattern pattern;

  private WildcardMatcher(String glob) {
    this.glob = glob;
    this.pattern = Pattern.compile(toRegex(glob));
  }

  /** The matcher of {@code glob}. */
  public static WildcardMatcher of(String glob) {
    if (glob == null) {
      throw new IllegalArgumentException("a wildcard pattern is required");
    }
    return new WildcardMatcher(glob);
  }

  /** Whether {@code name} matches the whole glob. */
  public boolean matches(String name) {
    return name != null && pattern.matcher(name).matches();
  }

  /** The glob. */
  @Override
  public String toString() {
    return glob;
  }

  /** The regular expression of a glob, as Confluent's {@code wildcardToRegexp} writes it. */
  static String toRegex(String glob) {
    char[] src = glob.replace("**" + SEPARATOR + "*", "**").toCharArray();
    StringBuilder dst = new StringBuilder(src.length * 2);
    int i = 0;
    while (i < src.length) {
      char c = src[i++];
      switch (c) {
        case '*' -> {
          if (i < src.length && src[i] == '*') {
            dst.append(".*");
            i++;
          } else {
            dst.append("[^").append(SEPARATOR).append("]*");
          }
        }
        case '?' -> dst.append("[^").append(SEPARATOR).append(']');
        case '.', '+', '{', '}', '(', ')', '|', '^', '$' -> dst.append('\\').append(c);
        case '\\' -> {
          // Confluent's doubleSlashes: a backslash stands for itself, and takes the next character literally
          // unless that character ends the glob
          dst.append("\\\\");
          if (i + 1 < src.length) {
            dst.append(src[i++]);
          }
        }
        default -> dst.append(c);
      }
    }
    return dst.toString();
  }
}
