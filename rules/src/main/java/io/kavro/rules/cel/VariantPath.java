package io.kavro.rules.cel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON paths of {@code variants.path(v, path)}, the subset Confluent's {@code VariantPath} reads: {@code $} (the
 * value itself), {@code .name} (a field; a name is a letter or {@code _}, then letters, digits and {@code _}),
 * {@code ["key"]} or {@code ['key']} (a field of any key; inside, {@code \\} is a backslash and a backslash before
 * the quote is the quote, any other escape is an error) and {@code [i]} (an array element, {@code i} a non-negative
 * int), in any sequence: {@code $.user.tags[0]["display name"]}. Nothing else: no whitespace, wildcards, slices,
 * filters or negative indices.
 *
 * <p>The whole path is read before the walk, so a malformed path fails even where the walk would stop early (but
 * {@code variants.path} of CEL null reads no path: it is null, as Confluent's). A step
 * that finds nothing (no such field, an index out of range, a field of a non-object, an element of a non-array) ends
 * the walk with no value. Errors name the position in the path, never its text (a path may be built from a field's
 * value). Stateless.
 */
final class VariantPath {
  private VariantPath() {}

  /** One step: a field by key, or (key null) an element by index. */
  private record Step(String key, byte[] utf8, int index) {
    Step(String key) {
      this(key, key.getBytes(StandardCharsets.UTF_8), 0);
    }

    Step(int index) {
      this(null, null, index);
    }
  }

  /**
   * The value at {@code path} from {@code root}, or null when a step finds nothing.
   *
   * @throws CelFunctionException when the path is malformed, naming where
   */
  static Variant walk(Variant root, String path) {
    Variant current = root;
    for (Step step : parse(path)) {
      if (current == null) {
        return null;
      }
      if (step.key() != null) {
        current = current.kind() == Variant.Kind.OBJECT ? current.field(step.key(), step.utf8()) : null;
      } else {
        current = current.kind() == Variant.Kind.ARRAY ? current.at(step.index()) : null;
      }
    }
    return current;
  }

  private static List<Step> parse(String path) {
    if (path.isEmpty() || path.charAt(0) != '$') {
      throw malformed("must start with '$'");
    }
    List<Step> steps = new ArrayList<>();
    int i = 1;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '.') {
        i = name(path, i + 1, steps);
      } else if (c == '[') {
        i++;
        if (i >= path.length()) {
          throw malformed("ends after the '[' at position " + (i - 1));
        }
        char first = path.charAt(i);
        i = first == '"' || first == '\'' ? quoted(path, i, steps) : index(path, i, steps);
        if (i >= path.length() || path.charAt(i) != ']') {
          throw malformed("has no ']' at position " + i);
        }
        i++;
      } else {
        throw malformed("has an unexpected character at position " + i + " (expected '.' or '[')");
      }
    }
    return steps;
  }

  private static int name(String path, int from, List<Step> steps) {
    if (from >= path.length() || !(Character.isLetter(path.charAt(from)) || path.charAt(from) == '_')) {
      throw malformed("has no name (a letter or '_' first) after the '.' at position " + (from - 1));
    }
    int end = from + 1;
    while (end < path.length() && (Character.isLetterOrDigit(path.charAt(end)) || path.charAt(end) == '_')) {
      end++;
    }
    steps.add(new Step(path.substring(from, end)));
    return end;
  }

  private static int quoted(String path, int from, List<Step> steps) {
    char quote = path.charAt(from);
    StringBuilder key = new StringBuilder();
    int i = from + 1;
    while (i < path.length()) {
      char c = path.charAt(i++);
      if (c == quote) {
        steps.add(new Step(key.toString()));
        return i;
      }
      if (c == '\\') {
        if (i >= path.length()) {
          throw malformed("ends in an escape, in the quoted key from position " + from);
        }
        char escaped = path.charAt(i++);
        if (escaped != '\\' && escaped != quote) {
          throw malformed("has an unsupported escape at position " + (i - 2) + " (only \\\\ and \\" + quote
              + " are)");
        }
        key.append(escaped);
      } else {
        key.append(c);
      }
    }
    throw malformed("has an unterminated quoted key from position " + from);
  }

  private static int index(String path, int from, List<Step> steps) {
    if (path.charAt(from) == '-') {
      throw malformed("has a negative index at position " + from + " (not supported)");
    }
    int end = from;
    while (end < path.length() && Character.isDigit(path.charAt(end))) {
      end++;
    }
    if (end == from) {
      throw malformed("has no index (digits) at position " + from);
    }
    try {
      steps.add(new Step(Integer.parseInt(path, from, end, 10)));
    } catch (NumberFormatException e) {
      throw malformed("has an index beyond 2^31 - 1 at position " + from);
    }
    return end;
  }

  private static CelFunctionException malformed(String what) {
    return new CelFunctionException("variants.path: the path " + what);
  }
}
