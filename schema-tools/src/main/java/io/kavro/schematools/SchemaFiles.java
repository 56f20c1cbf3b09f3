package io.kavro.schematools;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Schema files ({@code .avsc}) as Kavro's tools read them, the console tool and the Maven plugin alike, and their
 * errors: one line that names the file and what is wrong, and never quotes the file (which may be a token or
 * {@code /etc/shadow} given by mistake). A file that is not JSON is named with the line and column where it stops
 * being JSON and Jackson's reason; a file that is JSON but not a schema with Avro's reason; each reason cut before
 * the text it quotes.
 */
public final class SchemaFiles {
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
   * column 5): Unrecognized token", or " is not an Avro schema: No type".
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
    String reason = reason(e.getMessage());
    return " is not an Avro schema" + (reason.isEmpty() ? " (" + e.getClass().getSimpleName() + ")" : reason);
  }

  /**
   * Why a JSON text is not JSON, without what the parser quotes of it: ": Unexpected end-of-input".
   *
   * @param e what the JSON parser threw
   * @return ": " and the reason, or an empty string when there is none
   */
  public static String why(Exception e) {
    return reason(e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage());
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
