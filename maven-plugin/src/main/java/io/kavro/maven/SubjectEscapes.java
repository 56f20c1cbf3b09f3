package io.kavro.maven;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Subject names written as XML element names, as Confluent's plugin writes them: a name is an element of
 * {@code <subjects>}, and what an element name cannot hold is URL-encoded with {@code _x} for {@code %}
 * ({@code my_x2Fsubject} is {@code my/subject}, {@code _x3A} a colon). The same escaping makes file names of
 * subjects in {@code download}.
 *
 * <p>A name never becomes a subject that holds U+FFFD, the character that stands for bytes that are not UTF-8: an
 * escape whose bytes are not UTF-8 ({@code acct_xfer-value}: {@code _xfe}) names no subject, and is refused with the
 * element's name rather than sent as {@code acct\uFFFDr-value}.
 */
final class SubjectEscapes {
  /** The replacement character, which no subject name is taken to hold. */
  private static final char REPLACEMENT = '\uFFFD';

  private SubjectEscapes() {}

  /**
   * The subject an element name stands for: decoded ({@link #decode}) when {@code decode}, else as written.
   *
   * @throws IllegalArgumentException naming the element when an escape is not UTF-8, or the subject would hold
   *     U+FFFD
   */
  static String subject(String element, boolean decode) {
    String subject = decode ? decode(element) : element;
    if (subject.indexOf(REPLACEMENT) >= 0) {
      throw new IllegalArgumentException("element <" + element + "> names a subject holding U+FFFD, the "
          + "replacement character that stands for bytes that are not text; no subject was acted on");
    }
    return subject;
  }

  /**
   * The subject an element name stands for: each {@code _x} and two hex digits read as the byte {@code %} and
   * those digits stand for in URL encoding, runs of such bytes read as UTF-8; every other character as it is, a
   * {@code +} too (URL decoding would read it as a space; a space is {@code _x20}), and an {@code _x} that two hex
   * digits do not follow ({@code tax_xml}).
   *
   * @throws IllegalArgumentException naming the element and the escapes when their bytes are not UTF-8
   */
  static String decode(String element) {
    if (!element.contains("_x")) {
      return element;
    }
    StringBuilder decoded = new StringBuilder(element.length());
    int i = 0;
    while (i < element.length()) {
      int start = i;
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      while (isEscape(element, i)) {
        bytes.write(Integer.parseInt(element.substring(i + 2, i + 4), 16));
        i += 4;
      }
      if (bytes.size() > 0) {
        decoded.append(utf8(element, element.substring(start, i), bytes.toByteArray()));
      } else {
        decoded.append(element.charAt(i));
        i++;
      }
    }
    return decoded.toString();
  }

  private static boolean isEscape(String element, int at) {
    return element.startsWith("_x", at) && at + 4 <= element.length() && hex(element.charAt(at + 2))
        && hex(element.charAt(at + 3));
  }

  private static boolean hex(char c) {
    return Character.digit(c, 16) >= 0 && c < 128;
  }

  private static String utf8(String element, String escapes, byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("element <" + element + ">: its escape " + escapes + " (the bytes "
          + "URL-encoded as %" + escapes.substring(2).replace("_x", "%") + ") is no UTF-8 text, so the element "
          + "names no subject and none was acted on: write the subject's name URL-encoded with _x for %, or give "
          + "<decodeSubject>false</decodeSubject> to take element names as written");
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
