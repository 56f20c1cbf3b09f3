package io.kavro.rules.cel;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.UUID;
import org.apache.commons.validator.routines.DomainValidator;
import org.apache.commons.validator.routines.EmailValidator;
import org.apache.commons.validator.routines.InetAddressValidator;

/**
 * The string checks of Confluent's CEL library ({@code BuiltinOverload} in {@code schema-rules}), with its semantics:
 * the same Apache Commons Validator routines and JDK parsers, called the same way. An empty string passes none.
 *
 * <ul>
 *   <li>{@code isEmail}: {@code EmailValidator.getInstance(false, true)} (no local domains; a bare TLD accepted as
 *       the domain), whose whole-address regex {@code ^(.+)@(\S+)$} is replaced by an equivalent linear split, as it
 *       backtracks in quadratic time on a long input; its user part (at most 64 characters) and domain checks are
 *       Commons Validator's own;
 *   <li>{@code isHostname}: {@code DomainValidator.getInstance(true)} (IANA's TLD list of the pinned version, or a
 *       single label such as {@code localhost}; at most 253 characters once in punycode) and no {@code _};
 *   <li>{@code isIpv4}, {@code isIpv6}: {@code InetAddressValidator} (dotted quad without leading zeros; IPv6 with
 *       {@code ::}, an IPv4 tail, a {@code %zone} and a {@code /prefix});
 *   <li>{@code isUri}: {@code java.net.URI} parses it and it is absolute (has a scheme); {@code isUriRef}: it parses;
 *   <li>{@code isUuid}: {@code java.util.UUID.fromString} accepts it (either case of hex digits).
 * </ul>
 *
 * <p>Every check is linear in the input's length, or bounded. {@code java.util.regex} (a backtracking engine) runs on
 * the input only inside Commons Validator, and there either on a part it has capped in length first (an email's
 * user part at 64 characters, against its nested {@code USER_REGEX}; a domain at 253 once in punycode, against
 * {@code DOMAIN_NAME_REGEX}) or against a pattern that matches in linear time (an address literal's anchored
 * {@code ^\[(.*)\]$}, the dotted quad's bounded {@code \d{1,3}} groups). Stateless and thread-safe.
 */
final class StringChecks {
  private static final SplitEmailValidator EMAIL = new SplitEmailValidator();
  private static final DomainValidator HOSTNAME = DomainValidator.getInstance(true);
  private static final InetAddressValidator INET = InetAddressValidator.getInstance();

  private StringChecks() {}

  static boolean isEmail(String input) {
    return !input.isEmpty() && EMAIL.isValid(input);
  }

  static boolean isHostname(String input) {
    return !input.isEmpty() && HOSTNAME.isValid(input) && input.indexOf('_') < 0;
  }

  static boolean isIpv4(String input) {
    return !input.isEmpty() && INET.isValidInet4Address(input);
  }

  static boolean isIpv6(String input) {
    return !input.isEmpty() && INET.isValidInet6Address(input);
  }

  static boolean isUri(String input) {
    URI uri = uri(input);
    return uri != null && uri.isAbsolute();
  }

  static boolean isUriRef(String input) {
    return uri(input) != null;
  }

  /** The URI {@code input} is, or null when it is empty or not one. */
  private static URI uri(String input) {
    if (input.isEmpty()) {
      return null;
    }
    try {
      return new URI(input);
    } catch (URISyntaxException e) {
      return null;
    }
  }

  static boolean isUuid(String input) {
    if (input.isEmpty()) {
      return false;
    }
    try {
      UUID.fromString(input);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Where {@code ^(.+)@(\S+)$} splits {@code email} (with {@link java.util.regex.Matcher#matches}): the index of
   * its {@code @}, or -1 when it does not match. The user part {@code (.+)} is greedy, so the {@code @} is the last
   * one that has a user part before it without a line terminator (what {@code .} does not match) and a non-empty
   * domain after it without whitespace (what {@code \S} does not match). One pass and a scan back: linear.
   */
  static int emailAt(String email) {
    int length = email.length();
    int lastSpace = -1;
    int firstLineEnd = length;
    for (int i = 0; i < length; i++) {
      char c = email.charAt(i);
      if (isRegexSpace(c)) {
        lastSpace = i;
      }
      if (firstLineEnd == length && isLineTerminator(c)) {
        firstLineEnd = i;
      }
    }
    for (int at = Math.min(length - 2, firstLineEnd); at > lastSpace && at >= 1; at--) {
      if (email.charAt(at) == '@') {
        return at;
      }
    }
    return -1;
  }

  /** {@code \s} of {@link java.util.regex.Pattern} without flags. */
  private static boolean isRegexSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }

  /** What {@code .} of {@link java.util.regex.Pattern} does not match without flags. */
  private static boolean isLineTerminator(char c) {
    return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }

  /** Commons Validator's email check as Confluent configures it, with {@link #emailAt} for its first regex. */
  private static final class SplitEmailValidator extends EmailValidator {
    private static final long serialVersionUID = 1L;

    SplitEmailValidator() {
      super(false, true, DomainValidator.getInstance(false));
    }

    @Override
    public boolean isValid(String email) {
      if (email == null || email.endsWith(".")) {
        return false;
      }
      int at = emailAt(email);
      return at > 0 && isValidUser(email.substring(0, at)) && isValidDomain(email.substring(at + 1));
    }
  }
}
