package io.kavro.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;

/** Reads the examples' {@code .avsc} files from the class path. */
public final class AvroFiles {
  private AvroFiles() {}

  /** Parses {@code resource}, such as {@code avro/user-v1.avsc}. */
  public static Schema load(String resource) {
    try (InputStream in = AvroFiles.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no " + resource + " on the class path");
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
