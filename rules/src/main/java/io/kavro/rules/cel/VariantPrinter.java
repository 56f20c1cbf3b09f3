package io.kavro.rules.cel;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Locale;

/**
 * {@code variants.toJson(v)}, as Confluent's {@code VariantUtils} prints a variant, on the same JSON library (Jackson,
 * which comes with Avro): compact JSON, an object's fields in key order, decimals in plain notation, a date
 * {@code yyyy-MM-dd}, a time and the timestamps without zone ISO-8601 with the seconds always there and the fraction
 * in 0, 3, 6 or 9 digits, the timestamps with zone as {@link Instant#toString()}, bytes in base64, a UUID in its usual
 * form.
 *
 * <p>Written as it is read, with Jackson's streaming generator (no tree, a string's bytes copied from the buffer
 * where they are), and bounded, as a variant's values may overlap (no writer makes that, but a hostile encoding can
 * point many elements or fields at one long string or key, and print far more than it takes): the JSON may be at
 * most {@value #MAX_OUTPUT} bytes (the default of {@code cel.max.cost}, which a longer result would cost anyway),
 * each string, key and base64 text is counted before it is read, and the writing stops at the bound; a variant may
 * nest at most {@value Variant#MAX_DEPTH} levels (as Jackson writes) and hold at most one value per byte of its
 * encoding. Each is a {@link CelFunctionException}. Stateless and thread-safe.
 */
final class VariantPrinter {
  /** The most bytes of JSON printed. */
  static final int MAX_OUTPUT = (int) CelLimits.DEFAULT_MAX_COST;

  private static final JsonFactory JSON = JsonFactory.builder()
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private VariantPrinter() {}

  /**
   * {@code variants.toJson(v)}.
   *
   * @throws CelFunctionException when the encoding is malformed, or beyond the bounds
   */
  static String print(Variant variant) {
    Output out = new Output();
    try {
      JsonGenerator generator = JSON.createGenerator(out);
      new Printer(generator, out, variant.bytesFromHere()).write(variant, 0);
      generator.close();
    } catch (IOException e) {
      throw new CelFunctionException("variants.toJson: cannot print the variant", e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static CelFunctionException tooLong() {
    return new CelFunctionException("variants.toJson: the JSON would be longer than " + MAX_OUTPUT
        + " bytes (do its values overlap?)");
  }

  /** The JSON written so far, failing as soon as it would pass {@link #MAX_OUTPUT}. */
  private static final class Output extends ByteArrayOutputStream {
    @Override
    public void write(int b) {
      if (count >= MAX_OUTPUT) {
        throw tooLong();
      }
      super.write(b);
    }

    @Override
    public void write(byte[] bytes, int from, int length) {
      if (length > MAX_OUTPUT - count) {
        throw tooLong();
      }
      super.write(bytes, from, length);
    }
  }

  /** One printing: the generator, and what the variant may still print. */
  private static final class Printer {
    private final JsonGenerator json;
    private final Output out;
    /** The values still allowed: one per byte of the encoding. */
    private int values;
    /** The bytes of strings, keys and base64 texts so far, counted before each is read. */
    private long charged;

    Printer(JsonGenerator json, Output out, int values) {
      this.json = json;
      this.out = out;
      this.values = values;
    }

    /** Counts {@code length} bytes about to be written, failing before they are read if they pass the bound. */
    private void charge(long length) {
      charged += length;
      if (charged > MAX_OUTPUT || out.size() + length > MAX_OUTPUT) {
        throw tooLong();
      }
    }

    void write(Variant variant, int depth) throws IOException {
      Variant.Kind kind = variant.kind();
      if (--values < 0) {
        throw Variant.malformed("it holds more values than bytes (its values overlap)");
      }
      if ((kind == Variant.Kind.OBJECT || kind == Variant.Kind.ARRAY) && depth >= Variant.MAX_DEPTH) {
        throw new CelFunctionException("variants.toJson: the variant nests deeper than " + Variant.MAX_DEPTH
            + " levels");
      }
      try {
        switch (kind) {
          case OBJECT -> {
            json.writeStartObject();
            int size = variant.size();
            for (int i = 0; i < size; i++) {
              charge(variant.keyLengthAt(i) + 3L);
              json.writeFieldName(variant.keyAt(i));
              write(variant.at(i), depth + 1);
            }
            json.writeEndObject();
          }
          case ARRAY -> {
            json.writeStartArray();
            int size = variant.size();
            for (int i = 0; i < size; i++) {
              write(variant.at(i), depth + 1);
            }
            json.writeEndArray();
          }
          case NULL -> json.writeNull();
          case BOOLEAN -> json.writeBoolean(variant.bool());
          case INT8, INT16, INT32 -> json.writeNumber((int) variant.integer());
          case INT64 -> json.writeNumber(variant.integer());
          case FLOAT -> json.writeNumber((float) variant.floating());
          case DOUBLE -> json.writeNumber(variant.floating());
          // as Jackson's tree held it: its node factory's form of the decimal
          case DECIMAL4, DECIMAL8, DECIMAL16 -> json.writeNumber(NODES.numberNode(variant.decimal()).decimalValue());
          case STRING -> {
            int length = variant.lengthOfBytes();
            charge(length + 2L);
            json.writeUTF8String(variant.buffer(), variant.stringStart(), length);
          }
          case DATE -> json.writeString(LocalDate.ofEpochDay(variant.integer()).toString());
          case TIMESTAMP_TZ -> json.writeString(instant(variant.integer(), 1_000_000L).toString());
          case TIMESTAMP_NANOS_TZ -> json.writeString(instant(variant.integer(), 1_000_000_000L).toString());
          case TIMESTAMP_NTZ -> json.writeString(local(instant(variant.integer(), 1_000_000L)));
          case TIMESTAMP_NANOS_NTZ -> json.writeString(local(instant(variant.integer(), 1_000_000_000L)));
          case TIME -> json.writeString(time(variant.integer()));
          case BINARY -> {
            charge((variant.lengthOfBytes() + 2L) / 3 * 4 + 2);
            json.writeString(Base64.getEncoder().encodeToString(variant.binary()));
          }
          case UUID -> json.writeString(variant.uuid().toString());
        }
      } catch (DateTimeException | ArithmeticException e) {
        throw new CelFunctionException("variants.toJson: a variant of type " + kind.label + " is out of its range", e);
      }
    }
  }

  private static Instant instant(long count, long perSecond) {
    return Instant.ofEpochSecond(Math.floorDiv(count, perSecond),
        Math.floorMod(count, perSecond) * (1_000_000_000L / perSecond));
  }

  private static String local(Instant instant) {
    LocalDateTime at = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
    return String.format(Locale.ROOT, "%04d-%02d-%02dT%02d:%02d:%02d%s", at.getYear(), at.getMonthValue(),
        at.getDayOfMonth(), at.getHour(), at.getMinute(), at.getSecond(), fraction(at.getNano()));
  }

  private static String time(long micros) {
    LocalTime time = LocalTime.ofNanoOfDay(Math.multiplyExact(micros, 1000L));
    return String.format(Locale.ROOT, "%02d:%02d:%02d%s", time.getHour(), time.getMinute(), time.getSecond(),
        fraction(time.getNano()));
  }

  /** The fraction of a second as {@link Instant#toString()} writes it: none, or 3, 6 or 9 digits. */
  private static String fraction(int nanos) {
    if (nanos == 0) {
      return "";
    } else if (nanos % 1_000_000 == 0) {
      return String.format(Locale.ROOT, ".%03d", nanos / 1_000_000);
    } else if (nanos % 1_000 == 0) {
      return String.format(Locale.ROOT, ".%06d", nanos / 1_000);
    }
    return String.format(Locale.ROOT, ".%09d", nanos);
  }
}
