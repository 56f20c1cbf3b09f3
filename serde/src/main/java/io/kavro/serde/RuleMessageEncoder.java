package io.kavro.serde;

import java.io.IOException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;

/**
 * Encodes again a message that data contract rules changed, into a buffer and an encoder held per thread and shared
 * by every serializer and deserializer of the thread. Whatever the write throws (Avro's refusal of a value, a class
 * that fails to link, a stack overflow) drops the thread's buffer and encoder, which may hold the first fields of
 * the failed message, so that the next message is encoded as a fresh encoder would; the failure is thrown as it is.
 * A message encoded while another is on the same thread gets a buffer and encoder of its own, which leave the outer
 * message's as they are. The messages are generic data read back from bytes, so only code that the rules or the
 * application put into them runs while one is encoded: a rule executor that returns records, strings or maps of its
 * own classes, or a conversion added to Avro's {@code GenericData.get()}.
 */
final class RuleMessageEncoder {
  private static final ThreadLocal<RuleMessageEncoder> PER_THREAD = ThreadLocal.withInitial(RuleMessageEncoder::new);

  private final ByteSink sink = new ByteSink();
  private BinaryEncoder encoder;
  /** Set while a message of this thread is encoded into {@link #sink}. */
  private boolean encoding;

  private RuleMessageEncoder() {}

  /** The Avro binary encoding of {@code message} by {@code writer}. */
  static byte[] encode(DatumWriter<Object> writer, Object message) throws IOException {
    RuleMessageEncoder held = PER_THREAD.get();
    if (held.encoding) {
      held = new RuleMessageEncoder();
    }
    held.sink.reset();
    held.encoding = true;
    try {
      held.encoder = EncoderFactory.get().binaryEncoder(held.sink, held.encoder);
      writer.write(message, held.encoder);
      held.encoder.flush();
      return held.sink.toByteArray();
    } catch (Throwable e) {
      PER_THREAD.remove();
      throw e;
    } finally {
      held.encoding = false;
    }
  }
}
