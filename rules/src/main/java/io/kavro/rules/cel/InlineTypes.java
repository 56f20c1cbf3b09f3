package io.kavro.rules.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.common.types.StructTypeReference;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * The CEL struct types of a schema's records, against which an inline validation rule whose {@code this} is a record
 * is type-checked, as Confluent's {@code AvroCelTypeProvider} declares them: a record is a struct of its fields, each
 * of its CEL type ({@link #fieldType}); a field the record does not have is not a field of the struct. Built once per
 * schema version, when its rules are prepared; only the compiler reads it (a record is bound as a map of its fields,
 * which CEL's runtime selects by name). Immutable and thread-safe.
 */
final class InlineTypes implements CelTypeProvider {
  /** The struct type of every record in the schema, by full name. */
  private final Map<String, StructType> records;

  private InlineTypes(Map<String, StructType> records) {
    this.records = records;
  }

  /** The struct types of the records of {@code writer}, recursive ones included. */
  static InlineTypes of(Schema writer) {
    Map<String, StructType> records = new LinkedHashMap<>();
    collect(writer, records);
    return new InlineTypes(Map.copyOf(records));
  }

  private static void collect(Schema schema, Map<String, StructType> records) {
    switch (schema.getType()) {
      case RECORD -> {
        if (records.containsKey(schema.getFullName())) {
          return;
        }
        records.put(schema.getFullName(), struct(schema));
        schema.getFields().forEach(field -> collect(field.schema(), records));
      }
      // every record a rule's this can be: one behind a union of several branches too (its fields are typed alike)
      case UNION -> schema.getTypes().forEach(branch -> collect(branch, records));
      case ARRAY -> collect(schema.getElementType(), records);
      case MAP -> collect(schema.getValueType(), records);
      default -> {
        // a leaf holds no record
      }
    }
  }

  private static StructType struct(Schema record) {
    ImmutableSet<String> names = record.getFields().stream().map(Schema.Field::name)
        .collect(ImmutableSet.toImmutableSet());
    // lazily, as CEL asks: a recursive record refers to itself by name
    return StructType.create(record.getFullName(), names,
        name -> Optional.ofNullable(record.getField(name)).map(field -> fieldType(field.schema())));
  }

  /**
   * The CEL type of a record's field of {@code schema}, as Confluent's {@code AvroCelTypeProvider.fieldCelType}:
   * {@code bool}, {@code int} (int, long), {@code double} (float, double), {@code string} (string, enum),
   * {@code bytes} (bytes, fixed), a list or a map of its element's type, a record's struct type, a nullable union
   * as its other branch; {@code dyn} for a logical type (its value may be its Java type) and for a union of several
   * branches, whose value only the record says.
   */
  static CelType fieldType(Schema schema) {
    Schema type = schema;
    if (schema.getType() == Schema.Type.UNION) {
      List<Schema> branches = schema.getTypes();
      if (branches.size() != 2 || !schema.isNullable()) {
        return SimpleType.DYN;
      }
      type = branches.get(branches.get(0).getType() == Schema.Type.NULL ? 1 : 0);
    }
    if (type.getLogicalType() != null) {
      return SimpleType.DYN;
    }
    return switch (type.getType()) {
      case BOOLEAN -> SimpleType.BOOL;
      case INT, LONG -> SimpleType.INT;
      case FLOAT, DOUBLE -> SimpleType.DOUBLE;
      case STRING, ENUM -> SimpleType.STRING;
      case BYTES, FIXED -> SimpleType.BYTES;
      case NULL -> SimpleType.NULL_TYPE;
      case ARRAY -> ListType.create(fieldType(type.getElementType()));
      case MAP -> MapType.create(SimpleType.STRING, fieldType(type.getValueType()));
      case RECORD -> StructTypeReference.create(type.getFullName());
      case UNION -> SimpleType.DYN; // a union in a union: Avro refuses it
    };
  }

  @Override
  public ImmutableCollection<CelType> types() {
    return ImmutableSet.copyOf(records.values());
  }

  @Override
  public Optional<CelType> findType(String typeName) {
    return Optional.ofNullable(records.get(typeName));
  }
}
