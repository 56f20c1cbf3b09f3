package io.kavro.schematools;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.kavro.registry.config.RegistryConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;

/**
 * Schema files ({@code .avsc}) as Kavro's tools read them, the console tool and the Maven plugin alike, and their
 * errors: one line that names the file and what is wrong, and never quotes the file (which may be a token or
 * {@code /etc/shadow} given by mistake). A file that is not JSON is named with the line and column where it stops
 * being JSON and Jackson's reason; a file that is JSON but not a schema with Avro's reason. Each reason is whole
 * (Avro's "Undefined schema: com.acme.Address" names the type), but for what it quotes of the file: a token of two
 * characters or more that Jackson quotes, and a JSON object or array Avro quotes, are left out.
 */
public final class SchemaFiles {
  /** Jackson's description of its input, which may quote it, and where in it the parser was. */
  private static final Pattern SOURCE = Pattern.compile("\\[Source: (?s).*; line: (\\d+), column: (\\d+)\\]");

  /**
   * What Jackson puts in quotes, pair by pair: the apostrophe, which it quotes as {@code '''}, or any other text.
   * Taken in pairs, the closing quote of a one-character quote ({@code 'x': was expecting}) never opens the next.
   */
  private static final Pattern QUOTED = Pattern.compile("'''|'[^'\\n]*'");

  /** The longest quote kept, quotes included: one character ({@code '}'}, {@code 'x'}) says where, not what. */
  private static final int KEPT_QUOTE = 3;

  /** What Jackson quotes of its own words, not of the input. */
  private static final Set<String> KEYWORDS = Set.of("'null'", "'true'", "'false'", "'NaN'");

  /** Finds where the JSON that Avro quotes ends. */
  private static final JsonFactory JSON = new JsonFactory();

  private SchemaFiles() {}

  /**
   * The text of a schema file.
   *
   * @param what how the caller names the file ({@code --schema x.avsc}, {@code subject orders-value: x.avsc})
   * @param file the file
   * @return its text
   * @throws SchemaFileException naming {@code what} when the file cannot be read
   */
  public static String read(String what, Path file) {
    try {
      return Files.readString(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new SchemaFileException(file, "cannot read " + what + ": no such file");
    } catch (java.nio.file.AccessDeniedException e) {
      throw new SchemaFileException(file, "cannot read " + what + ": permission denied");
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new SchemaFileException(file, "cannot read " + what + ": not UTF-8 text");
    } catch (java.nio.file.FileSystemException e) {
      throw new SchemaFileException(file, "cannot read " + what + ": " + (e.getReason() != null ? e.getReason()
          : e.getClass().getSimpleName()));
    } catch (IOException e) {
      throw new SchemaFileException(file, "cannot read " + what + ": " + e.getClass().getSimpleName()
          + reason(e.getMessage()));
    }
  }

  /**
   * The schema in {@code text}, read from {@code what} (an option and its file).
   *
   * @param parser the parser, with the types the text may use already known to it
   * @param what how the caller names the file
   * @param text the file's text
   * @return the schema
   * @throws SchemaFileException "{@code what} is not JSON (line L, column C)" or "{@code what} is not an Avro
   *     schema: REASON"
   */
  public static Schema parse(Schema.Parser parser, String what, String text) {
    try {
      return parser.parse(text);
    } catch (RuntimeException e) {
      throw new SchemaFileException(what + problem(e));
    }
  }

  /**
   * What is wrong with a file whose parsing threw {@code e}, without the file's text: " is not JSON (line 1,
   * column 5): Unrecognized token '…': was expecting (...)", or " is not an Avro schema: Undefined schema:
   * com.acme.Address".
   *
   * @param e what parsing threw
   * @return the words to put after the file's name, starting with a space
   */
  public static String problem(Exception e) {
    Optional<JsonProcessingException> json = Causes.find(e, JsonProcessingException.class);
    if (json.isPresent()) {
      JsonLocation at = json.get().getLocation();
      return " is not JSON" + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
          + why(json.get());
    }
    String reason = avroReason(e.getMessage());
    return " is not an Avro schema" + (reason.isEmpty() ? " (" + e.getClass().getSimpleName() + ")" : reason);
  }

  /**
   * Why a JSON text is not JSON, in the JSON parser's whole words but for what it quotes of the text (a token of a
   * file given by mistake may be a secret): ": Unrecognized token '…': was expecting (JSON String, ...)".
   *
   * @param e what the JSON parser threw
   * @return ": " and the reason, or an empty string when there is none
   */
  public static String why(Exception e) {
    if (!(e instanceof JsonProcessingException json)) {
      return reason(e.getMessage());
    }
    String message = json.getOriginalMessage();
    if (message == null) {
      return "";
    }
    // Where the parser was is said by the caller; its source description may quote the text.
    message = SOURCE.matcher(message).replaceAll("[line: $1, column: $2]");
    message = QUOTED.matcher(message).replaceAll(quote -> quote.group().length() <= KEPT_QUOTE
        || KEYWORDS.contains(quote.group()) ? Matcher.quoteReplacement(quote.group()) : "'\u2026'");
    return reason(message);
  }

  /**
   * ": " and Avro's message, whole, on one line, but for what it quotes of a file as JSON: each JSON object or array
   * in it is "{...}" or "[...]", and one that ends the message after a colon is left out with the colon ({@code No type:
   * {"password": ...}} is "No type"), for a file given by mistake may hold a secret.
   */
  private static String avroReason(String message) {
    if (message == null) {
      return "";
    }
    return reason(withoutJson(message).replaceFirst(":\\s*(\\{\\.\\.\\.}|\\[\\.\\.\\.])\\s*$", ""));
  }

  /** ": " and a message, whole, on one line, its URLs without user info; or "" when there is none. */
  private static String reason(String message) {
    if (message == null) {
      return "";
    }
    String text = RegistryConfig.redactUrls(message.replaceAll("\\s+", " ").strip());
    return text.isEmpty() ? "" : ": " + text;
  }

  /** {@code text} with each balanced {@code {...}} and {@code [...]} (strings in them skipped) as "{...}", "[...]". */
  private static String withoutJson(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      int end = (c == '{' || c == '[') ? endOfJson(text, i) : -1;
      if (end < 0) {
        out.append(c);
        i++;
      } else {
        out.append(c == '{' ? "{...}" : "[...]");
        i = end + 1;
      }
    }
    return out.toString();
  }

  /** Where the JSON object or array that starts at {@code start} ends, or -1 when it is no JSON that ends. */
  private static int endOfJson(String text, int start) {
    try (JsonParser parser = JSON.createParser(text.substring(start))) {
      parser.nextToken();
      parser.skipChildren();
      return start + (int) parser.currentLocation().getCharOffset() - 1;
    } catch (IOException e) {
      return -1;
    }
  }
}
