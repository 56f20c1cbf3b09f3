package io.kavro.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;

/**
 * The benchmark record shapes, from the schemas in {@code shared/bench} (copied to {@code shapes/}).
 *
 * <ul>
 *   <li>S1: one string field; the fixed cost per record.</li>
 *   <li>S2: 81 optional strings, about 1.6 KB.</li>
 *   <li>S3: 18 mixed fields with logical types.</li>
 *   <li>S4: S3 data read with the v2 reader schema: the resolving read.</li>
 * </ul>
 */
public enum Shape {
  S1("s1.avsc", "s1.avsc"),
  S2("s2.avsc", "s2.avsc"),
  S3("s3.avsc", "s3.avsc"),
  S4("s3.avsc", "s4-reader-v2.avsc");

  private final Schema writer;
  private final Schema reader;

  Shape(String writer, String reader) {
    this.writer = load(writer);
    this.reader = writer.equals(reader) ? this.writer : load(reader);
  }

  /** The schema the data is written with. */
  public Schema writer() {
    return writer;
  }

  /** The schema the data is read as; the writer schema except for S4. */
  public Schema reader() {
    return reader;
  }

  private static Schema load(String file) {
    try (InputStream in = Shape.class.getResourceAsStream("/shapes/" + file)) {
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
