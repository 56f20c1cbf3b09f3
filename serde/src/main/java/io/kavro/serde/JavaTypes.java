package io.kavro.serde;

import io.kavro.serde.internal.FloatAccessor;
import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Java types as the compiled codecs need them: raw classes, type arguments, record accessors, constructors, and
 * whether Kavro's own class loader sees a class.
 */
final class JavaTypes {
  private JavaTypes() {}

  static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    return Object.class;
  }

  static Type typeArgument(Type type, int index) {
    if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
      return p.getActualTypeArguments()[index];
    }
    return Object.class;
  }

  /**
   * Writes a primitive component as its schema's type, through an accessor of the primitive's own functional type
   * (no boxing), or {@code null} when the pair is not a plain one (a short as an int, say) or the accessor cannot
   * be spun. A {@code float} through Kavro's own {@link FloatAccessor} (the JDK has no float-returning functional
   * type, and a float widened to a double and back loses a signaling NaN's bits, which Avro writes as they are:
   * {@code Float.floatToRawIntBits}); where that type cannot be spun for the record's class (not visible from its
   * class loader or module), the boxing accessor, which keeps the bits too.
   */
  static CompiledEncoder primitiveWriter(Class<?> type, RecordComponent component, org.apache.avro.Schema.Type as) {
    Class<?> primitive = component.getType();
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
      MethodHandle getter = lookup.unreflect(component.getAccessor());
      if (primitive == long.class && as == org.apache.avro.Schema.Type.LONG) {
        ToLongFunction<Object> f = spin(lookup, getter, ToLongFunction.class, "applyAsLong", long.class, type);
        return (value, out) -> out.writeLong(f.applyAsLong(value));
      }
      if (primitive == int.class && as == org.apache.avro.Schema.Type.INT) {
        ToIntFunction<Object> f = spin(lookup, getter, ToIntFunction.class, "applyAsInt", int.class, type);
        return (value, out) -> out.writeInt(f.applyAsInt(value));
      }
      if (primitive == double.class && as == org.apache.avro.Schema.Type.DOUBLE) {
        ToDoubleFunction<Object> f = spin(lookup, getter, ToDoubleFunction.class, "applyAsDouble", double.class,
            type);
        return (value, out) -> out.writeDouble(f.applyAsDouble(value));
      }
      if (primitive == float.class && as == org.apache.avro.Schema.Type.FLOAT) {
        FloatAccessor f = spin(lookup, getter, FloatAccessor.class, "applyAsFloat", float.class, type);
        return (value, out) -> out.writeFloat(f.applyAsFloat(value));
      }
      if (primitive == boolean.class && as == org.apache.avro.Schema.Type.BOOLEAN) {
        Predicate<Object> f = spin(lookup, getter, Predicate.class, "test", boolean.class, type);
        return (value, out) -> out.writeBoolean(f.test(value));
      }
      return null;
    } catch (Throwable e) {
      return null; // the boxing accessor instead
    }
  }

  @SuppressWarnings("unchecked")
  private static <F> F spin(MethodHandles.Lookup lookup, MethodHandle getter, Class<?> functional, String method,
      Class<?> returns, Class<?> type) throws Throwable {
    CallSite site = LambdaMetafactory.metafactory(lookup, method, MethodType.methodType(functional),
        MethodType.methodType(returns, Object.class), getter, MethodType.methodType(returns, type));
    return (F) site.getTarget().invoke();
  }

  /**
   * Whether {@code type} is the class Kavro's own loader finds by its name: a class spun in Kavro's package that
   * names it links through that loader.
   */
  static boolean visible(Class<?> type) {
    try {
      return Class.forName(type.getName(), false, JavaTypes.class.getClassLoader()) == type;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * A new instance of {@code type} by its no-argument constructor, as a function spun by {@link LambdaMetafactory}
   * in the class's own nest, which the JIT inlines like {@code new}, where the class may be looked into with full
   * privilege (a class of Kavro's own module or one open to it: not one of another class loader's unnamed module,
   * whose private lookup lacks module access); else through the constructor's method handle; or {@code null} when
   * neither can be had (no such constructor, a class not open to Kavro): the caller keeps its reflective path then.
   */
  static Supplier<Object> noArgConstructor(Class<?> type) {
    MethodHandle constructor;
    try {
      constructor = MethodHandles.privateLookupIn(type, MethodHandles.lookup())
          .findConstructor(type, MethodType.methodType(void.class));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
    Supplier<Object> spun = spunOrNull(type, "get", Supplier.class, MethodType.methodType(Object.class),
        constructor, MethodType.methodType(type));
    if (spun != null) {
      return spun;
    }
    MethodHandle generic = constructor.asType(MethodType.methodType(Object.class));
    return () -> {
      try {
        return generic.invokeExact();
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    };
  }

  /**
   * {@code target} as an instance of {@code functional}, a class of its own spun by {@link LambdaMetafactory} in
   * {@code type}'s nest, which the JIT inlines like a direct call; {@code null} where {@code type} may not be looked
   * into with full privilege (another module's class, or one of another class loader's unnamed module): the caller
   * falls back to the method handle alone then.
   */
  @SuppressWarnings("unchecked")
  private static <F> F spunOrNull(Class<?> type, String method, Class<?> functional, MethodType erased,
      MethodHandle target, MethodType instantiated) {
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
      CallSite site = LambdaMetafactory.metafactory(lookup, method, MethodType.methodType(functional), erased,
          target, instantiated);
      return (F) site.getTarget().invoke();
    } catch (Throwable e) {
      return null;
    }
  }

  /**
   * The component's accessor as a function: a class of its own spun by {@link LambdaMetafactory}, which the JIT
   * inlines like a direct call, where the record's class may be looked into privately; a method handle otherwise.
   *
   * @throws Unsupported when the accessor cannot be reached at all
   */
  static Function<Object, Object> accessor(Class<?> type, RecordComponent component) {
    MethodHandle getter = getter(type, component);
    Function<Object, Object> spun = spunOrNull(type, "apply", Function.class,
        MethodType.methodType(Object.class, Object.class), getter,
        MethodType.methodType(getter.type().wrap().returnType(), type));
    if (spun != null) {
      return spun;
    }
    MethodHandle generic = getter.asType(MethodType.methodType(Object.class, Object.class));
    return value -> {
      try {
        return generic.invokeExact(value);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    };
  }

  /**
   * The component's accessor as a method handle, without a class spun for it: for a read that happens once, such
   * as {@link WriteDiagnosis}'s; looked up privately in the record's class, or through the opened accessor.
   *
   * @throws Unsupported when the accessor cannot be reached at all
   */
  static MethodHandle getter(Class<?> type, RecordComponent component) {
    try {
      return MethodHandles.privateLookupIn(type, MethodHandles.lookup()).unreflect(component.getAccessor());
    } catch (IllegalAccessException | RuntimeException e) {
      try {
        Method method = component.getAccessor();
        method.setAccessible(true);
        return MethodHandles.lookup().unreflect(method);
      } catch (IllegalAccessException | RuntimeException denied) {
        throw new Unsupported("accessor " + component + ": " + denied);
      }
    }
  }
}
