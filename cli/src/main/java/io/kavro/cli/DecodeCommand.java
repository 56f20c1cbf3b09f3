package io.kavro.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.serde.AvroValue;
import io.kavro.serde.KafkaAvroDeserializer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kavro decode}: one framed payload (a poison pill pasted into a ticket), given as hex, Base64 or a
 * file, decoded with its writer schema from the registry and printed as JSON with its schema id.
 */
@Command(name = "decode", mixinStandardHelpOptions = true,
    description = "Decode one framed payload (hex, Base64 or a file) and print it as JSON.")
final class DecodeCommand implements Callable<Integer> {
  @Mixin
  ClientOptions client;

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Payload payload;

  /** Where the payload is. */
  static final class Payload {
    @Option(names = "--hex", paramLabel = "HEX", description = "The payload in hex (spaces, colons and a 0x "
        + "prefix allowed), as consume prints it in an error line's \"payload\".")
    String hex;

    @Option(names = "--base64", paramLabel = "BASE64", description = "The payload in Base64.")
    String base64;

    @Option(names = "--file", paramLabel = "FILE", description = "A file holding the payload's bytes.")
    Path file;
  }

  @Mixin
  FormatOption format;

  @Option(names = "--topic", defaultValue = "kavro-decode", description = "Topic named in messages.")
  String topic;

  @Override
  public Integer call() {
    JsonLines.Format rendering = format.rendering();
    byte[] bytes = bytes();
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(client.config(), false);
      AvroValue value = deserializer.deserializeWithSchema(topic, ByteBuffer.wrap(bytes));
      ObjectNode line = JsonLines.MAPPER.createObjectNode();
      JsonLines.putSchemaKey(line, "", value);
      line.put("schema", value.schema().getFullName());
      line.set("value", JsonLines.datum(value.datum(), value.schema(), rendering));
      spec.commandLine().getOut().println(JsonLines.line(line));
    }
    return 0;
  }

  private byte[] bytes() {
    try {
      if (payload.hex != null) {
        String hex = payload.hex.replaceAll("[\\s:]", "");
        return HexFormat.of().parseHex(hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex);
      }
      if (payload.base64 != null) {
        return Base64.getDecoder().decode(payload.base64.trim());
      }
      return Files.readAllBytes(payload.file);
    } catch (IllegalArgumentException e) {
      throw new CliException("not a valid payload: " + e.getMessage(), 2);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new CliException("cannot read --file " + payload.file + ": no such file", 2);
    } catch (IOException e) {
      throw new CliException("cannot read --file " + payload.file + ": " + e, 2);
    }
  }
}
