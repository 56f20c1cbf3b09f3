package io.kavro.maven;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code derive-schema}: Avro schemas for the JSON messages of a file, one message a line, written as Confluent's
 * goal of that name writes them ({@link DerivedSchemas}): the same parameters, the same document, the same schemas.
 * Blank lines are skipped. A line that is not one JSON object fails the goal naming the line, as a message that no
 * Avro type fits does; {@code schemaType} JSON or PROTOBUF fails it, Kavro being Avro's only.
 */
@Mojo(name = "derive-schema", threadSafe = true)
public final class DeriveSchemaMojo extends KavroMojo {
  /** Confluent's reader: NaN and Infinity are numbers (doubles). */
  private static final ObjectMapper MESSAGES = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  /** The file of messages: one JSON object a line, UTF-8. */
  @Parameter(required = true)
  File messagePath;

  /** The file written: {@code {"schemas": [{"schema": ..., "messagesMatched": [...]}]}}. */
  @Parameter(required = true)
  File outputPath;

  /** {@code AVRO}, in any case; Confluent's {@code JSON} and {@code PROTOBUF} fail the goal. */
  @Parameter(defaultValue = "AVRO")
  String schemaType;

  @Override
  void run() throws MojoExecutionException {
    checkSchemaType(schemaType);
    Path in = path(messagePath);
    Path out = path(outputPath);
    Path base = basedir.toPath();
    List<String> lines;
    try {
      lines = Files.readAllLines(in, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("messagePath " + shown(base, in) + " cannot be read: " + e, e);
    }
    List<ObjectNode> messages = new ArrayList<>();
    List<Integer> lineNumbers = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).isBlank()) {
        messages.add(message(lines.get(i), i + 1, shown(base, in)));
        lineNumbers.add(i + 1);
      }
    }
    if (messages.isEmpty()) {
      getLog().warn("messagePath " + shown(base, in) + " holds no message: no schema derived");
    }
    ObjectNode document;
    try {
      document = DerivedSchemas.derive(messages, lineNumbers);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(shown(base, in) + ": " + e.getMessage(), e);
    }
    try {
      if (out.getParent() != null) {
        Files.createDirectories(out.getParent());
      }
      Files.writeString(out, document.toPrettyString(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("outputPath " + shown(base, out) + " cannot be written: " + e, e);
    }
    getLog().info(document.get("schemas").size() + " schema(s) derived from " + messages.size()
        + " message(s) of " + shown(base, in) + " into " + shown(base, out));
  }

  /** A line's message: one JSON object, or the goal fails naming the line. */
  private static ObjectNode message(String line, int number, Path file) throws MojoExecutionException {
    String where = "Message on line " + number + " of " + file;
    JsonNode message;
    try {
      message = MESSAGES.readTree(line);
    } catch (JsonProcessingException e) {
      throw new MojoExecutionException(where + " is an invalid JSON message: " + e.getOriginalMessage(), e);
    }
    if (!(message instanceof ObjectNode object)) {
      throw new MojoExecutionException(where + " is an invalid JSON message: a JSON " + kind(message)
          + ", where each line must be one JSON object");
    }
    return object;
  }

  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "array";
      case STRING -> "string";
      case NUMBER -> "number";
      case BOOLEAN -> "boolean";
      default -> "null";
    };
  }

  /** Kavro derives Avro schemas only: Confluent's other types are refused by name. */
  static void checkSchemaType(String schemaType) throws MojoExecutionException {
    String type = schemaType == null ? "AVRO" : schemaType.strip().toUpperCase(Locale.ROOT);
    switch (type) {
      case "AVRO" -> { }
      case "JSON", "PROTOBUF" -> throw new MojoExecutionException("schemaType " + schemaType + " is not supported:"
          + " Kavro derives Avro schemas only (Confluent's plugin also derives JSON and PROTOBUF); remove"
          + " <schemaType> or set it to AVRO");
      default -> throw new MojoExecutionException("schemaType " + schemaType + " is none of AVRO, JSON, PROTOBUF;"
          + " Kavro derives AVRO only");
    }
  }
}
