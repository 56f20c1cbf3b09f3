package io.kavro.rules.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelVariableResolver;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rule's CEL expression, compiled once: the optional guard ({@code guard ; expr}) and the body, run within the
 * {@link CelLimits} of a run ({@link CelBudget}). Immutable and thread-safe, as CEL programs are.
 */
final class CelScript {
  /** The rule parameter that makes a {@code ;} part of the expression rather than the end of a guard. */
  static final String IGNORE_GUARD_SEPARATOR = "cel.ignore.guard.separator";

  /** The CEL checker's error for a field a struct type does not have (cel-java's {@code ExprChecker}). */
  private static final Pattern UNDEFINED_FIELD = Pattern.compile("undefined field '([^']*)'");

  /** The rule, as messages name it. */
  private final String rule;
  private final String where;
  private final CelLimits limits;
  private final String body;
  private final CelRuntime.Program guard;
  private final CelRuntime.Program program;

  private CelScript(String rule, String where, CelLimits limits, String body, CelRuntime.Program guard,
      CelRuntime.Program program) {
    this.rule = rule;
    this.where = where;
    this.limits = limits;
    this.body = body;
    this.guard = guard;
    this.program = program;
  }

  /**
   * The environment of scripts that bind {@code variables}: CEL's standard library and macros, the strings and math
   * extensions, and Confluent's functions ({@link CelLibrary}).
   */
  static Cel environment(Map<String, CelType> variables) {
    return environment(variables, null);
  }

  /**
   * As {@link #environment(Map)}, its checker resolving struct types with {@code types} (none where null): such an
   * environment holds a schema version's types, so it is built to check a rule, never kept.
   */
  static Cel environment(Map<String, CelType> variables, CelTypeProvider types) {
    var builder = CelFactory.standardCelBuilder()
        .setOptions(CelOptions.current().enableHeterogeneousNumericComparisons(true).build())
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .addCompilerLibraries(CelExtensions.strings(), CelExtensions.math(CelOptions.current().build()))
        .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.math(CelOptions.current().build()))
        .addFunctionDeclarations(CelLibrary.declarations())
        .addFunctionBindings(CelLibrary.bindings());
    variables.forEach(builder::addVar);
    builder.addVar(CelLibrary.NOW, SimpleType.TIMESTAMP);
    if (types != null) {
      builder.setTypeProvider(types);
    }
    return builder.build();
  }

  /**
   * Compiles the expression of {@code target}'s rule.
   *
   * @throws RuleException when the rule has no expression, or it does not compile
   */
  static CelScript compile(Cel cel, RuleTarget target, CelLimits limits) {
    Rule rule = target.rule();
    String expr = rule.expr();
    if (expr == null || expr.isBlank()) {
      throw new RuleException(rule + ": has no CEL expression (expr)");
    }
    int separator = Boolean.parseBoolean(target.parameter(IGNORE_GUARD_SEPARATOR)) ? -1 : expr.indexOf(';');
    if (separator < 0) {
      return new CelScript(rule.toString(), target.toString(), limits, expr, null, program(cel, rule, expr));
    }
    String body = expr.substring(separator + 1);
    return new CelScript(rule.toString(), target.toString(), limits, body,
        program(cel, rule, expr.substring(0, separator)), program(cel, rule, body));
  }

  /**
   * Compiles an inline validation rule's expression ({@code confluent:rules}): no guard, as Confluent's. As
   * Confluent's {@code CelUtils.buildCompiledRule}, a rule whose {@code this} is a record is type-checked against the
   * record's struct type ({@link InlineTypes}) and, where it does not fit it ({@code this['name']}, a comparison
   * across types), against a map of {@code dyn} values; except that a rule that reads a field the record does not
   * have is refused, where Confluent's retry would fail it on every record that reaches it.
   *
   * @param cel the environment with {@code this} declared with its type
   * @param untyped the shared environment with {@code this} a {@code map(string, dyn)}, tried when {@code cel}
   *     declares a record's struct the expression does not fit, and the one whose runtime runs the rule (CEL's
   *     runtime selects a struct-typed field of the record's map by name), so that {@code cel}, which holds the
   *     schema version's struct types, is dropped once the rule is checked; null when {@code this} is not a record
   * @param label the rule, as messages name it
   * @throws InlineResultTypeException when it compiles to a result that is neither {@code bool} nor {@code string}
   *     ({@code dyn} included: a value only the record would say), as Confluent's validator refuses it
   * @throws InlineUnknownFieldException when it reads a field its record's type does not have
   * @throws RuleException when it does not compile
   */
  static CelScript inline(Cel cel, Cel untyped, String label, String expr, CelLimits limits) {
    CelAbstractSyntaxTree ast;
    try {
      ast = cel.compile(expr).getAst();
    } catch (CelValidationException e) {
      ast = null;
      Set<String> unknown = new LinkedHashSet<>();
      for (CelIssue issue : e.getErrors()) {
        Matcher field = UNDEFINED_FIELD.matcher(issue.getMessage());
        if (field.matches()) {
          unknown.add(field.group(1));
        }
      }
      if (!unknown.isEmpty()) {
        throw new InlineUnknownFieldException(label + ": its CEL expression '" + expr.trim() + "' reads field '"
            + unknown.iterator().next() + "', which its record (or a record in it) does not have", unknown);
      }
      if (untyped != null) {
        try {
          ast = untyped.compile(expr).getAst();
        } catch (CelValidationException retried) {
          // as Confluent's, the first error is the one shown
        }
      }
      if (ast == null) {
        return new CelScript(label, label, limits, expr, null, program(cel, label, expr)); // throws, as rules do
      }
    }
    CelKind kind = ast.getResultType().kind();
    if (kind != CelKind.BOOL && kind != CelKind.STRING) {
      throw new InlineResultTypeException(label + ": must return bool or string; its CEL expression '"
          + expr.trim() + "' returns " + ast.getResultType().name());
    }
    try {
      // never planned by cel: a program keeps its environment's runtime, and cel's is one per schema version
      return new CelScript(label, label, limits, expr, null, (untyped != null ? untyped : cel).createProgram(ast));
    } catch (CelEvaluationException e) {
      throw new RuleException(label + ": cannot plan CEL expression '" + expr.trim() + "': " + e.getMessage(), e);
    }
  }

  private static CelRuntime.Program program(Cel cel, Object rule, String expr) {
    try {
      return cel.createProgram(cel.compile(expr).getAst());
    } catch (CelValidationException e) {
      throw new RuleException(rule + ": cannot compile CEL expression '" + expr.trim() + "': " + e.getMessage(), e);
    } catch (CelEvaluationException e) {
      throw new RuleException(rule + ": cannot plan CEL expression '" + expr.trim() + "': " + e.getMessage(), e);
    }
  }

  /** A budget for one run of the rule on a message (for CEL_FIELD, on all its fields), its clock started now. */
  CelBudget budget() {
    return limits.start();
  }

  /**
   * Whether the body is to run: there is no guard, or the guard is {@code true}. A guard that fails to evaluate
   * or answers anything else skips the body, as in Confluent's executor.
   *
   * @throws RuleException when the guard crossed a bound of {@code budget}: that is never a reason to skip
   */
  boolean admits(CelVariableResolver variables, CelBudget budget) {
    if (guard == null) {
      return true;
    }
    boolean admitted;
    try {
      admitted = Boolean.TRUE.equals(guard.trace(variables, budget));
    } catch (CelEvaluationException | RuntimeException e) {
      admitted = false;
    }
    failIfCrossed(budget);
    return admitted;
  }

  /**
   * Evaluates the body.
   *
   * @throws RuleException when it fails, naming the rule, the expression and CEL's error code, never CEL's message,
   *     which may quote a value ({@code For input string: "123-45-6789"}), but what one of Kavro's functions said
   *     ({@link CelFunctionException}, which quotes none); or when it crosses a bound of
   *     {@code budget} (whatever its value), naming the rule, the subject and the setting
   */
  Object evaluate(CelVariableResolver variables, CelBudget budget) {
    Object result;
    try {
      result = program.trace(variables, budget);
    } catch (CelEvaluationException e) {
      failIfCrossed(budget);
      throw RuleException.hidingValues(rule + ": CEL expression '" + body.trim() + "' failed: "
          + e.getErrorCode() + why(e), e);
    } catch (RuntimeException e) {
      failIfCrossed(budget);
      throw RuleException.hidingValues(rule + ": CEL expression '" + body.trim() + "' failed: "
          + e.getClass().getName() + why(e), e);
    }
    failIfCrossed(budget);
    return result;
  }

  /** What one of Kavro's functions said was wrong ({@link CelFunctionException}: never a value), or nothing. */
  private static String why(Throwable failure) {
    String message = CelFunctionException.messageIn(failure);
    return message == null ? "" : ": " + message;
  }

  private void failIfCrossed(CelBudget budget) {
    if (budget.crossed() != null) {
      throw new RuleException(where + ": the CEL expression " + budget.crossed());
    }
  }
}
