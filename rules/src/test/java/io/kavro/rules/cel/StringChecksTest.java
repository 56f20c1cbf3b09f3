package io.kavro.rules.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.validator.routines.EmailValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Confluent's CEL string checks, one table per function: Confluent's own cases ({@code BuiltinLibraryTest} of
 * {@code schema-rules}) and edge cases, each expectation what Confluent's {@code BuiltinOverload} answers (the
 * Commons Validator routines and JDK parsers it calls, run on the same input).
 */
class StringChecksTest {
  private static final String L63 = "a".repeat(63);

  private static Arguments row(String input, boolean expected) {
    return Arguments.of(input, expected);
  }

  static Stream<Arguments> emails() {
    return Stream.of(
        row("a@b.com", true), row("a.@b.com", false), // Confluent's cases
        row("", false), row("a@b.com.", false), row("a@B.COM", true), row("a@bücher.com", true),
        row("a@localhost", false), // no local domains
        row("a@com", true), // a bare TLD is a domain (allowTld)
        row("a@b.invalidtld", false), row("a@-b.com", false), row("a@b.c_m", false), row("a@.com", false),
        row("a@[127.0.0.1]", true), row("a@[::1]", true), row("a@[IPv6:::1]", false),
        row(" a@b.com", false), row("a@b.com ", false), row("a@b.com\n", false), row("a\n@b.com", false),
        row("\"john doe\"@example.com", true), row("\"a@b\"@c.com", true), row("a@b@c.com", false),
        row("a..b@c.com", false), row("@b.com", false), row("a@", false),
        row("x".repeat(64) + "@b.com", true), row("x".repeat(65) + "@b.com", false));
  }

  static Stream<Arguments> hostnames() {
    return Stream.of(
        row("localhost", true), row("not_a_valid_host_name", false), row("a".repeat(256), false), // Confluent's
        row("", false), row("example.com", true), row("example.com.", true), row("EXAMPLE.COM", true),
        row("example.notatld", false), row("a", true), row("my-host", true), row("1host", true),
        row("-a.com", false), row("a-.com", false), row("a..com", false), row(".a.com", false), row("a.com..", false),
        row(L63, true), row(L63 + "a", false), row("123.com", true), row("1.2.3.4", false),
        row("bücher.de", true), row("xn--bcher-kva.de", true), row("my_host.com", false),
        row(L63 + "." + L63 + "." + L63 + "." + "a".repeat(57) + ".com", true), // 253 characters
        row(L63 + "." + L63 + "." + L63 + "." + "a".repeat(58) + ".com", false)); // 254
  }

  static Stream<Arguments> ipv4s() {
    return Stream.of(
        row("asd", false), row("2001:db8:85a3:0:0:8a2e:370:7334", false), row("127.0.0.1", true), // Confluent's
        row("", false), row("0.0.0.0", true), row("255.255.255.255", true), row("256.0.0.1", false),
        row("01.2.3.4", false), row("1.2.3.04", false), row("000.0.0.0", false), row("1.2.3", false),
        row("1.2.3.4.5", false), row("1.2.3.4.", false), row(" 1.2.3.4", false), row("1.2.3.4\n", false),
        row("\u0661.2.3.4", false));
  }

  static Stream<Arguments> ipv6s() {
    return Stream.of(
        row("asd", false), row("127.0.0.1", false), row("2001:db8:85a3:0:0:8a2e:370:7334", true), // Confluent's
        row("", false), row("::1", true), row("::", true), row("2001:DB8::1", true), row("1::2::3", false),
        row("::ffff:192.168.1.1", true), row("::ffff:01.2.3.4", false), row("1:2:3:4:5:6:1.2.3.4", true),
        row("fe80::1%eth0", true), row("fe80::1%", false), row("2001:db8::/32", true), row("::1/129", false),
        row("1:2:3:4:5:6:7:8:9", false), row("1:2:3:4:5:6:7", false), row("1::2:3:4:5:6:7:8", false),
        row("1:2:3:4:5:6:7::", true), row("12345::", false), row(":1::", false),
        row("-0:0:0:0:0:0:0:0", true)); // Integer.parseInt(group, 16) takes a sign
  }

  static Stream<Arguments> uris() {
    return Stream.of(
        row("12 34", false), row("//example.com", false), row("abc", false), // Confluent's
        row("http://example.org:8080/example.html", true),
        row("", false), row("mailto:a@b.com", true), row("urn:isbn:0451450523", true), row("http://[::1]:80/", true),
        row("HTTP://X", true), row("http://a b", false), row("a:", false), row("1http://x", false),
        row("/abc", false), row("#frag", false));
  }

  static Stream<Arguments> uriRefs() {
    return Stream.of(
        row("http://foo.bar/?baz=qux#quux", true), row("//foo.bar/?baz=qux#quux", true), row("/abc", true),
        row("\\\\WINDOWS\\fileshare", false), // Confluent's
        row("", false), row("abc", true), row("#frag", true), row("?", true), row("12 34", false),
        row("%zz", false), row("a:", false), row("http://a b", false));
  }

  static Stream<Arguments> uuids() {
    return Stream.of(
        row("97cd-6e3d1bc14494", false), row("fa02a430-892f-4160-97cd-6e3d1bc14494", true), // Confluent's
        row("", false), row("FA02A430-892F-4160-97CD-6E3D1BC14494", true),
        row("fa02a430892f416097cd6e3d1bc14494", false), row("{fa02a430-892f-4160-97cd-6e3d1bc14494}", false),
        row("ga02a430-892f-4160-97cd-6e3d1bc14494", false), row("fa02a430-892f-4160-97cd-6e3d1bc144941", false),
        row("1-1-1-1-1", true), row("fa02a430-892f-4160-97cd-6e3d1bc1449", true)); // the JDK's lenient forms
  }

  private static final Map<String, Predicate<String>> CHECKS = Map.of("isEmail", StringChecks::isEmail,
      "isHostname", StringChecks::isHostname, "isIpv4", StringChecks::isIpv4, "isIpv6", StringChecks::isIpv6,
      "isUri", StringChecks::isUri, "isUriRef", StringChecks::isUriRef, "isUuid", StringChecks::isUuid);

  static Stream<Arguments> table() {
    return Stream.of(row("isEmail", emails()), row("isHostname", hostnames()), row("isIpv4", ipv4s()),
        row("isIpv6", ipv6s()), row("isUri", uris()), row("isUriRef", uriRefs()), row("isUuid", uuids()))
        .flatMap(table -> table);
  }

  private static Stream<Arguments> row(String function, Stream<Arguments> rows) {
    return rows.map(row -> Arguments.of(function, row.get()[0], row.get()[1]));
  }

  @ParameterizedTest(name = "''{1}''.{0}() == {2}")
  @MethodSource("table")
  void eachFunction_answersAsConfluents(String function, String input, boolean expected) {
    assertThat(CHECKS.get(function).test(input)).as("'%s'.%s()", input, function).isEqualTo(expected);
  }

  /** The linear split against the regex it replaces, and isEmail against Confluent's call, on random inputs. */
  @Test
  void isEmail_agreesWithCommonsValidatorsRegexAndCheck_onRandomInputs() {
    Pattern regex = Pattern.compile("^(.+)@(\\S+)$");
    EmailValidator confluents = EmailValidator.getInstance(false, true);
    char[] alphabet = {'a', 'b', '@', '@', '.', '.', ' ', '\n', '\r', '\u2028', '\u0085', '"', '[', ']', '1', 'c',
        'o', 'm', '\t', '_'};
    Random random = new Random(51);
    List<String> disagreements = new ArrayList<>();
    for (int n = 0; n < 200_000; n++) {
      char[] chars = new char[1 + random.nextInt(12)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = alphabet[random.nextInt(alphabet.length)];
      }
      String input = new String(chars);
      Matcher matcher = regex.matcher(input);
      int expectedAt = matcher.matches() ? matcher.end(1) : -1;
      if (StringChecks.emailAt(input) != expectedAt || StringChecks.isEmail(input) != confluents.isValid(input)) {
        disagreements.add(input.replace("\n", "\\n").replace("\r", "\\r"));
      }
    }
    for (String input : List.of("a@b.com", "x@y.co.uk", "\"a b\"@c.org", "a@[127.0.0.1]", "a.b@c.com")) {
      if (StringChecks.isEmail(input) != confluents.isValid(input)) {
        disagreements.add(input);
      }
    }
    assertThat(disagreements).isEmpty();
  }

  /** A rule may meet any string: no check backtracks on a long one (Commons Validator's email regex would). */
  @Test
  void everyCheck_isFast_onLongAdversarialInputs() {
    List<String> inputs = List.of("@".repeat(200_000) + " ", "a".repeat(200_000) + "@" + " ".repeat(10),
        "a@".repeat(100_000) + "\n", "a.".repeat(100_000) + "com", "1:".repeat(100_000), "1.".repeat(100_000),
        "a@" + "b".repeat(200_000) + ".com", "\u00e9.".repeat(100_000), "x".repeat(200_000));
    Collection<Predicate<String>> checks = CHECKS.values();
    List<Boolean> answers = new ArrayList<>();
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      for (String input : inputs) {
        for (Predicate<String> check : checks) {
          answers.add(check.test(input));
        }
      }
    });
    assertThat(answers).hasSize(inputs.size() * checks.size());
  }
}
