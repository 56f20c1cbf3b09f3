package io.kavro.rules.jsonata;

import com.dashjoin.jsonata.Functions;
import com.dashjoin.jsonata.JException;
import com.dashjoin.jsonata.Jsonata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSONata's functions that take a regular expression ({@code $contains}, {@code $match}, {@code $replace},
 * {@code $split}), run on {@link JsonataRegex} (RE2) in place of the engine's own, which run
 * {@code java.util.regex} (and read a string pattern with a {@code $replace} limit as a Java regex). Bound in the
 * frame of each evaluation, where they hide the engine's. Stateless.
 */
final class RegexFunctions {
  private RegexFunctions() {}

  /** Binds the four functions in {@code frame}. */
  static void bind(Jsonata.Frame frame) {
    frame.bind("contains", new Jsonata.JFunction(RegexFunctions::contains, "<s-(sf):b>"));
    frame.bind("match", new Jsonata.JFunction(RegexFunctions::match, "<s-f<s:o>n?:a<o>>"));
    frame.bind("replace", new Jsonata.JFunction(RegexFunctions::replace, "<s-(sf)(sf)n?:s>"));
    frame.bind("split", new Jsonata.JFunction(RegexFunctions::split, "<s-(sf)n?:a<s>>"));
  }

  private static Object arg(List<?> args, int index) {
    return index < args.size() ? args.get(index) : null;
  }

  private static Object contains(Object input, List<?> args) {
    if (!(arg(args, 0) instanceof String text)) {
      return null;
    }
    Object token = arg(args, 1);
    if (token instanceof String literal) {
      return text.contains(literal);
    }
    return regex("$contains", token).find(text);
  }

  private static Object match(Object input, List<?> args) {
    if (!(arg(args, 0) instanceof String text)) {
      return null;
    }
    Number limit = (Number) arg(args, 2);
    if (limit != null && limit.doubleValue() < 0) {
      throw new JException("D3040", -1, limit);
    }
    return regex("$match", arg(args, 1)).matches(text, limit);
  }

  private static Object replace(Object input, List<?> args) throws Throwable {
    if (!(arg(args, 0) instanceof String text)) {
      return null;
    }
    Object pattern = arg(args, 1);
    Object replacement = arg(args, 2);
    Number limit = (Number) arg(args, 3);
    if (limit != null && limit.doubleValue() < 0) {
      throw new JException("D3011", -1, limit);
    }
    if (pattern instanceof String literal) {
      if (literal.isEmpty()) {
        throw new JException("D3010", -1);
      }
      return replaceLiteral(text, literal, replacement, limit);
    }
    return regex("$replace", pattern).replace(text, replacement, limit);
  }

  /** A string pattern is found as it is, never read as a regex, from left to right. */
  private static String replaceLiteral(String text, String literal, Object replacement, Number limit)
      throws Throwable {
    long max = limit == null ? Long.MAX_VALUE : limit.longValue();
    StringBuilder out = new StringBuilder(text.length());
    int position = 0;
    long done = 0;
    int index = text.indexOf(literal);
    while (index >= 0 && done < max) {
      out.append(text, position, index).append(literalReplacement(literal, index, replacement));
      position = index + literal.length();
      done++;
      index = text.indexOf(literal, position);
    }
    return out.append(text, position, text.length()).toString();
  }

  private static String literalReplacement(String literal, int index, Object replacement) throws Throwable {
    if (replacement instanceof String text) {
      return text;
    }
    Map<String, Object> match = new LinkedHashMap<>();
    match.put("match", literal);
    match.put("index", index);
    match.put("groups", List.of());
    Object result = Functions.funcApply(replacement, List.of(match));
    if (!(result instanceof String text)) {
      throw new JException("D3012", -1, result);
    }
    return text;
  }

  private static Object split(Object input, List<?> args) {
    if (!(arg(args, 0) instanceof String text)) {
      return null;
    }
    Object separator = arg(args, 1);
    Number limit = (Number) arg(args, 2);
    if (limit != null && limit.doubleValue() < 0) {
      throw new JException("D3020", -1, text);
    }
    List<String> parts;
    if (separator instanceof String literal) {
      parts = splitLiteral(text, literal);
    } else {
      parts = regex("$split", separator).split(text);
    }
    return limit != null && limit.intValue() < parts.size() ? new ArrayList<>(parts.subList(0, limit.intValue()))
        : parts;
  }

  private static List<String> splitLiteral(String text, String separator) {
    List<String> parts = new ArrayList<>();
    if (separator.isEmpty()) {
      for (int i = 0; i < text.length(); i++) {
        parts.add(String.valueOf(text.charAt(i)));
      }
      return parts;
    }
    int position = 0;
    int index = text.indexOf(separator);
    while (index >= 0) {
      parts.add(text.substring(position, index));
      position = index + separator.length();
      index = text.indexOf(separator, position);
    }
    parts.add(text.substring(position));
    return parts;
  }

  private static JsonataRegex regex(String function, Object pattern) {
    if (pattern instanceof JsonataRegex regex) {
      return regex;
    }
    if (pattern instanceof java.util.regex.Pattern parsed) {
      return JsonataRegex.of(parsed);
    }
    throw new JException("the pattern of " + function + " must be a string or a regular expression, not "
        + (pattern == null ? "null" : pattern.getClass().getSimpleName()), -1);
  }
}
