package io.kavro.rules.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.Map;

/**
 * Confluent's variant functions ({@code BuiltinDeclarations}, {@code BuiltinOverload}, {@code VariantUtils},
 * {@code VariantPath} of its {@code schema-rules}), under its overload ids, over the opaque type
 * {@code confluent.type.Variant} ({@link Variant}):
 *
 * <ul>
 *   <li>{@code variant(x)}: a variant as it is; an Avro {@code variant} record ({@code {metadata: bytes, value:
 *       bytes}}, a map in CEL); CEL null is null; a string is an error (use {@code variants.parseJson}), as is any
 *       other value. {@code variant(value, metadata)}: of the two encoded buffers;</li>
 *   <li>{@code variants.parseJson(s)}, {@code variants.tryParseJson(s)} (null where the first fails) ({@link
 *       VariantEncoder}); {@code variants.toJson(v)};</li>
 *   <li>{@code variants.type(v)}: {@code object}, {@code array}, {@code null}, {@code boolean}, {@code int},
 *       {@code double}, {@code decimal}, {@code date}, {@code time}, {@code timestamp}, {@code string},
 *       {@code bytes} or {@code uuid}; {@code variants.isNull(v)}: whether {@code v} is a variant JSON null (not
 *       CEL null);</li>
 *   <li>{@code variants.path(v, path)} ({@link VariantPath}), {@code variants.field(v, key)},
 *       {@code variants.index(v, i)}: the value there, or CEL null when there is none (so a missing field is
 *       {@code == null}, an explicit JSON null is {@code variants.isNull});</li>
 *   <li>{@code variants.as(v, type)}, {@code variants.tryAs(v, type)}: the value as a CEL {@code string},
 *       {@code int}, {@code double}, {@code boolean}, {@code decimal} ({@code confluent.type.Decimal}),
 *       {@code timestamp} or {@code bytes}; another type of value is an error, or null for {@code tryAs}; asking
 *       for {@code object}, {@code array}, {@code null}, {@code date}, {@code time} or {@code uuid} is an error for
 *       both.</li>
 * </ul>
 *
 * <p>{@code path}, {@code field}, {@code index}, {@code as} and {@code tryAs} give CEL null for CEL null, so that
 * navigation chains; {@code type} and {@code toJson} take a variant only. Failures are {@link CelFunctionException}s.
 * Stateless.
 */
final class Variants {
  /** The type of a variant in CEL. */
  static final OpaqueType VARIANT = OpaqueType.create("confluent.type.Variant");
  /** The function that makes a variant: {@code variant(x)}, {@code variant(value, metadata)}. */
  static final String VARIANT_FUNCTION = "variant";

  private Variants() {}

  /** The declarations of the functions, for the compiler. */
  static List<CelFunctionDecl> declarations() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration(VARIANT_FUNCTION,
            CelOverloadDecl.newGlobalOverload("dyn_to_variant", VARIANT, SimpleType.DYN),
            CelOverloadDecl.newGlobalOverload("bytes_bytes_to_variant", VARIANT, SimpleType.BYTES,
                SimpleType.BYTES)),
        function("variants.parseJson", "variants_parsejson_string", VARIANT, SimpleType.STRING),
        function("variants.tryParseJson", "variants_tryparsejson_string", VARIANT, SimpleType.STRING),
        function("variants.type", "variants_type_variant", SimpleType.STRING, VARIANT),
        function("variants.isNull", "variants_isnull_dyn", SimpleType.BOOL, VARIANT),
        function("variants.path", "variants_path_dyn_string", VARIANT, VARIANT, SimpleType.STRING),
        function("variants.field", "variants_field_dyn_string", VARIANT, VARIANT, SimpleType.STRING),
        function("variants.index", "variants_index_dyn_int", VARIANT, VARIANT, SimpleType.INT),
        function("variants.as", "variants_as_dyn_string", SimpleType.DYN, VARIANT, SimpleType.STRING),
        function("variants.tryAs", "variants_tryas_dyn_string", SimpleType.DYN, VARIANT, SimpleType.STRING),
        function("variants.toJson", "variants_tojson_variant", SimpleType.STRING, VARIANT));
  }

  /** Their implementations, for the runtime. */
  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("dyn_to_variant", Object.class, Variants::of),
        CelFunctionBinding.from("bytes_bytes_to_variant", CelByteString.class, CelByteString.class,
            (CelByteString value, CelByteString metadata) -> Variant.of(value.toByteArray(), metadata.toByteArray())),
        CelFunctionBinding.from("variants_parsejson_string", String.class, VariantEncoder::parse),
        CelFunctionBinding.from("variants_tryparsejson_string", String.class, Variants::tryParse),
        CelFunctionBinding.from("variants_type_variant", Variant.class, v -> v.kind().label),
        CelFunctionBinding.from("variants_isnull_dyn", Object.class,
            o -> o instanceof Variant v && v.kind() == Variant.Kind.NULL),
        CelFunctionBinding.from("variants_path_dyn_string", Object.class, String.class, (Object o, String path) -> {
          Variant v = variantOrNull(o, "variants.path");
          return v == null ? NullValue.NULL_VALUE : orNull(VariantPath.walk(v, path));
        }),
        CelFunctionBinding.from("variants_field_dyn_string", Object.class, String.class, (Object o, String key) -> {
          Variant v = variantOrNull(o, "variants.field");
          return v == null || v.kind() != Variant.Kind.OBJECT ? NullValue.NULL_VALUE : orNull(v.field(key));
        }),
        CelFunctionBinding.from("variants_index_dyn_int", Object.class, Long.class, (Object o, Long index) -> {
          Variant v = variantOrNull(o, "variants.index");
          return v == null || v.kind() != Variant.Kind.ARRAY || index < 0 || index > Integer.MAX_VALUE
              ? NullValue.NULL_VALUE : orNull(v.at(index.intValue()));
        }),
        CelFunctionBinding.from("variants_as_dyn_string", Object.class, String.class, (Object o, String type) -> {
          Variant v = variantOrNull(o, "variants.as");
          return v == null ? NullValue.NULL_VALUE : as(v, type, false);
        }),
        CelFunctionBinding.from("variants_tryas_dyn_string", Object.class, String.class, (Object o, String type) -> {
          Variant v = variantOrNull(o, "variants.tryAs");
          return v == null ? NullValue.NULL_VALUE : as(v, type, true);
        }),
        CelFunctionBinding.from("variants_tojson_variant", Variant.class, VariantPrinter::print));
  }

  /** {@code variant(x)}. */
  static Object of(Object value) {
    if (CelValues.isNull(value)) {
      return NullValue.NULL_VALUE;
    } else if (value instanceof Variant variant) {
      return variant;
    } else if (value instanceof String) {
      throw new CelFunctionException("variant(string) is not supported; use variants.parseJson(s), or "
          + "variants.tryParseJson(s) for null where it is not JSON");
    } else if (value instanceof Map<?, ?> record) {
      Object metadata = record.get("metadata");
      Object encoded = record.get("value");
      if (metadata != null && encoded != null) {
        return Variant.of(bytes(encoded, "value"), bytes(metadata, "metadata"));
      } else if (metadata != null || encoded != null) {
        throw new CelFunctionException("variant: a variant record has both 'metadata' and 'value'; this one has no '"
            + (encoded == null ? "value" : "metadata") + "'");
      }
    }
    throw new CelFunctionException("variant: cannot convert a " + value.getClass().getName()
        + " to a variant (a variant record {metadata, value} or a variant is needed)");
  }

  private static byte[] bytes(Object value, String field) {
    byte[] bytes = CelValues.bytes(value);
    if (bytes != null) {
      return bytes;
    }
    throw new CelFunctionException("variant: the variant record's '" + field + "' is a "
        + (CelValues.isNull(value) ? "null" : value.getClass().getName()) + ", not bytes");
  }

  private static Object tryParse(String json) {
    try {
      return VariantEncoder.parse(json);
    } catch (CelFunctionException e) {
      return NullValue.NULL_VALUE;
    }
  }

  private static Variant variantOrNull(Object value, String function) {
    if (CelValues.isNull(value)) {
      return null;
    } else if (value instanceof Variant variant) {
      return variant;
    }
    throw new CelFunctionException(function + ": expected a variant, got a " + value.getClass().getName());
  }

  private static Object orNull(Variant variant) {
    return variant == null ? NullValue.NULL_VALUE : variant;
  }

  /** {@code variants.as} ({@code soft} false) and {@code variants.tryAs} ({@code soft} true). */
  static Object as(Variant v, String type, boolean soft) {
    Variant.Kind kind = v.kind();
    switch (type) {
      case "string", "int", "double", "boolean", "decimal", "timestamp", "bytes" -> {
        if (kind.label.equals(type)) {
          return switch (kind) {
            case STRING -> v.string();
            case INT8, INT16, INT32, INT64 -> v.integer();
            case FLOAT, DOUBLE -> v.floating();
            case BOOLEAN -> v.bool();
            case DECIMAL4, DECIMAL8, DECIMAL16 -> v.decimal();
            case TIMESTAMP_TZ, TIMESTAMP_NTZ -> Timestamps.ofEpoch(v.integer(), "micros");
            case TIMESTAMP_NANOS_TZ, TIMESTAMP_NANOS_NTZ -> Timestamps.ofEpoch(v.integer(), "nanos");
            default -> CelByteString.of(v.binary());
          };
        }
        if (soft) {
          return NullValue.NULL_VALUE;
        }
        throw new CelFunctionException("variants.as: the variant is of type " + kind.label + ", not " + type);
      }
      case "object", "array", "null", "date", "time", "uuid" -> throw new CelFunctionException("variants.as: type '"
          + type + "' is not supported for extraction (use variants.type/path/field/index instead)");
      default -> {
        if (soft) {
          return NullValue.NULL_VALUE;
        }
        throw new CelFunctionException("variants.as: unknown type (expected one of: string, int, double, boolean, "
            + "decimal, timestamp, bytes)");
      }
    }
  }

  private static CelFunctionDecl function(String name, String overloadId, CelType result, CelType... parameters) {
    return CelFunctionDecl.newFunctionDeclaration(name,
        CelOverloadDecl.newGlobalOverload(overloadId, result, parameters));
  }
}
