package io.kavro.rules.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import io.kavro.serde.rules.InlineBinding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;

/**
 * What an inline validation rule's {@code this} is, as Confluent's serializer binds it ({@code CelValidator},
 * {@code CelUtils.findCelTypeForAvroSchema} and {@code toCelValue}): the application's object. A logical type whose
 * conversion the writing data model lacks ({@link InlineBinding}) is its underlying Avro value (a {@code long},
 * {@code int}, {@code bytes} or {@code string}); otherwise it is its Java type ({@code Instant} for
 * {@code timestamp-*}, {@code LocalDateTime} for {@code local-timestamp-*},
 * {@code LocalDate} for {@code date}, {@code LocalTime} for {@code time-*}, {@code BigDecimal} for {@code decimal},
 * {@code UUID} for {@code uuid}), as a generated class holds it; declared {@code dyn}, as Confluent declares every
 * logical type, so that {@code timestamp.of(this)} and {@code decimal(this)} take it. Other values are declared by
 * their schema: {@code bool}, {@code int} (int, long), {@code double}, {@code string} (string, enum),
 * {@code bytes} (bytes, fixed), {@code list(dyn)}, {@code map(string, dyn)}, a record as its struct type (its fields
 * typed, {@link InlineTypes}; bound as a map of its fields, which CEL's runtime selects by name), a nullable union as
 * its other branch, any other union {@code dyn}. Thread-safe.
 */
final class InlineValues {
  /** Avro's conversions of every logical type it has, of this Avro version (nanos since 1.12). */
  private static final GenericData LOGICAL = logicalData();

  /**
   * {@code map(string, dyn)}: {@code this} of a map, and of a record where its struct type does not fit the
   * expression (as Confluent's retry declares it).
   */
  static final CelType UNTYPED_MAP = MapType.create(SimpleType.STRING, SimpleType.DYN);

  private InlineValues() {}

  private static GenericData logicalData() {
    GenericData data = new GenericData();
    List<Conversion<?>> conversions = new ArrayList<>(List.of(new Conversions.DecimalConversion(),
        new Conversions.UUIDConversion(), new TimeConversions.DateConversion(),
        new TimeConversions.TimeMillisConversion(), new TimeConversions.TimeMicrosConversion(),
        new TimeConversions.TimestampMillisConversion(), new TimeConversions.TimestampMicrosConversion(),
        new TimeConversions.LocalTimestampMillisConversion(), new TimeConversions.LocalTimestampMicrosConversion()));
    for (String nanos : List.of("TimestampNanosConversion", "LocalTimestampNanosConversion")) {
      try {
        conversions.add((Conversion<?>) Class.forName("org.apache.avro.data.TimeConversions$" + nanos)
            .getDeclaredConstructor().newInstance());
      } catch (ReflectiveOperationException | LinkageError e) {
        // Avro before 1.12 has no nanosecond timestamps: its schemas never carry them
      }
    }
    conversions.forEach(data::addLogicalTypeConversion);
    return data;
  }

  /**
   * The declared CEL type of {@code this} for a value of {@code schema}: its type as a record's field
   * ({@link InlineTypes#fieldType}), but an array's or a map's elements {@code dyn}, as Confluent's
   * {@code CelUtils.findCelTypeForAvroSchema} declares them.
   */
  static CelType type(Schema schema) {
    CelType type = InlineTypes.fieldType(schema);
    if (type instanceof ListType) {
      return ListType.create(SimpleType.DYN);
    }
    return type instanceof MapType ? UNTYPED_MAP : type;
  }

  /**
   * The declared CEL type of {@code this} per branch of {@code schema}, a union of several branches, as Confluent's
   * validator declares the value it is given: by the value's own schema where it is an Avro container (a record its
   * struct, an enum a {@code string}, a fixed {@code bytes}, an array a {@code list(dyn)}), else by the union's,
   * {@code dyn}. Null for any other schema, and where every branch is {@code dyn}.
   */
  static List<CelType> branchTypes(Schema schema) {
    if (schema.getType() != Schema.Type.UNION || type(schema) != SimpleType.DYN) {
      return null;
    }
    List<CelType> types = new ArrayList<>(schema.getTypes().size());
    boolean typed = false;
    for (Schema branch : schema.getTypes()) {
      CelType type = switch (branch.getType()) {
        case RECORD, ENUM, FIXED, ARRAY -> type(branch);
        default -> SimpleType.DYN;
      };
      typed |= type != SimpleType.DYN;
      types.add(type);
    }
    return typed ? List.copyOf(types) : null;
  }

  /** The CEL value of {@code value}, a generic datum of {@code schema}, with logical types as their Java types. */
  static Object value(Schema schema, Object value) {
    return value(schema, value, InlineBinding.JAVA_TYPES);
  }

  /**
   * The CEL value of {@code value}, a generic datum of {@code schema}.
   *
   * @param binding which logical types are their Java types (the others their underlying Avro values, as a data
   *     model without their conversion holds them)
   */
  static Object value(Schema schema, Object value, InlineBinding binding) {
    if (value == null) {
      return NullValue.NULL_VALUE;
    }
    LogicalType logical = schema.getLogicalType();
    if (logical != null && binding.javaType(logical)) {
      Conversion<?> conversion = LOGICAL.getConversionFor(logical);
      if (conversion != null) {
        // a datum read with conversions (or given by hand) may hold the Java type already
        return conversion.getConvertedType().isInstance(value) ? value
            : Conversions.convertToLogicalType(value, schema, logical, conversion);
      }
    }
    switch (schema.getType()) {
      case UNION -> {
        return value(schema.getTypes().get(GenericData.get().resolveUnion(schema, value)), value, binding);
      }
      case RECORD -> {
        if (value instanceof IndexedRecord record) {
          List<Schema.Field> fields = schema.getFields();
          Map<String, Object> map = new LinkedHashMap<>(fields.size() * 4 / 3 + 1);
          for (Schema.Field field : fields) {
            map.put(field.name(), value(field.schema(), record.get(field.pos()), binding));
          }
          return map;
        }
      }
      case ARRAY -> {
        if (value instanceof Collection<?> elements) {
          List<Object> list = new ArrayList<>(elements.size());
          for (Object element : elements) {
            list.add(value(schema.getElementType(), element, binding));
          }
          return list;
        }
      }
      case MAP -> {
        if (value instanceof Map<?, ?> entries) {
          Map<String, Object> map = new LinkedHashMap<>(entries.size() * 4 / 3 + 1);
          entries.forEach((key, element) -> map.put(String.valueOf(key),
              value(schema.getValueType(), element, binding)));
          return map;
        }
      }
      default -> {
        // a leaf: as every CEL runner of Kavro's has it
      }
    }
    return CelValues.toCel(value);
  }
}
