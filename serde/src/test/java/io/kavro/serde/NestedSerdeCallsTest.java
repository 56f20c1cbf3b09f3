package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A serializer or deserializer called again on the same thread while it writes or reads a record: a value's own code
 * (a Java record's accessor or constructor) serializing or deserializing with the same instance, on Kavro's codecs.
 * Each call is its own record: the outer one is framed with its own schema id and holds its own fields, read from
 * its own bytes; and once both are done, a record costs what it did before (the thread's buffers serve it again).
 * With the codecs off, a Java record's body is decoded whole, generically, before its constructors run, so what a
 * constructor reads cannot move the outer read within its bytes.
 */
class NestedSerdeCallsTest {
  /** What {@link Envelope#inner()} returns instead of its component while set (on this thread). */
  private static final ThreadLocal<Supplier<byte[]>> INNER = new ThreadLocal<>();
  /** What {@link Part}'s constructor runs while set (on this thread). */
  private static final ThreadLocal<Runnable> ON_PART = new ThreadLocal<>();

  private final Serdes serdes = new Serdes();

  /** The record serialized inside another's write, or deserialized inside another's read. */
  public record Other(String word, long count) {}

  /** A record whose {@code inner} accessor may serialize an {@link Other} as it is written. */
  public record Envelope(String id, byte[] inner, String trailer) {
    /** {@link #INNER}'s bytes while it is set, else the component. */
    @Override
    public byte[] inner() {
      Supplier<byte[]> nested = INNER.get();
      return nested == null ? inner : nested.get();
    }
  }

  /** A record whose constructor may run {@link #ON_PART}: read in the middle of a {@link Whole}. */
  public record Part(long n, String text) {
    /** Runs {@link #ON_PART} if set. */
    public Part {
      Runnable hook = ON_PART.get();
      if (hook != null) {
        hook.run();
      }
    }
  }

  /** A record with a field after the {@link Part} whose constructor may deserialize. */
  public record Whole(String id, Part part, String trailer) {}

  @AfterEach
  void close() {
    INNER.remove();
    ON_PART.remove();
    serdes.close();
  }

  @Test
  void serializeInsideAWrite_bothRecordsKeepTheirSchemaIdsAndFields() {
    KafkaAvroSerializer serializer = serdes.serializer("schema.reflection", true);
    byte[][] nested = new byte[1][];
    INNER.set(() -> nested[0] = serializer.serialize("others", new Other("nested", 42)));

    byte[] outer = serializer.serialize("envelopes", new Envelope("e-1", null, "the end"));
    INNER.remove();

    KafkaAvroDeserializer generic = serdes.deserializer();
    GenericRecord envelope = (GenericRecord) generic.deserialize("envelopes", outer);
    assertThat(envelope.getSchema().getName()).isEqualTo("Envelope");
    assertThat(envelope.get("id")).hasToString("e-1");
    assertThat(envelope.get("trailer")).hasToString("the end");
    ByteBuffer inner = (ByteBuffer) envelope.get("inner");
    byte[] innerBytes = new byte[inner.remaining()];
    inner.get(innerBytes);
    assertThat(innerBytes).isEqualTo(nested[0]);
    GenericRecord other = (GenericRecord) generic.deserialize("others", nested[0]);
    assertThat(other.getSchema().getName()).isEqualTo("Other");
    assertThat(other.get("word")).hasToString("nested");
    assertThat(other.get("count")).isEqualTo(42L);
  }

  /**
   * The same through a caller's {@link DatumEncoder} (the Connect converter's path): an encoder that serializes
   * another value with the same serializer halfway through its own body.
   */
  @Test
  void serializeInsideACallersEncoder_bothRecordsKeepTheirSchemaIdsAndFields() {
    Schema pair = new Schema.Parser().parse("""
        {"type":"record","name":"Pair","fields":[{"name":"first","type":"string"},
         {"name":"second","type":"string"}]}""");
    Schema single = new Schema.Parser().parse("""
        {"type":"record","name":"Single","fields":[{"name":"word","type":"string"}]}""");
    KafkaAvroSerializer serializer = serdes.serializer();
    byte[][] nested = new byte[1][];
    DatumEncoder inner = (datum, out) -> out.writeString((String) datum);

    byte[] outer = serializer.serialize("pairs", new RecordHeaders(), "outer", pair, (datum, out) -> {
      out.writeString("the first");
      nested[0] = serializer.serialize("singles", new RecordHeaders(), "nested", single, inner);
      out.writeString("the second");
    });

    KafkaAvroDeserializer generic = serdes.deserializer();
    GenericRecord read = (GenericRecord) generic.deserialize("pairs", outer);
    assertThat(read.getSchema().getName()).isEqualTo("Pair");
    assertThat(read.get("first")).hasToString("the first");
    assertThat(read.get("second")).hasToString("the second");
    GenericRecord other = (GenericRecord) generic.deserialize("singles", nested[0]);
    assertThat(other.getSchema().getName()).isEqualTo("Single");
    assertThat(other.get("word")).hasToString("nested");
  }

  /** After nested calls, one that failed among them, a record allocates only its output: the thread's buffers serve. */
  @Test
  void afterNestedWrites_theThreadsBuffersServeAgain() {
    KafkaAvroSerializer serializer = serdes.serializer("schema.reflection", true);
    Envelope plain = new Envelope("e-2", new byte[] {7}, "t");
    INNER.set(() -> serializer.serialize("others", new Other("nested", 1)));
    serializer.serialize("envelopes", plain);
    INNER.set(() -> serializer.serialize("others", new Other(null, 1))); // refused: a null string
    assertThatThrownBy(() -> serializer.serialize("envelopes", plain)).isInstanceOf(SerializationException.class);
    INNER.remove();

    int size = serializer.serialize("envelopes", plain).length;
    // Fresh buffers would be two 1 KB arrays a record.
    assertThat(allocatedBy(() -> serializer.serialize("envelopes", plain))).as("only the output, %d bytes", size)
        .isLessThan(size + 64);
  }

  @ParameterizedTest
  @CsvSource({"false", "true"})
  void deserializeInsideARead_bothRecordsReadFromTheirOwnBytes(boolean direct) {
    KafkaAvroSerializer serializer = serdes.serializer("schema.reflection", true);
    Whole whole = new Whole("w-1", new Part(5, "five"), "the trailer");
    byte[] outer = serializer.serialize("wholes", whole);
    // Longer than the outer payload up to the end of its Part and no longer than all of it: copied where the outer
    // payload's copy is held, it would overwrite the bytes the outer read has yet to read.
    Other other = new Other("a longer word", 3);
    byte[] inner = serializer.serialize("others", other);
    assertThat(inner.length).isBetween(5 + 4 + 1 + 5 + 1, outer.length);
    KafkaAvroDeserializer deserializer = serdes.deserializer("schema.reflection", true);
    Object[] nested = new Object[1];
    ON_PART.set(() -> {
      ON_PART.remove(); // once: the nested record has no Part
      nested[0] = deserializer.deserialize("others", new RecordHeaders(), buffer(inner, direct));
    });

    Object read = deserializer.deserialize("wholes", new RecordHeaders(), buffer(outer, direct));

    assertThat(nested[0]).isEqualTo(other);
    assertThat(read).isEqualTo(whole);
    assertThat(deserializer.deserialize("wholes", new RecordHeaders(), buffer(outer, direct))).isEqualTo(whole);
  }

  /**
   * After a nested read, a direct payload allocates what a heap one does, no copy of its own: the thread's copy
   * serves it again (the direct buffer's duplicate is 8 bytes larger than a heap buffer's).
   */
  @Test
  void afterANestedRead_theThreadsDecoderAndCopyServeAgain() {
    KafkaAvroSerializer serializer = serdes.serializer("schema.reflection", true);
    byte[] outer = serializer.serialize("wholes", new Whole("w-1", new Part(5, "five"), "the trailer"));
    byte[] inner = serializer.serialize("others", new Other("a longer word", 3));
    KafkaAvroDeserializer deserializer = serdes.deserializer("schema.reflection", true);
    ByteBuffer heap = buffer(outer, false);
    ByteBuffer direct = buffer(outer, true);
    ON_PART.set(() -> {
      ON_PART.remove();
      deserializer.deserialize("others", new RecordHeaders(), buffer(inner, true));
    });
    deserializer.deserialize("wholes", new RecordHeaders(), direct.duplicate());

    long onHeap = allocatedBy(() -> deserializer.deserialize("wholes", new RecordHeaders(), heap.duplicate()));
    // A copy of its own would be 27 bytes and an array's header more.
    assertThat(allocatedBy(() -> deserializer.deserialize("wholes", new RecordHeaders(), direct.duplicate())))
        .isLessThanOrEqualTo(onHeap + 16);
  }

  /**
   * Rules that change a message encode it again through one buffer per thread; a message encoded while another is
   * (code that a rule executor or the application put into the message) leaves the outer message's bytes as they
   * are, and the next message is encoded into the thread's buffer again.
   */
  @Test
  void ruleMessageEncodedInsideAnother_eachHasItsOwnBytes() throws IOException {
    DatumWriter<Object> text = new GenericDatumWriter<>(Schema.create(Schema.Type.STRING));
    byte[][] nested = new byte[1][];
    DatumWriter<Object> outer = new DatumWriter<>() {
      @Override
      public void setSchema(Schema schema) {}

      @Override
      public void write(Object datum, Encoder out) throws IOException {
        out.writeString("before");
        nested[0] = RuleMessageEncoder.encode(text, "nested");
        out.writeString("after");
      }
    };

    byte[] bytes = RuleMessageEncoder.encode(outer, null);

    assertThat(bytes).isEqualTo(concat(AvroBytes.written(text, "before"), AvroBytes.written(text, "after")));
    assertThat(nested[0]).isEqualTo(AvroBytes.written(text, "nested"));
    assertThat(RuleMessageEncoder.encode(text, "next")).isEqualTo(AvroBytes.written(text, "next"));
    assertThat(allocatedBy(() -> encode(text, "next"))).as("less than a fresh encoder's 1 KB buffer")
        .isLessThan(1024);
  }

  private static byte[] encode(DatumWriter<Object> writer, Object message) {
    try {
      return RuleMessageEncoder.encode(writer, message);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The fewest bytes one of 2,000 runs of {@code call} allocated on this thread, after 2,000 to warm up. */
  private static long allocatedBy(Runnable call) {
    return Allocations.leastPerCall(call, 2_000, 2_000, 1);
  }

  private static ByteBuffer buffer(byte[] bytes, boolean direct) {
    if (!direct) {
      return ByteBuffer.wrap(bytes);
    }
    ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length);
    buffer.put(bytes).flip();
    return buffer;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
