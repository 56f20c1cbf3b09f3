package io.kavro.rules.jsonata;

import com.dashjoin.jsonata.Functions;
import com.dashjoin.jsonata.JException;
import com.dashjoin.jsonata.Jsonata;
import com.dashjoin.jsonata.Utils;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSONata regular expression ({@code /ab+c/i}) run by RE2/J, in time linear in the length of the text, as
 * Confluent's JavaScript client runs JSONata's regexes on RE2. The engine parses a regex literal into a
 * {@code java.util.regex.Pattern}, which backtracks ({@code /^(.*a){12}$/} takes seconds on 32 characters):
 * {@link RegexLiterals} puts one of these in its place. It is a JSONata function, as the engine's regexes are, so
 * that {@code /re/(s)} and {@code $map(list, /re/)} keep working; {@link RegexFunctions} runs {@code $contains},
 * {@code $match}, {@code $replace} and {@code $split} with it. Immutable and thread-safe.
 */
final class JsonataRegex extends Jsonata.JFunction {
  private final Pattern pattern;
  private final String literal;

  private JsonataRegex(Pattern pattern, String literal) {
    super(filter(pattern), null);
    this.pattern = pattern;
    this.literal = literal;
  }

  /**
   * The RE2 form of a regex literal that the engine parsed.
   *
   * @throws IllegalArgumentException when RE2 cannot run it (a backreference, lookaround, a possessive or atomic
   *     group): the message quotes the literal and says why
   */
  static JsonataRegex of(java.util.regex.Pattern parsed) {
    int flags = 0;
    if ((parsed.flags() & java.util.regex.Pattern.CASE_INSENSITIVE) != 0) {
      flags |= Pattern.CASE_INSENSITIVE;
    }
    if ((parsed.flags() & java.util.regex.Pattern.MULTILINE) != 0) {
      flags |= Pattern.MULTILINE;
    }
    String literal = "/" + parsed.pattern() + "/" + ((flags & Pattern.CASE_INSENSITIVE) != 0 ? "i" : "")
        + ((flags & Pattern.MULTILINE) != 0 ? "m" : "");
    try {
      return new JsonataRegex(Pattern.compile(parsed.pattern(), flags), literal);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("the regular expression " + literal + " cannot run on RE2, the "
          + "linear-time engine that rules use (no backreferences, lookahead or lookbehind, possessive or atomic "
          + "groups): " + e.getDescription(), e);
    }
  }

  /** {@code /re/(strings)}: the strings the regex finds a match in, as the engine applies a regex. */
  private static Jsonata.JFunctionCallable filter(Pattern pattern) {
    return (input, args) -> {
      List<Object> matching = new ArrayList<>();
      for (Object arg : args) {
        if (arg instanceof String text && pattern.matcher(text).find()) {
          matching.add(text);
        }
      }
      return matching;
    };
  }

  /** Whether the regex matches somewhere in {@code text}. */
  boolean find(String text) {
    return pattern.matcher(text).find();
  }

  /**
   * {@code $match}: the first {@code limit} matches (all when null), each {@code {match, index, groups}}, as a
   * JSONata sequence.
   */
  List<Object> matches(String text, Number limit) {
    List<Object> result = Utils.createSequence();
    long max = limit == null ? Long.MAX_VALUE : limit.longValue();
    Matcher matcher = pattern.matcher(text);
    while (result.size() < max && matcher.find()) {
      result.add(match(matcher));
    }
    return result;
  }

  private static Map<String, Object> match(Matcher matcher) {
    Map<String, Object> match = new LinkedHashMap<>();
    match.put("match", matcher.group());
    match.put("index", matcher.start());
    match.put("groups", groups(matcher));
    return match;
  }

  private static List<String> groups(Matcher matcher) {
    List<String> groups = new ArrayList<>(matcher.groupCount());
    for (int g = 1; g <= matcher.groupCount(); g++) {
      groups.add(matcher.group(g));
    }
    return groups;
  }

  /**
   * {@code $replace}: the first {@code limit} matches (all when null) replaced by {@code replacement}, a string
   * in which {@code $0} is the match, {@code $1}... a group and {@code $$} a dollar (JSONata's rules), or a
   * function given the match object that returns a string.
   */
  String replace(String text, Object replacement, Number limit) {
    long max = limit == null ? Long.MAX_VALUE : limit.longValue();
    Matcher matcher = pattern.matcher(text);
    StringBuilder out = new StringBuilder(text.length());
    int position = 0;
    long done = 0;
    while (done < max && matcher.find()) {
      out.append(text, position, matcher.start());
      out.append(substitute(matcher, replacement));
      position = matcher.end();
      done++;
    }
    return out.append(text, position, text.length()).toString();
  }

  private static String substitute(Matcher matcher, Object replacement) {
    if (replacement instanceof String template) {
      return expand(template, matcher.group(), groups(matcher));
    }
    Object result;
    try {
      result = Functions.funcApply(replacement, List.of(match(matcher)));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new JException(e, "D3012", -1, null, null);
    }
    if (!(result instanceof String text)) {
      throw new JException("D3012", -1, result);
    }
    return text;
  }

  /** A replacement template expanded as the JavaScript JSONata expands it. */
  static String expand(String template, String match, List<String> groups) {
    StringBuilder out = new StringBuilder();
    int position = 0;
    int index = template.indexOf('$');
    while (index != -1 && position < template.length()) {
      out.append(template, position, index);
      position = index + 1;
      char next = position < template.length() ? template.charAt(position) : 0;
      if (next == '$') {
        out.append('$');
        position++;
      } else if (next == '0') {
        out.append(match);
        position++;
      } else {
        int maxDigits = groups.isEmpty() ? 1 : String.valueOf(groups.size()).length();
        String digits = leadingDigits(template, position, maxDigits);
        if (maxDigits > 1 && !digits.isEmpty() && Integer.parseInt(digits) > groups.size()) {
          digits = leadingDigits(template, position, maxDigits - 1);
        }
        if (digits.isEmpty()) {
          out.append('$');
        } else {
          int group = Integer.parseInt(digits);
          if (group >= 1 && group <= groups.size() && groups.get(group - 1) != null) {
            out.append(groups.get(group - 1));
          }
          position += digits.length();
        }
      }
      index = template.indexOf('$', position);
    }
    return out.append(template.substring(Math.min(position, template.length()))).toString();
  }

  private static String leadingDigits(String text, int from, int max) {
    int end = from;
    while (end < text.length() && end - from < max && Character.isDigit(text.charAt(end))) {
      end++;
    }
    return text.substring(from, end);
  }

  /** {@code $split}: the text between the matches, trailing empty strings kept. */
  List<String> split(String text) {
    return new ArrayList<>(Arrays.asList(pattern.split(text, -1)));
  }

  /** The literal, as written: {@code /ab+c/i}. */
  @Override
  public String toString() {
    return literal;
  }
}
