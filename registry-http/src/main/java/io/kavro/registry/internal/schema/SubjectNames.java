package io.kavro.registry.internal.schema;

import io.kavro.registry.InvalidSubjectException;

/**
 * The one rule of what a subject name may be, checked before a subject reaches a request or the in-memory
 * registry: anything but missing, empty, {@code .}, {@code ..} or text with a lone surrogate ({@link
 * InvalidSubjectException}). Every other character travels percent-encoded ({@link
 * io.kavro.registry.internal.http.Urls#encode}).
 */
public final class SubjectNames {
  private SubjectNames() {}

  /**
   * {@code subject}, when a request can carry it as itself. Only a refusal builds a message: a call on the hot path
   * passes a constant {@code verb} and pays for the scan alone.
   *
   * @param verb what the call does, a constant ("register schema"), for the message ("register schema failed: the
   *     subject '..' cannot be ...")
   * @throws InvalidSubjectException naming the subject and why, before anything is sent
   */
  public static String checked(String subject, String verb) {
    String why = problem(subject);
    if (why != null) {
      throw refused(subject, verb, why);
    }
    return subject;
  }

  /**
   * {@code subject}, when it is not missing: all a cache in front of a client that {@link #checked checks} needs
   * before the subject becomes a cache key (a subject the client refuses never reaches the cache).
   *
   * @throws InvalidSubjectException when {@code subject} is {@code null}, before anything is sent
   */
  public static String present(String subject, String verb) {
    if (subject == null) {
      throw refused(null, verb, "is missing");
    }
    return subject;
  }

  private static InvalidSubjectException refused(String subject, String verb, String why) {
    return new InvalidSubjectException(verb + " failed: the subject "
        + (subject == null ? why : "'" + subject + "' " + why) + "; nothing was sent", subject);
  }

  /** What is wrong with {@code name} as one segment of a URL path, or {@code null} when nothing is. */
  public static String problem(String name) {
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
