package io.kavro.serde;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The Avro data models one serde instance uses: generic and reflect models of its own (never Avro's
 * JVM-wide singletons), and the generated classes' own models for specific records. The generic model has the
 * logical-type conversions as {@code avro.use.logical.type.converters} says; the reflect model has them always:
 * a Java type such as {@code LocalDate} means its logical type whatever the setting. A Java record's component that
 * holds the underlying value (an {@code int} of a {@code date}) is read and written as it is:
 * {@link DeclaredConversions} decides that by its declared type when the codec is built.
 */
final class AvroDataModels {
  private final GenericData generic;
  private final ReflectData reflect;

  /**
   * @param logicalTypes whether decimals, dates, times, timestamps and uuids map to Java types
   * @param reflectAllowNull whether reflected fields are all nullable
   */
  AvroDataModels(boolean logicalTypes, boolean reflectAllowNull) {
    this.generic = new GenericData();
    ReflectData deriving = reflectAllowNull ? new ReflectData.AllowNull() : new ReflectData();
    this.reflect = new Reflect(deriving);
    for (Conversion<?> conversion : conversions()) {
      if (logicalTypes) {
        generic.addLogicalTypeConversion(conversion);
      }
      reflect.addLogicalTypeConversion(conversion);
      // Not decimals where schemas are derived: a class's BigDecimal has no precision and scale to derive a
      // schema from, and Avro's reflection then refuses every such class; without the conversion it derives a
      // string (the number's text), as Avro does. A decimal that a schema gives (@AvroSchema) converts.
      if (!(conversion instanceof Conversions.DecimalConversion)) {
        deriving.addLogicalTypeConversion(conversion);
      }
    }
  }

  /**
   * The reflect model: every conversion, to read and write; schemas derived by {@code deriving}, which has all but
   * the decimal one.
   */
  private static final class Reflect extends ReflectData {
    private final ReflectData deriving;

    Reflect(ReflectData deriving) {
      this.deriving = deriving;
    }

    @Override
    public Schema getSchema(Type type) {
      return deriving.getSchema(type);
    }
  }

  /** Avro's conversions; the nanosecond timestamps only where Avro has them (1.12 and later). */
  private static List<Conversion<?>> conversions() {
    List<Conversion<?>> conversions = new ArrayList<>(List.of(
        new Conversions.DecimalConversion(),
        new Conversions.UUIDConversion(),
        new TimeConversions.DateConversion(),
        new TimeConversions.TimeMillisConversion(),
        new TimeConversions.TimeMicrosConversion(),
        new TimeConversions.TimestampMillisConversion(),
        new TimeConversions.TimestampMicrosConversion(),
        new TimeConversions.LocalTimestampMillisConversion(),
        new TimeConversions.LocalTimestampMicrosConversion()));
    if (AvroFeatures.AVRO_1_12) {
      conversions.addAll(NanosConversions.all());
    }
    return conversions;
  }

  /** The conversions that Avro 1.12 added; only loaded where they exist. */
  private static final class NanosConversions {
    static List<Conversion<?>> all() {
      return List.of(new TimeConversions.TimestampNanosConversion(),
          new TimeConversions.LocalTimestampNanosConversion());
    }
  }

  GenericData generic() {
    return generic;
  }

  ReflectData reflect() {
    return reflect;
  }

  /** The model of a generated class: its own conversions, whatever this instance's setting. */
  static SpecificData specific(Class<?> type) {
    return SpecificData.getForClass(type);
  }

  /** Whether the datum is an instance of a generated class. */
  static boolean isSpecific(Object datum) {
    return datum instanceof SpecificRecord || datum instanceof Enum<?> && datum instanceof
        org.apache.avro.generic.GenericEnumSymbol<?>;
  }
}
