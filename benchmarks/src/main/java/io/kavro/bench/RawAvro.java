package io.kavro.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The baseline: plain Apache Avro at its best, with a cached writer and reader, a reused encoder, decoder
 * and buffer, plus the same 5-byte header. Not thread-safe: one per benchmark thread.
 */
public final class RawAvro {
  private final DatumWriter<Object> writer;
  private final DatumReader<Object> reader;
  private final Buffer out = new Buffer();
  private BinaryEncoder encoder;
  private BinaryDecoder decoder;
  private final int id;

  /** An output buffer whose array can be copied out without synchronization. */
  static final class Buffer extends ByteArrayOutputStream {
    Buffer() {
      super(4096);
    }

    byte[] copy() {
      return java.util.Arrays.copyOf(buf, count);
    }
  }

  /**
   * Avro's generic writer and reader. The reader is Avro's fast reader ({@code FastReaderBuilder}, Avro's default
   * since 1.12.1), to which {@code GenericDatumReader} hands every read while its model enables it: a fork that
   * turned it off ({@code -Dorg.apache.avro.fastread=false}) would measure against Avro's slower resolving reader,
   * and is refused.
   */
  public RawAvro(Schema writerSchema, Schema readerSchema, int id) {
    this(new GenericDatumWriter<>(writerSchema), fastReader(writerSchema, readerSchema), id);
  }

  private static DatumReader<Object> fastReader(Schema writerSchema, Schema readerSchema) {
    if (!GenericData.get().isFastReaderEnabled()) {
      throw new IllegalStateException("Avro's fast reader is off (org.apache.avro.fastread=false): the baseline "
          + "would be Avro's old resolving reader");
    }
    return new GenericDatumReader<>(writerSchema, readerSchema, GenericData.get());
  }

  /** Any of Avro's writers and readers: specific, reflect. */
  public RawAvro(DatumWriter<Object> writer, DatumReader<Object> reader, int id) {
    this.writer = writer;
    this.reader = reader;
    this.id = id;
  }

  public byte[] serialize(Object datum) {
    try {
      header(out, id);
      encoder = EncoderFactory.get().binaryEncoder(out, encoder);
      writer.write(datum, encoder);
      encoder.flush();
      return out.copy();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Empties {@code out} and writes the 5-byte header of schema {@code id} into it. */
  static void header(Buffer out, int id) {
    out.reset();
    out.write(0);
    out.write(id >>> 24);
    out.write(id >>> 16);
    out.write(id >>> 8);
    out.write(id);
  }

  public Object deserialize(byte[] payload) {
    try {
      decoder = DecoderFactory.get().binaryDecoder(payload, 5, payload.length - 5, decoder);
      return reader.read(null, decoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
