package io.kavro.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The many-schemas baseline as a hand-tuned application holds it: raw Avro's generic writer and reader of each
 * schema built beforehand and handed directly (by position, no map lookup, no id read), and one encoder, decoder
 * and output buffer for all, as one thread reuses them; plus the same 5-byte header. Not thread-safe.
 */
final class RawPerSchema {
  private GenericDatumWriter<Object>[] writers = newWriters(16);
  private GenericDatumReader<Object>[] readers = newReaders(16);
  private int[] ids = new int[16];
  private int size;
  private final RawAvro.Buffer out = new RawAvro.Buffer();
  private BinaryEncoder encoder;
  private BinaryDecoder decoder;

  /** Adds the writer and reader of {@code schema}, written under {@code id}, at the next position. */
  void add(Schema schema, int id) {
    if (size == ids.length) {
      writers = Arrays.copyOf(writers, size * 2);
      readers = Arrays.copyOf(readers, size * 2);
      ids = Arrays.copyOf(ids, size * 2);
    }
    writers[size] = new GenericDatumWriter<>(schema);
    readers[size] = new GenericDatumReader<>(schema, schema);
    ids[size] = id;
    size++;
  }

  byte[] serialize(int position, Object datum) {
    try {
      RawAvro.header(out, ids[position]);
      encoder = EncoderFactory.get().binaryEncoder(out, encoder);
      writers[position].write(datum, encoder);
      encoder.flush();
      return out.copy();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Object deserialize(int position, byte[] payload) {
    try {
      decoder = DecoderFactory.get().binaryDecoder(payload, 5, payload.length - 5, decoder);
      return readers[position].read(null, decoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static GenericDatumWriter<Object>[] newWriters(int length) {
    return new GenericDatumWriter[length];
  }

  @SuppressWarnings("unchecked")
  private static GenericDatumReader<Object>[] newReaders(int length) {
    return new GenericDatumReader[length];
  }
}
