package io.kavro.rules.cel;

import com.google.protobuf.Timestamp;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The functions and variable Confluent's serde adds to CEL ({@code BuiltinDeclarations}, {@code BuiltinOverload},
 * {@code NowVariable} of its {@code schema-rules}) that Kavro has, under Confluent's overload ids: the string checks
 * {@code s.isEmail()}, {@code s.isHostname()}, {@code s.isIpv4()}, {@code s.isIpv6()}, {@code s.isUri()},
 * {@code s.isUriRef()}, {@code s.isUuid()}, each a member function of {@code string} answering {@code bool}
 * ({@link StringChecks}); {@code timestamp.of(value)} and {@code timestamp.of(int, unit)} ({@link Timestamps}); the
 * decimal functions ({@link Decimals}); the variant functions {@code variant(...)} and {@code variants.*}
 * ({@link Variants}); and the variable {@code now}, the time of the evaluation, read once per message ({@code CEL})
 * or field ({@code CEL_FIELD}). Both {@code CEL} and {@code CEL_FIELD} scripts have them.
 */
final class CelLibrary {
  /** The variable of the present time. */
  static final String NOW = "now";

  private CelLibrary() {}

  /** A string check: its name in CEL, its overload id in Confluent's library, and what it does. */
  private record Check(String name, String overloadId, Predicate<String> test) {}

  private static final List<Check> CHECKS = List.of(
      new Check("isEmail", "is_email", StringChecks::isEmail),
      new Check("isHostname", "is_hostname", StringChecks::isHostname),
      new Check("isIpv4", "is_ipv4", StringChecks::isIpv4),
      new Check("isIpv6", "is_ipv6", StringChecks::isIpv6),
      new Check("isUriRef", "is_uri_ref", StringChecks::isUriRef),
      new Check("isUri", "is_uri", StringChecks::isUri),
      new Check("isUuid", "is_uuid", StringChecks::isUuid));

  /** The declarations, for the compiler. */
  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> declarations = new ArrayList<>();
    for (Check check : CHECKS) {
      declarations.add(CelFunctionDecl.newFunctionDeclaration(check.name(),
          CelOverloadDecl.newMemberOverload(check.overloadId(), SimpleType.BOOL, SimpleType.STRING)));
    }
    declarations.add(CelFunctionDecl.newFunctionDeclaration("timestamp.of",
        CelOverloadDecl.newGlobalOverload("timestamp_of_dyn", SimpleType.TIMESTAMP, SimpleType.DYN),
        CelOverloadDecl.newGlobalOverload("timestamp_of_int_string", SimpleType.TIMESTAMP, SimpleType.INT,
            SimpleType.STRING)));
    declarations.addAll(Decimals.declarations());
    declarations.addAll(Variants.declarations());
    return declarations;
  }

  /** The implementations, for the runtime. */
  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> bindings = new ArrayList<>();
    for (Check check : CHECKS) {
      bindings.add(CelFunctionBinding.from(check.overloadId(), String.class,
          (String input) -> check.test().test(input)));
    }
    bindings.add(CelFunctionBinding.from("timestamp_of_dyn", Object.class, Timestamps::of));
    bindings.add(CelFunctionBinding.from("timestamp_of_int_string", Long.class, String.class,
        (Long value, String unit) -> Timestamps.ofEpoch(value, unit)));
    bindings.addAll(Decimals.bindings());
    bindings.addAll(Variants.bindings());
    return bindings;
  }

  /** The value of {@code now} for a resolver that has not read it yet ({@code known} null), else {@code known}. */
  static Timestamp now(Timestamp known) {
    return known != null ? known : Timestamps.now();
  }
}
