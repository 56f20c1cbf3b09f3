package io.kavro.rules.jsonata;

import com.dashjoin.jsonata.Jsonata;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Puts a {@link JsonataRegex} (RE2) in place of each regex literal of a parsed expression.
 *
 * <p>{@code com.dashjoin:jsonata} has no regex engine option (the JavaScript engine's {@code RegexEngine} "is not
 * implemented in Java", its source says): its tokenizer compiles {@code /re/} into a
 * {@code java.util.regex.Pattern} held by a node of the parsed tree, and its functions run that. The tree is not
 * public, so this reads it by reflection, once per parse: the expression's {@code ast} field and, in each node
 * ({@code Parser.Symbol}), {@code type} and {@code value}, visiting every node the fields of a node reach. A
 * version of the engine whose tree this cannot read fails every JSONata rule when it is prepared (and Kavro's
 * tests), never silently leaves a backtracking regex in place. Stateless.
 */
final class RegexLiterals {
  private static final Field AST;
  private static final Class<?> SYMBOL;
  private static final Field TYPE;
  private static final Field VALUE;
  private static final List<Field> CHILDREN;
  private static final IllegalStateException UNREADABLE;

  static {
    Field ast = null;
    Field type = null;
    Field value = null;
    List<Field> children = new ArrayList<>();
    IllegalStateException unreadable = null;
    try {
      ast = accessible(Jsonata.class.getDeclaredField("ast"));
      Class<?> symbol = ast.getType();
      type = accessible(symbol.getDeclaredField("type"));
      value = accessible(symbol.getDeclaredField("value"));
      for (Field field : symbol.getDeclaredFields()) {
        if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()
            && field.getType() != String.class) {
          children.add(accessible(field));
        }
      }
    } catch (java.lang.reflect.InaccessibleObjectException e) {
      unreadable = new IllegalStateException("Kavro reads JSONata's parsed expressions to run their regular "
          + "expressions on RE2, and the module com.dashjoin.jsonata is not open to it: on the module path, add "
          + "--add-opens com.dashjoin.jsonata/com.dashjoin.jsonata=<the module of kavro-rules>", e);
    } catch (ReflectiveOperationException | RuntimeException e) {
      unreadable = new IllegalStateException("this version of com.dashjoin:jsonata keeps its parsed expression "
          + "in a form Kavro cannot read, to run its regular expressions on RE2: use the version Kavro is built "
          + "with", e);
    }
    AST = ast;
    SYMBOL = ast == null ? null : ast.getType();
    TYPE = type;
    VALUE = value;
    CHILDREN = List.copyOf(children);
    UNREADABLE = unreadable;
  }

  private RegexLiterals() {}

  private static Field accessible(Field field) {
    field.setAccessible(true);
    return field;
  }

  /**
   * Replaces the regex literals of {@code expression}.
   *
   * @throws IllegalArgumentException when RE2 cannot run one of them, quoting it
   * @throws IllegalStateException when the engine's parsed tree cannot be read
   */
  static void useRe2(Jsonata expression) {
    if (UNREADABLE != null) {
      throw UNREADABLE;
    }
    try {
      Object root = AST.get(expression);
      Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
      Deque<Object> pending = new ArrayDeque<>();
      if (root != null) {
        pending.push(root);
      }
      while (!pending.isEmpty()) {
        Object node = pending.pop();
        if (node == null || !seen.add(node)) {
          continue;
        }
        if (SYMBOL.isInstance(node)) {
          visit(node, pending);
        } else if (node instanceof Collection<?> elements) {
          elements.forEach(pending::push);
        } else if (node instanceof Object[] elements) {
          for (Object element : elements) {
            pending.push(element);
          }
        } else if (node instanceof Map<?, ?> entries) {
          entries.values().forEach(pending::push);
        }
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read the parsed JSONata expression", e);
    }
  }

  private static void visit(Object symbol, Deque<Object> pending) throws IllegalAccessException {
    Object value = VALUE.get(symbol);
    if ("regex".equals(TYPE.get(symbol)) && value instanceof java.util.regex.Pattern parsed) {
      VALUE.set(symbol, JsonataRegex.of(parsed));
      return;
    }
    for (Field field : CHILDREN) {
      Object child = field.get(symbol);
      if (child != null && (SYMBOL.isInstance(child) || child instanceof Collection || child instanceof Object[]
          || child instanceof Map)) {
        pending.push(child);
      }
    }
  }
}
