package io.kavro.serde.rules;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Conversion;
import org.apache.avro.LogicalType;

/**
 * What an inline validation rule's {@code this} is bound to, as Confluent's serializer binds the application's own
 * object: per logical type, its Java type ({@code Instant}, {@code LocalDate}, {@code BigDecimal}, {@code UUID}...)
 * where the data model the serializer writes the record with has a conversion for it, else its underlying Avro value
 * ({@code long} for {@code timestamp-millis}, {@code int} for {@code date}, {@code bytes} for {@code decimal},
 * {@code string} for {@code uuid}). A generated class's model ({@code MODEL$}) has the conversions it was generated
 * with (avro-maven-plugin's default {@code enableDecimalLogicalType=false} leaves a decimal a {@code ByteBuffer});
 * generic data has them only with {@code avro.use.logical.type.converters=true}. Immutable and thread-safe.
 */
public final class InlineBinding {
  /** Every logical type is its Java type. */
  public static final InlineBinding JAVA_TYPES = new InlineBinding(null);
  /** Every logical type is its underlying Avro value: generic data without converters, Confluent's default. */
  public static final InlineBinding AVRO_VALUES = new InlineBinding(Set.of());

  /** The names of the logical types that are their Java types; null for every one. */
  private final Set<String> converted;

  private InlineBinding(Set<String> converted) {
    this.converted = converted;
  }

  /**
   * The binding of the objects written with {@code conversions}, the writing data model's (and, for a generated
   * class, its fields' own): a logical type is its Java type where one of them converts it.
   */
  public static InlineBinding of(Collection<? extends Conversion<?>> conversions) {
    Set<String> names = new TreeSet<>();
    for (Conversion<?> conversion : conversions) {
      names.add(conversion.getLogicalTypeName());
    }
    return names.isEmpty() ? AVRO_VALUES : new InlineBinding(Set.copyOf(names));
  }

  /** Whether a value of {@code logical} is its Java type, else its underlying Avro value. */
  public boolean javaType(LogicalType logical) {
    return converted == null || converted.contains(logical.getName());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof InlineBinding binding && java.util.Objects.equals(converted, binding.converted);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hashCode(converted);
  }

  @Override
  public String toString() {
    return converted == null ? "JAVA_TYPES" : converted.isEmpty() ? "AVRO_VALUES"
        : "JAVA_TYPES" + new TreeSet<>(converted);
  }
}
