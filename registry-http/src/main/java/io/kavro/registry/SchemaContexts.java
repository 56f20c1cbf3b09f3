package io.kavro.registry;

/**
 * Schema contexts as Confluent's registry spells them: a context-qualified subject is {@code :.ctx:name}, and the
 * context {@code :.ctx:} numbers its schema ids apart from every other context (the default context, which has no
 * qualifier, among them). What is written here is read from Confluent's {@code QualifiedSubject}: a context name
 * may be given with or without its colons and its leading dot ({@code ctx}, {@code .ctx}, {@code :.ctx:} are one
 * context); {@code .} is the default context; a colon inside the name is refused.
 */
public final class SchemaContexts {
  /** The qualifier of the default context: none. */
  public static final String DEFAULT = "";

  private SchemaContexts() {}

  /**
   * The qualifier of context {@code context}, as a subject of it starts: {@code :.ctx:} for {@code ctx}, {@code .ctx}
   * or {@code :.ctx:}; {@link #DEFAULT} for {@code null}, empty, {@code .} or {@code :.:}.
   *
   * @throws IllegalArgumentException naming the context, when its name holds a colon
   */
  public static String qualifier(String context) {
    if (context == null) {
      return DEFAULT;
    }
    String name = context;
    if (name.startsWith(":")) {
      name = name.substring(1);
    }
    if (name.endsWith(":")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.contains(":")) {
      throw new IllegalArgumentException("the schema context name '" + context + "' holds a colon, which only "
          + "delimits a context (':.ctx:subject')");
    }
    if (!name.startsWith(".")) {
      name = "." + name;
    }
    return name.equals(".") ? DEFAULT : ":" + name + ":";
  }

  /**
   * The qualifier of the context {@code subject} is in: {@code :.ctx:} for {@code :.ctx:orders-value} (and for
   * {@code :.ctx}, the context itself); {@link #DEFAULT} for a subject that is not qualified, or is qualified with
   * the default context ({@code :.:orders-value}).
   */
  public static String of(String subject) {
    if (subject == null || !subject.startsWith(":.")) {
      return DEFAULT;
    }
    int end = subject.indexOf(':', 2);
    String qualifier = end < 0 ? subject + ":" : subject.substring(0, end + 1);
    return qualifier.equals(":.:") ? DEFAULT : qualifier;
  }

  /**
   * {@code subject} in context {@code qualifier} (as {@link #qualifier} gives it), as Confluent's serde names a
   * subject in the context its {@code context.name.strategy} gives: the qualifier, then the subject.
   */
  public static String qualify(String qualifier, String subject) {
    return qualifier.isEmpty() ? subject : qualifier + subject;
  }
}
