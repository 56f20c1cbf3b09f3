package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 40,000 random and mutated payloads, the same each run (a fixed seed), over four deserializers: every one either
 * decodes or fails with a SerializationException subclass. No other exception, no OutOfMemoryError, no hang.
 */
class FuzzTest {
  private static final int PAYLOADS = 40_000;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void randomAndMutatedPayloads_onlySerializationExceptions() {
    Random random = new Random(20261129L);
    try (Serdes serdes = Serdes.withLogicalTypeConverters()) {
      KafkaAvroSerializer serializer = serdes.serializer();
      List<byte[]> valid = new ArrayList<>();
      RandomAvro avro = new RandomAvro(7L);
      for (int i = 0; i < 40; i++) {
        Schema schema = avro.record(3);
        valid.add(serializer.serialize("fuzz-" + i, avro.datum(schema)));
      }
      valid.add(serializer.serialize("customers", DeserializerTest.customer()));
      // The compiled decoders (the default) and Avro's generic reader must fail the same clean way.
      List<KafkaAvroDeserializer> deserializers = List.of(serdes.deserializer(),
          serdes.deserializer("specific.avro.reader", true),
          serdes.deserializer("avro.use.logical.type.converters", false),
          serdes.deserializer("avro.fast.codec", false));

      int decoded = 0;
      int rejected = 0;
      for (int i = 0; i < PAYLOADS; i++) {
        byte[] payload = payload(random, valid);
        KafkaAvroDeserializer deserializer = deserializers.get(i % deserializers.size());
        try {
          if (i % 2 == 0) {
            deserializer.deserialize("fuzz", payload);
          } else {
            deserializer.deserialize("fuzz", null, ByteBuffer.wrap(payload));
          }
          decoded++;
        } catch (SerializationException expected) {
          assertThat(expected.getMessage()).contains("topic 'fuzz'");
          rejected++;
        } catch (Throwable other) {
          fail("payload " + java.util.HexFormat.of().formatHex(payload) + " gave " + other, other);
        }
      }
      assertThat(decoded + rejected).isEqualTo(PAYLOADS);
      assertThat(rejected).isGreaterThan(PAYLOADS / 2);
      assertThat(decoded).isPositive();
    }
  }

  private static byte[] payload(Random random, List<byte[]> valid) {
    byte[] base = valid.get(random.nextInt(valid.size())).clone();
    switch (random.nextInt(7)) {
      case 0 -> {
        byte[] noise = new byte[random.nextInt(40)];
        random.nextBytes(noise);
        return noise;
      }
      case 1 -> {
        int flips = 1 + random.nextInt(4);
        for (int i = 0; i < flips; i++) {
          int at = WireFormat.HEADER_SIZE + random.nextInt(Math.max(1, base.length - WireFormat.HEADER_SIZE));
          if (at < base.length) {
            base[at] ^= (byte) (1 << random.nextInt(8));
          }
        }
        return base;
      }
      case 2 -> {
        return java.util.Arrays.copyOf(base, random.nextInt(base.length + 1));
      }
      case 3 -> {
        byte[] longer = java.util.Arrays.copyOf(base, base.length + 1 + random.nextInt(8));
        return longer;
      }
      case 4 -> {
        // A huge varint (length or count) spliced into the body.
        int at = Math.min(base.length, WireFormat.HEADER_SIZE + random.nextInt(Math.max(1, base.length - 4)));
        byte[] huge = {(byte) 0xfe, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f};
        byte[] spliced = new byte[base.length + huge.length];
        System.arraycopy(base, 0, spliced, 0, at);
        System.arraycopy(huge, 0, spliced, at, huge.length);
        System.arraycopy(base, at, spliced, at + huge.length, base.length - at);
        return spliced;
      }
      case 5 -> {
        // Another schema id in a valid body.
        base[4] = (byte) random.nextInt(50);
        return base;
      }
      default -> {
        int at = random.nextInt(base.length);
        base[at] = (byte) random.nextInt(256);
        return base;
      }
    }
  }
}
