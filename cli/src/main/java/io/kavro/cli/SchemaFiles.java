package io.kavro.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Schema files as the commands read them ({@code --schema}, {@code --value-schema}, {@code --key-schema},
 * {@code value.schema.file}, the files of {@code --imports}), and their errors: one line that names the file and
 * what is wrong, and never quotes the file (which may be a token or {@code /etc/shadow} given by mistake). A
 * file that is not JSON is named with the line and column where it stops being JSON and Jackson's reason; a file
 * that is JSON but not a schema with Avro's reason; each reason cut before the text it quotes.
 */
final class SchemaFiles {
  private SchemaFiles() {}

  /**
   * The text of a schema file.
   *
   * @throws CliException (usage, 2) naming {@code what} and the file when it cannot be read
   */
  static String read(String what, Path file) {
    try {
      return Files.readString(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new CliException("cannot read " + what + ": no such file", 2);
    } catch (java.nio.file.AccessDeniedException e) {
      throw new CliException("cannot read " + what + ": permission denied", 2);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new CliException("cannot read " + what + ": not UTF-8 text", 2);
    } catch (java.nio.file.FileSystemException e) {
      throw new CliException("cannot read " + what + ": " + (e.getReason() != null ? e.getReason()
          : e.getClass().getSimpleName()), 2);
    } catch (IOException e) {
      throw new CliException("cannot read " + what + ": " + e.getClass().getSimpleName() + reason(e.getMessage()), 2);
    }
  }

  /**
   * The schema in {@code text}, read from {@code what} (an option and its file).
   *
   * @throws CliException (usage, 2) "{@code what} is not JSON (line L, column C)" or "{@code what} is not an
   *     Avro schema: REASON"
   */
  static Schema parse(Schema.Parser parser, String what, String text) {
    try {
      return parser.parse(text);
    } catch (RuntimeException e) {
      throw new CliException(what + problem(e), 2);
    }
  }

  /** What is wrong with a file whose parsing threw {@code e}, without the file's text: " is not JSON (...)". */
  static String problem(Exception e) {
    Optional<JsonProcessingException> json = Causes.find(e, JsonProcessingException.class);
    if (json.isPresent()) {
      return " is not JSON" + where(json.get());
    }
    String reason = reason(e.getMessage());
    return " is not an Avro schema" + (reason.isEmpty() ? " (" + e.getClass().getSimpleName() + ")" : reason);
  }

  /**
   * Where a JSON text stops being JSON, " (line L, column C)", and why, without what Jackson quotes of it (its
   * tokens, its source): ": Unrecognized token".
   */
  static String where(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    return (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")") + why(e);
  }

  /** Why a JSON text is not JSON, without what Jackson quotes of it: ": Unexpected end-of-input". */
  static String why(JsonProcessingException e) {
    return reason(e.getOriginalMessage());
  }

  /**
   * ": " and the start of a message, up to the first colon, quote or line end: Avro and the JDK put what they
   * quote from the input after them ({@code No type: {...}}, {@code Undefined name: "x"}).
   */
  private static String reason(String message) {
    if (message == null) {
      return "";
    }
    int end = message.length();
    for (char stop : new char[] {':', '"', '\'', '\n', '\r', '{', '['}) {
      int at = message.indexOf(stop);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    String start = message.substring(0, end).strip();
    return start.isEmpty() ? "" : ": " + start;
  }
}
