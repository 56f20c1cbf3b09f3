package io.kavro.rules.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.function.Predicate;

/**
 * The functions Confluent's serde adds to CEL ({@code BuiltinDeclarations}, {@code BuiltinOverload} of its
 * {@code schema-rules}) that Kavro has: the string checks {@code s.isEmail()}, {@code s.isHostname()},
 * {@code s.isIpv4()}, {@code s.isIpv6()}, {@code s.isUri()}, {@code s.isUriRef()}, {@code s.isUuid()}, each a
 * member function of {@code string} answering {@code bool} ({@link StringChecks}), under Confluent's overload ids.
 * Both {@code CEL} and {@code CEL_FIELD} scripts have them.
 */
final class CelLibrary {
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
    return CHECKS.stream()
        .map(check -> CelFunctionDecl.newFunctionDeclaration(check.name(),
            CelOverloadDecl.newMemberOverload(check.overloadId(), SimpleType.BOOL, SimpleType.STRING)))
        .toList();
  }

  /** The implementations, for the runtime. */
  static List<CelFunctionBinding> bindings() {
    return CHECKS.stream()
        .map(check -> CelFunctionBinding.from(check.overloadId(), String.class,
            (String input) -> check.test().test(input)))
        .toList();
  }
}
