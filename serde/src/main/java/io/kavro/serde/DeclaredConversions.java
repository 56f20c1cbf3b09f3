package io.kavro.serde;

import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Conversion;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * Which logical-type conversions a Java record's components take, by their declared Java types: a component
 * converts only where its type can hold the conversion's Java type. A {@code LocalDate} component of an
 * {@code int}/{@code date} field is a {@code LocalDate}; an {@code int} one holds the epoch day, a {@code long} one
 * the underlying timestamp, a {@code String} one a uuid's text, a {@code ByteBuffer} one a decimal's bytes as written.
 * An {@code Object} component can hold either, and takes the conversion (the logical type's Java value).
 *
 * <p>Avro's reflect writer decides by each value's class, which a declared type bounds; so the decision is made
 * once, when a codec is built, from the declared types, and gives Avro's bytes. Stateless.
 */
final class DeclaredConversions {
  private DeclaredConversions() {}

  /**
   * Whether a value of the declared class {@code declared} may be converted for {@code logical} by {@code model}:
   * some conversion of that logical type has a Java type the declared class can hold. Where not, every value of
   * it is written as it is, as Avro's writer writes a value whose class has no conversion.
   */
  static boolean mayConvert(Class<?> declared, LogicalType logical, GenericData model) {
    Class<?> boxed = boxed(declared);
    for (Conversion<?> conversion : model.getConversions()) {
      if (conversion.getLogicalTypeName().equals(logical.getName())
          && boxed.isAssignableFrom(conversion.getConvertedType())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The schema that data is read as into the Java type {@code type} by {@code model}: {@code reader} itself where
   * each logical type it holds converts to a Java type its component holds, else a copy without the logical types
   * that convert to a Java type the component cannot hold (they are read as their underlying values). Fields,
   * names, aliases, defaults and properties are kept, so what resolves against {@code reader} resolves against the
   * copy. Records are followed into the components of their Java record class, arrays and maps into their element
   * types, unions into their branches with the same type.
   */
  static Schema readerSchema(Schema reader, Type type, GenericData model) {
    Walk walk = new Walk(model);
    if (!walk.strips(reader, type, java.util.Collections.newSetFromMap(new IdentityHashMap<>()))) {
      return reader;
    }
    return walk.copy(reader, type);
  }

  /**
   * The names of the logical types under {@code schema} that some field of {@code type} (a Java record's component or
   * a plain class's field, followed into records, arrays, maps and union branches) holds as the underlying Avro
   * value, though {@code model} has their conversion: Avro's reflect writer writes such a value as it is, so the
   * application's object holds no Java type there.
   */
  static Set<String> heldUnderlying(Schema schema, Type type, GenericData model) {
    Set<String> names = new java.util.TreeSet<>();
    heldUnderlying(schema, type, model, names, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
    return names;
  }

  private static void heldUnderlying(Schema schema, Type type, GenericData model, Set<String> names,
      Set<Schema> seen) {
    switch (schema.getType()) {
      case RECORD -> {
        if (!seen.add(schema)) {
          return;
        }
        for (Schema.Field field : schema.getFields()) {
          Type declared = declaredType(JavaTypes.rawClass(type), field.name());
          if (declared != null) {
            heldUnderlying(field.schema(), declared, model, names, seen);
          }
        }
        seen.remove(schema);
      }
      case ARRAY -> heldUnderlying(schema.getElementType(), JavaTypes.typeArgument(type, 0), model, names, seen);
      case MAP -> heldUnderlying(schema.getValueType(), JavaTypes.typeArgument(type, 1), model, names, seen);
      case UNION -> schema.getTypes().forEach(branch -> heldUnderlying(branch, type, model, names, seen));
      default -> {
        LogicalType logical = schema.getLogicalType();
        if (logical != null && model.getConversionFor(logical) != null
            && !mayConvert(JavaTypes.rawClass(type), logical, model)) {
          names.add(logical.getName());
        }
      }
    }
  }

  /** The declared type of a Java record's component or a class's field named {@code name}, or null. */
  private static Type declaredType(Class<?> owner, String name) {
    if (owner.isRecord()) {
      for (RecordComponent component : owner.getRecordComponents()) {
        if (component.getName().equals(name)) {
          return component.getGenericType();
        }
      }
      return null;
    }
    for (Class<?> at = owner; at != null && at != Object.class; at = at.getSuperclass()) {
      for (java.lang.reflect.Field field : at.getDeclaredFields()) {
        if (field.getName().equals(name) && !java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
          return field.getGenericType();
        }
      }
    }
    return null;
  }

  private static final class Walk {
    private final GenericData model;
    private final Map<Schema, Schema> copies = new IdentityHashMap<>();

    Walk(GenericData model) {
      this.model = model;
    }

    /** Whether some logical type under {@code schema} converts to a Java type its declared type cannot hold. */
    boolean strips(Schema schema, Type type, Set<Schema> seen) {
      switch (schema.getType()) {
        case RECORD -> {
          Map<String, RecordComponent> components = components(type);
          if (components == null || !seen.add(schema)) {
            return false;
          }
          for (Schema.Field field : schema.getFields()) {
            RecordComponent component = components.get(field.name());
            if (component != null && strips(field.schema(), component.getGenericType(), seen)) {
              return true;
            }
          }
          return false;
        }
        case ARRAY -> {
          return strips(schema.getElementType(), JavaTypes.typeArgument(type, 0), seen);
        }
        case MAP -> {
          return strips(schema.getValueType(), JavaTypes.typeArgument(type, 1), seen);
        }
        case UNION -> {
          for (Schema branch : schema.getTypes()) {
            if (strips(branch, type, seen)) {
              return true;
            }
          }
          return false;
        }
        default -> {
          return stripped(schema, type);
        }
      }
    }

    /**
     * Whether this leaf's logical type converts to a Java type that {@code type} cannot hold: the writer's decision
     * ({@link #mayConvert}) read the other way, so that what is written converted is read converted.
     */
    private boolean stripped(Schema schema, Type type) {
      LogicalType logical = schema.getLogicalType();
      return logical != null && model.getConversionFor(logical) != null
          && !mayConvert(JavaTypes.rawClass(type), logical, model);
    }

    Schema copy(Schema schema, Type type) {
      switch (schema.getType()) {
        case RECORD -> {
          Map<String, RecordComponent> components = components(type);
          if (components == null) {
            return schema;
          }
          Schema known = copies.get(schema);
          if (known != null) {
            return known;
          }
          Schema copy = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(),
              schema.isError());
          copies.put(schema, copy); // before the fields: a record that holds itself
          schema.getAliases().forEach(copy::addAlias);
          schema.getObjectProps().forEach(copy::addProp);
          List<Schema.Field> fields = new ArrayList<>();
          for (Schema.Field field : schema.getFields()) {
            RecordComponent component = components.get(field.name());
            fields.add(new Schema.Field(field,
                component == null ? field.schema() : copy(field.schema(), component.getGenericType())));
          }
          copy.setFields(fields);
          return copy;
        }
        case ARRAY -> {
          return withProps(schema, Schema.createArray(copy(schema.getElementType(),
              JavaTypes.typeArgument(type, 0))));
        }
        case MAP -> {
          return withProps(schema, Schema.createMap(copy(schema.getValueType(), JavaTypes.typeArgument(type, 1))));
        }
        case UNION -> {
          List<Schema> branches = new ArrayList<>();
          schema.getTypes().forEach(branch -> branches.add(copy(branch, type)));
          return Schema.createUnion(branches);
        }
        default -> {
          return stripped(schema, type) ? underlying(schema) : schema;
        }
      }
    }
  }

  /** The components of a Java record class by name, or {@code null} for any other type. */
  private static Map<String, RecordComponent> components(Type type) {
    Class<?> raw = JavaTypes.rawClass(type);
    if (!raw.isRecord()) {
      return null;
    }
    Map<String, RecordComponent> components = new HashMap<>();
    for (RecordComponent component : raw.getRecordComponents()) {
      components.put(component.getName(), component);
    }
    return components;
  }

  /** The schema without its logical type: the same primitive or fixed, with its other properties. */
  private static Schema underlying(Schema schema) {
    Schema plain;
    if (schema.getType() == Schema.Type.FIXED) {
      plain = Schema.createFixed(schema.getName(), schema.getDoc(), schema.getNamespace(), schema.getFixedSize());
      schema.getAliases().forEach(plain::addAlias);
    } else {
      plain = Schema.create(schema.getType());
    }
    schema.getObjectProps().forEach((name, value) -> {
      if (!LogicalType.LOGICAL_TYPE_PROP.equals(name)) {
        plain.addProp(name, value);
      }
    });
    return plain;
  }

  private static Schema withProps(Schema from, Schema to) {
    from.getObjectProps().forEach(to::addProp);
    return to;
  }

  private static Class<?> boxed(Class<?> type) {
    if (!type.isPrimitive()) {
      return type;
    }
    return java.lang.invoke.MethodType.methodType(type).wrap().returnType();
  }
}
