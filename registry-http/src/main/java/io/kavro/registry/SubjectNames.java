package io.kavro.registry;

/**
 * The one rule of what a subject name may be, checked before a subject reaches a request or the in-memory
 * registry: anything but missing, empty, {@code .}, {@code ..} or text with a lone surrogate ({@link
 * InvalidSubjectException}). Every other character travels percent-encoded ({@link Urls#encode}).
 */
final class SubjectNames {
  private SubjectNames() {}

  /**
   * {@code subject}, when a request can carry it as itself.
   *
   * @param operation what the call does, for the message ("register schema under subject 'x'")
   * @throws InvalidSubjectException naming the subject and why, before anything is sent
   */
  static String checked(String subject, String operation) {
    String why = problem(subject);
    if (why != null) {
      throw new InvalidSubjectException(operation + " failed: the subject "
          + (subject == null ? "is missing" : "'" + subject + "' " + why) + "; nothing was sent", subject);
    }
    return subject;
  }

  /** What is wrong with {@code name} as one segment of a URL path, or {@code null} when nothing is. */
  static String problem(String name) {
    if (name == null) {
      return "is missing";
    }
    if (name.isEmpty() || name.equals(".") || name.equals("..")) {
      return "cannot be a name in a URL path: URLs fold an empty segment into the next and resolve '.' and '..' "
          + "away, so the request would reach another name or endpoint (a name must not be empty, '.' or '..')";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return "holds a lone UTF-16 surrogate at index " + i + ", which UTF-8 cannot carry";
      }
    }
    return null;
  }
}
