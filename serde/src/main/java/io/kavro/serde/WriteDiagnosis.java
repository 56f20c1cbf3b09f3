package io.kavro.serde;

import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.Stringable;
import org.apache.avro.specific.SpecificData;

/**
 * Says why a datum could not be written: walks it against its schema, in the order Avro's writers and the compiled
 * encoder write it, and names the first value that does not fit: its path ({@code Order.lines[2].price},
 * {@code Order.extras["k"]}), the type the schema expects ({@code double}, {@code enum com.acme.Currency},
 * {@code union [null, string]}, {@code decimal(10,2)}) and the value with its class, as Avro's writer does
 * ("value ten (a java.lang.String)").
 *
 * <p>It runs only after a write failed, never on the record path, so the encoders keep no path of their own. It
 * reads values as the writers do, with the same data model: generic and generated records by position, Java records
 * through their components' accessors, plain classes by Avro's reflection; unions resolved by the model; logical
 * types converted by the model's conversion for the value's class. It is lenient where the writers are: a value it
 * cannot blame is passed, and then it finds nothing, and the caller keeps the writer's own message.
 *
 * <p>Stateless and thread-safe.
 */
final class WriteDiagnosis {
  /** How much of a value's text a message shows. */
  static final int SHOWN = 64;
  /** The classes Avro's specific and reflect writers write as strings, by their text. */
  private static final Set<Class<?>> STRINGABLE = Set.of(java.math.BigDecimal.class, java.math.BigInteger.class,
      java.net.URI.class, java.net.URL.class, java.io.File.class);

  private final GenericData model;
  private final boolean specific;
  private final boolean reflect;

  private WriteDiagnosis(GenericData model) {
    this.model = model;
    this.specific = model instanceof SpecificData;
    this.reflect = model instanceof ReflectData;
  }

  /**
   * The first value of {@code datum} that does not fit {@code schema}, described, or {@code null} if every value
   * fits (or the walk itself fails, which it does quietly: it is only a diagnosis).
   *
   * @param model the data model the datum was written with: generic, a generated class's, or reflect
   * @param showValues whether to print values (and map keys); {@code false} prints their classes alone, for data
   *     that rules are to encrypt
   */
  static String explain(Schema schema, Object datum, GenericData model, boolean showValues) {
    try {
      Mismatch mismatch = new WriteDiagnosis(model).walk(schema, datum, Step.root(schema));
      return mismatch == null ? null : mismatch.message(showValues);
    } catch (RuntimeException | StackOverflowError e) {
      return null;
    }
  }

  private Mismatch walk(Schema schema, Object value, Step at) {
    if (value == null) {
      return schema.isNullable() ? null : new Mismatch(at, schema, null, null);
    }
    Object raw = value;
    LogicalType logical = schema.getLogicalType();
    if (logical != null) {
      Conversion<?> conversion = model.getConversionByClass(value.getClass(), logical);
      if (conversion != null) {
        try {
          raw = Conversions.convertToRawType(value, schema, logical, conversion);
        } catch (RuntimeException e) {
          return new Mismatch(at, schema, value, e.getMessage());
        }
      }
    }
    return switch (schema.getType()) {
      case NULL -> null; // as the writers: a null schema writes nothing, whatever the value
      case BOOLEAN -> raw instanceof Boolean ? null : new Mismatch(at, schema, value, null);
      case INT -> raw instanceof Number || reflect && raw instanceof Character ? null
          : new Mismatch(at, schema, value, null);
      case LONG, FLOAT, DOUBLE -> raw instanceof Number ? null : new Mismatch(at, schema, value, null);
      case STRING -> isString(raw) ? null : new Mismatch(at, schema, value, null);
      case BYTES -> raw instanceof ByteBuffer || reflect && raw instanceof byte[] ? null
          : new Mismatch(at, schema, value, null);
      case FIXED -> fixed(schema, raw, value, at);
      case ENUM -> symbol(schema, raw, at);
      case ARRAY -> array(schema, raw, at);
      case MAP -> map(schema, raw, at);
      case UNION -> union(schema, raw, at);
      case RECORD -> record(schema, raw, at);
    };
  }

  private boolean isString(Object value) {
    return value instanceof CharSequence || specific && STRINGABLE.contains(value.getClass())
        || reflect && value.getClass().isAnnotationPresent(Stringable.class);
  }

  private Mismatch fixed(Schema schema, Object raw, Object value, Step at) {
    int length;
    if (raw instanceof GenericFixed fixed) {
      length = fixed.bytes().length;
    } else if (reflect && raw instanceof byte[] bytes) {
      length = bytes.length;
    } else {
      return new Mismatch(at, schema, value, null);
    }
    // As the writers: a longer array is written cut to the size; a shorter one cannot be.
    return length >= schema.getFixedSize() ? null
        : new Mismatch(at, schema, value, "it has " + length + " bytes, not " + schema.getFixedSize());
  }

  private Mismatch symbol(Schema schema, Object value, Step at) {
    if (specific && value instanceof Enum<?>) {
      return null; // the specific writers write a Java enum by its ordinal
    }
    if (!(value instanceof GenericEnumSymbol<?>)) {
      return new Mismatch(at, schema, value, null);
    }
    List<String> symbols = schema.getEnumSymbols();
    return symbols.contains(value.toString()) ? null
        : new Mismatch(at, schema, value, "not one of its symbols " + shown(symbols.toString()));
  }

  private Mismatch array(Schema schema, Object value, Step at) {
    Schema items = schema.getElementType();
    if (value instanceof Collection<?> collection) {
      int index = 0;
      for (Object item : collection) {
        Mismatch mismatch = walk(items, item, at.toItem(index++));
        if (mismatch != null) {
          return mismatch;
        }
      }
      return null;
    }
    if (reflect && value.getClass().isArray()) {
      int length = java.lang.reflect.Array.getLength(value);
      for (int i = 0; i < length; i++) {
        Mismatch mismatch = walk(items, java.lang.reflect.Array.get(value, i), at.toItem(i));
        if (mismatch != null) {
          return mismatch;
        }
      }
      return null;
    }
    return new Mismatch(at, schema, value, null);
  }

  private Mismatch map(Schema schema, Object value, Step at) {
    if (!(value instanceof Map<?, ?> map)) {
      return new Mismatch(at, schema, value, null);
    }
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (entry.getKey() == null) {
        return new Mismatch(at, schema, value, "it has a null key");
      }
      Mismatch mismatch = walk(schema.getValueType(), entry.getValue(), at.toKey(entry.getKey()));
      if (mismatch != null) {
        return mismatch;
      }
    }
    return null;
  }

  private Mismatch union(Schema schema, Object value, Step at) {
    int branch;
    try {
      branch = model.resolveUnion(schema, value);
    } catch (RuntimeException e) { // Avro's UnresolvedUnionException
      return new Mismatch(at, schema, value, null);
    }
    return walk(schema.getTypes().get(branch), value, at);
  }

  private Mismatch record(Schema schema, Object value, Step at) {
    if (schema.getFields().isEmpty()) {
      return null; // as the writers: a record without fields writes nothing, and takes any value
    }
    RecordComponent[] components = reflect && value.getClass().isRecord() ? value.getClass().getRecordComponents()
        : null;
    if (!(value instanceof IndexedRecord || components != null || reflect && isBean(value))) {
      return new Mismatch(at, schema, value, null);
    }
    for (Schema.Field field : schema.getFields()) {
      Object fieldValue;
      try {
        fieldValue = field(value, field, components);
      } catch (Error e) {
        throw e;
      } catch (Throwable e) { // a field the value lacks, or an accessor that threw
        return new Mismatch(at, schema, value, "cannot read its field " + field.name() + ": " + e);
      }
      Mismatch mismatch = walk(field.schema(), fieldValue, at.toField(field.name()));
      if (mismatch != null) {
        return mismatch;
      }
    }
    return null;
  }

  /** A plain object that Avro's reflection may read as a record: not a value of Avro's other types. */
  private static boolean isBean(Object value) {
    return !(value instanceof CharSequence || value instanceof Number || value instanceof Boolean
        || value instanceof Collection<?> || value instanceof Map<?, ?> || value instanceof ByteBuffer
        || value.getClass().isArray() || value.getClass().isEnum());
  }

  /** A field's value, read as the writer of this model reads it. */
  private Object field(Object value, Schema.Field field, RecordComponent[] components) throws Throwable {
    if (value instanceof IndexedRecord record) {
      return record.get(field.pos());
    }
    if (components != null) {
      for (RecordComponent component : components) {
        if (component.getName().equals(field.name())) {
          return JavaTypes.getter(value.getClass(), component).invoke(value);
        }
      }
      throw new IllegalArgumentException("no component " + field.name() + " in " + value.getClass().getName());
    }
    return model.getField(value, field.name(), field.pos());
  }

  /** The type a schema expects, as a message names it: {@code double}, {@code union [null, string]}... */
  static String describe(Schema schema) {
    LogicalType logical = schema.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal decimal) {
      return "decimal(" + decimal.getPrecision() + "," + decimal.getScale() + ")";
    }
    if (logical != null) {
      return logical.getName();
    }
    return switch (schema.getType()) {
      case RECORD -> "record " + schema.getFullName();
      case ENUM -> "enum " + schema.getFullName();
      case FIXED -> "fixed " + schema.getFullName() + " (" + schema.getFixedSize() + " bytes)";
      case ARRAY -> "array of " + describe(schema.getElementType());
      case MAP -> "map of " + describe(schema.getValueType());
      case UNION -> schema.getTypes().stream().map(WriteDiagnosis::branch)
          .collect(Collectors.joining(", ", "union [", "]"));
      default -> schema.getType().getName();
    };
  }

  private static String branch(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> schema.getFullName();
      default -> describe(schema);
    };
  }

  /** A value's text, cut to {@link #SHOWN} characters. */
  static String shown(Object value) {
    String text;
    try {
      text = String.valueOf(value);
    } catch (RuntimeException e) {
      return "?";
    }
    return text.length() <= SHOWN ? text : text.substring(0, SHOWN) + "...";
  }

  /** Where a value sits in the datum: a field, an item or a map value of its parent. Rendered only when named. */
  private record Step(Step parent, String name, int item, Object key) {
    static Step root(Schema schema) {
      return new Step(null, schema.getName(), -1, null);
    }

    Step toField(String field) {
      return new Step(this, field, -1, null);
    }

    Step toItem(int index) {
      return new Step(this, null, index, null);
    }

    Step toKey(Object mapKey) {
      return new Step(this, null, -1, mapKey);
    }

    boolean isField() {
      return parent != null && name != null;
    }

    String render(boolean showKeys) {
      StringBuilder path = new StringBuilder();
      render(path, showKeys);
      return path.toString();
    }

    private void render(StringBuilder path, boolean showKeys) {
      if (parent != null) {
        parent.render(path, showKeys);
      }
      if (name != null) {
        path.append(parent == null ? "" : ".").append(name);
      } else if (key != null) {
        path.append("[\"").append(showKeys ? shown(key) : "...").append("\"]");
      } else {
        path.append('[').append(item).append(']');
      }
    }
  }

  /** The first value that does not fit: where, what the schema expects there, the value, and why if not plain. */
  private record Mismatch(Step at, Schema expected, Object value, String reason) {
    String message(boolean showValues) {
      String path = at.render(showValues);
      if (value == null) {
        return "null value " + (at.isField() ? "for field " : "at ") + path + " (expected " + describe(expected)
            + ")";
      }
      return (showValues ? "value " + shown(value) + " (a " : "a value (a ") + value.getClass().getTypeName()
          + ") does not match expected type " + describe(expected) + " at " + path
          + (reason == null ? "" : ": " + reason);
    }
  }
}
