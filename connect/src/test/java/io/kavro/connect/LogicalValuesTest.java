package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: the converter maps Connect's logical values itself (no Calendar per date, the scale parsed once), and
 * gives exactly what Kafka's own {@code fromLogical} gives, or its exception, for random values that are valid and
 * values that are not (times of day on a date, dates on a time, other scales, negative instants).
 */
class LogicalValuesTest {
  private static final long DAY = 86_400_000L;
  private final ConnectToAvro mapping = new ConnectToAvro(new ConverterConfig(Map.of()));
  private final Random random = new Random(26);

  @Test
  void dates() {
    Schema schema = Date.SCHEMA;
    for (int i = 0; i < 5_000; i++) {
      long millis = random.nextBoolean() ? (random.nextInt(200_000) - 100_000) * DAY
          : random.nextLong() % (100_000 * DAY);
      java.util.Date value = new java.util.Date(millis);
      same(schema, value, v -> Date.fromLogical(schema, v));
    }
  }

  @Test
  void times() {
    Schema schema = Time.SCHEMA;
    long[] edges = {0, 1, DAY - 1, DAY, DAY + 1, -1, -DAY};
    for (long millis : edges) {
      java.util.Date value = new java.util.Date(millis);
      same(schema, value, v -> Time.fromLogical(schema, v));
    }
    for (int i = 0; i < 5_000; i++) {
      java.util.Date value = new java.util.Date(random.nextLong() % (3 * DAY));
      same(schema, value, v -> Time.fromLogical(schema, v));
    }
  }

  @Test
  void timestamps() {
    for (int i = 0; i < 1_000; i++) {
      java.util.Date value = new java.util.Date(random.nextLong());
      same(Timestamp.SCHEMA, value, v -> Timestamp.fromLogical(Timestamp.SCHEMA, v));
    }
  }

  @Test
  void decimals() {
    for (int scale = 0; scale < 6; scale++) {
      Schema schema = Decimal.schema(scale);
      for (int i = 0; i < 1_000; i++) {
        BigDecimal value = new BigDecimal(new BigInteger(random.nextInt(130), random).negate().add(BigInteger.TEN),
            random.nextInt(8) == 0 ? scale + 1 : scale);
        same(schema, value, v -> Decimal.fromLogical(schema, v));
      }
    }
  }

  private <T> void same(Schema schema, T value, Function<T, Object> kafka) {
    Object expected;
    try {
      expected = kafka.apply(value);
    } catch (DataException e) {
      Object mapped;
      try {
        mapped = mapping.mapper(schema, mapping.schema(schema)).map(value);
      } catch (DataException ours) {
        assertThat(ours).as("%s", value).hasMessage(e.getMessage());
        return;
      }
      throw new AssertionError("Kafka refuses " + value + " (" + e.getMessage() + "), Kavro maps it to " + mapped);
    }
    Object mapped = mapping.mapper(schema, mapping.schema(schema)).map(value);
    if (expected instanceof byte[] bytes) {
      java.nio.ByteBuffer buffer = ((java.nio.ByteBuffer) mapped).duplicate();
      byte[] written = new byte[buffer.remaining()];
      buffer.get(written);
      assertThat(written).as("%s", value).isEqualTo(bytes);
    } else {
      assertThat(mapped).as("%s", value).isEqualTo(expected);
    }
  }
}
