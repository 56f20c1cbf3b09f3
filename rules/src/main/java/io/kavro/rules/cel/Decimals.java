package io.kavro.rules.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Confluent's decimal functions ({@code BuiltinDeclarations}, {@code BuiltinOverload}, {@code DecimalUtils} of its
 * {@code schema-rules}): the opaque type {@code confluent.type.Decimal} (a {@link BigDecimal}), {@code decimal(x)},
 * {@code decimal(bytes, scale)}, {@code decimals.eq/lt/le/gt/ge}, {@code add/sub/mul/div/mod/sqrt},
 * {@code greatest/least}, {@code neg/abs/sign}, {@code round/trunc} (with or without a scale), {@code floor/ceil}, and
 * {@code string(d)}, {@code double(d)}; under Confluent's overload ids, with its arithmetic (exact, but division and
 * square root to 38 digits, half up).
 *
 * <p>Kavro bounds what Confluent does not: a decimal that a function takes or gives has at most {@value #MAX_DIGITS}
 * digits and a scale within ±{@value #MAX_DIGITS}, and a scale asked for is within it too; else the function fails.
 * Without it {@code decimals.add(decimal('1e999999999'), decimal('1'))} would build a billion digits, out of reach of
 * {@code cel.max.cost}. Stateless.
 */
final class Decimals {
  /** The most digits of a decimal, and the largest scale, either sign. */
  static final int MAX_DIGITS = 1000;

  /** The type of a decimal in CEL. */
  static final OpaqueType DECIMAL = OpaqueType.create("confluent.type.Decimal");

  private static final MathContext DIV = new MathContext(38, RoundingMode.HALF_UP);

  private Decimals() {}

  /** The declarations of the functions, for the compiler. */
  static List<CelFunctionDecl> declarations() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("decimal",
            CelOverloadDecl.newGlobalOverload("dyn_to_decimal", DECIMAL, SimpleType.DYN),
            CelOverloadDecl.newGlobalOverload("bytes_int_to_decimal", DECIMAL, SimpleType.BYTES, SimpleType.INT)),
        binary("decimals.eq", SimpleType.BOOL), binary("decimals.lt", SimpleType.BOOL),
        binary("decimals.le", SimpleType.BOOL), binary("decimals.gt", SimpleType.BOOL),
        binary("decimals.ge", SimpleType.BOOL), binary("decimals.add", DECIMAL), binary("decimals.sub", DECIMAL),
        binary("decimals.mul", DECIMAL), binary("decimals.div", DECIMAL), binary("decimals.mod", DECIMAL),
        unary("decimals.sqrt", DECIMAL), binary("decimals.greatest", DECIMAL), binary("decimals.least", DECIMAL),
        unary("decimals.neg", DECIMAL), unary("decimals.abs", DECIMAL), unary("decimals.sign", SimpleType.INT),
        CelFunctionDecl.newFunctionDeclaration("string",
            CelOverloadDecl.newGlobalOverload("decimal_to_string", SimpleType.STRING, DECIMAL)),
        CelFunctionDecl.newFunctionDeclaration("double",
            CelOverloadDecl.newGlobalOverload("decimal_to_double", SimpleType.DOUBLE, DECIMAL)),
        CelFunctionDecl.newFunctionDeclaration("decimals.round",
            CelOverloadDecl.newGlobalOverload("decimals_round_unary", DECIMAL, DECIMAL),
            CelOverloadDecl.newGlobalOverload("decimals_round_scale", DECIMAL, DECIMAL, SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration("decimals.trunc",
            CelOverloadDecl.newGlobalOverload("decimals_trunc_unary", DECIMAL, DECIMAL),
            CelOverloadDecl.newGlobalOverload("decimals_trunc_scale", DECIMAL, DECIMAL, SimpleType.INT)),
        unary("decimals.floor", DECIMAL), unary("decimals.ceil", DECIMAL));
  }

  /** Their implementations, for the runtime. */
  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("dyn_to_decimal", Object.class, Decimals::of),
        CelFunctionBinding.from("bytes_int_to_decimal", CelByteString.class, Long.class,
            (CelByteString bytes, Long scale) -> of(bytes.toByteArray(), scale)),
        compare("decimals_eq_decimal_decimal", (a, b) -> a.compareTo(b) == 0),
        compare("decimals_lt_decimal_decimal", (a, b) -> a.compareTo(b) < 0),
        compare("decimals_le_decimal_decimal", (a, b) -> a.compareTo(b) <= 0),
        compare("decimals_gt_decimal_decimal", (a, b) -> a.compareTo(b) > 0),
        compare("decimals_ge_decimal_decimal", (a, b) -> a.compareTo(b) >= 0),
        arithmetic("decimals_add_decimal_decimal", BigDecimal::add),
        arithmetic("decimals_sub_decimal_decimal", BigDecimal::subtract),
        arithmetic("decimals_mul_decimal_decimal", BigDecimal::multiply),
        arithmetic("decimals_div_decimal_decimal", (a, b) -> {
          if (b.signum() == 0) {
            throw new IllegalArgumentException("decimals.div: division by zero");
          }
          return a.divide(b, DIV);
        }),
        arithmetic("decimals_mod_decimal_decimal", (a, b) -> {
          if (b.signum() == 0) {
            throw new IllegalArgumentException("decimals.mod: division by zero");
          }
          return a.remainder(b);
        }),
        unary("decimals_sqrt_decimal", d -> {
          if (d.signum() < 0) {
            throw new IllegalArgumentException("decimals.sqrt: square root of negative number");
          }
          return d.sqrt(DIV);
        }),
        arithmetic("decimals_greatest_decimal_decimal", BigDecimal::max),
        arithmetic("decimals_least_decimal_decimal", BigDecimal::min),
        unary("decimals_neg_decimal", BigDecimal::negate),
        unary("decimals_abs_decimal", BigDecimal::abs),
        CelFunctionBinding.from("decimals_sign_decimal", BigDecimal.class, d -> (long) bounded(d).signum()),
        CelFunctionBinding.from("decimal_to_string", BigDecimal.class, d -> bounded(d).toPlainString()),
        CelFunctionBinding.from("decimal_to_double", BigDecimal.class, d -> bounded(d).doubleValue()),
        unary("decimals_round_unary", d -> d.setScale(0, RoundingMode.HALF_UP)),
        CelFunctionBinding.from("decimals_round_scale", BigDecimal.class, Long.class,
            (BigDecimal d, Long scale) -> bounded(bounded(d).setScale(scale(scale, "decimals.round"),
                RoundingMode.HALF_UP))),
        unary("decimals_trunc_unary", d -> d.scale() <= 0 ? d : d.setScale(0, RoundingMode.DOWN)),
        CelFunctionBinding.from("decimals_trunc_scale", BigDecimal.class, Long.class, (BigDecimal d, Long scale) -> {
          int target = scale(scale, "decimals.trunc");
          return bounded(target >= bounded(d).scale() ? d : d.setScale(target, RoundingMode.DOWN));
        }),
        unary("decimals_floor_decimal", d -> d.setScale(0, RoundingMode.FLOOR)),
        unary("decimals_ceil_decimal", d -> d.setScale(0, RoundingMode.CEILING)));
  }

  /**
   * {@code decimal(x)}: a decimal as it is, an int, a double (its shortest decimal form: 0.1 is 0.1), a float (the
   * same at float precision) or a decimal string ({@code "12.50"}, {@code "1e3"}); bytes need a scale, and any other
   * value is an error.
   */
  static BigDecimal of(Object value) {
    if (value instanceof BigDecimal decimal) {
      return bounded(decimal);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    } else if (value instanceof BigInteger integer) {
      return bounded(new BigDecimal(integer));
    } else if (value instanceof Double number) {
      return bounded(BigDecimal.valueOf(number));
    } else if (value instanceof Float number) {
      return bounded(new BigDecimal(number.toString()));
    } else if (value instanceof String text) {
      if (text.length() > 2 * MAX_DIGITS + 10) {
        throw outOfBounds();
      }
      try {
        return bounded(new BigDecimal(text));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("decimal: not a decimal string", e);
      }
    } else if (value instanceof CelByteString || value instanceof byte[] || value instanceof ByteBuffer) {
      throw new IllegalArgumentException("decimal: bytes need a scale: decimal(bytes, scale)");
    }
    throw new IllegalArgumentException("decimal: cannot convert a "
        + (value == null ? "null" : value.getClass().getName()) + " to a decimal");
  }

  /** {@code decimal(bytes, scale)}: the unscaled value in big-endian two's complement (empty is 0), and its scale. */
  static BigDecimal of(byte[] unscaled, long scale) {
    if (unscaled.length > MAX_DIGITS) {
      throw outOfBounds();
    }
    BigInteger value = unscaled.length == 0 ? BigInteger.ZERO : new BigInteger(unscaled);
    return bounded(new BigDecimal(value, scale(scale, "decimal(bytes, scale)")));
  }

  /** {@code decimal} when it is within the bounds. */
  static BigDecimal bounded(BigDecimal decimal) {
    if (Math.abs((long) decimal.scale()) > MAX_DIGITS || decimal.unscaledValue().bitLength() > 3400
        || decimal.precision() > MAX_DIGITS) {
      throw outOfBounds();
    }
    return decimal;
  }

  private static int scale(long scale, String function) {
    if (Math.abs(scale) > MAX_DIGITS) {
      throw new IllegalArgumentException(function + ": the scale " + scale + " is out of bounds (+-" + MAX_DIGITS
          + ")");
    }
    return (int) scale;
  }

  private static IllegalArgumentException outOfBounds() {
    return new IllegalArgumentException(String.format(Locale.ROOT,
        "decimal out of bounds: more than %d digits, or a scale beyond +-%d", MAX_DIGITS, MAX_DIGITS));
  }

  private static CelFunctionDecl binary(String name, CelType result) {
    return CelFunctionDecl.newFunctionDeclaration(name,
        CelOverloadDecl.newGlobalOverload(name.replace('.', '_') + "_decimal_decimal", result, DECIMAL, DECIMAL));
  }

  private static CelFunctionDecl unary(String name, CelType result) {
    return CelFunctionDecl.newFunctionDeclaration(name,
        CelOverloadDecl.newGlobalOverload(name.replace('.', '_') + "_decimal", result, DECIMAL));
  }

  private static CelFunctionBinding compare(String overloadId, BiFunction<BigDecimal, BigDecimal, Boolean> test) {
    return CelFunctionBinding.from(overloadId, BigDecimal.class, BigDecimal.class,
        (BigDecimal a, BigDecimal b) -> test.apply(bounded(a), bounded(b)));
  }

  private static CelFunctionBinding arithmetic(String overloadId,
      BiFunction<BigDecimal, BigDecimal, BigDecimal> operation) {
    return CelFunctionBinding.from(overloadId, BigDecimal.class, BigDecimal.class,
        (BigDecimal a, BigDecimal b) -> bounded(operation.apply(bounded(a), bounded(b))));
  }

  private static CelFunctionBinding unary(String overloadId, Function<BigDecimal, BigDecimal> operation) {
    return CelFunctionBinding.from(overloadId, BigDecimal.class,
        (BigDecimal d) -> bounded(operation.apply(bounded(d))));
  }
}
