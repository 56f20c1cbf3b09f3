package io.kavro.maven;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.schematools.LevelMismatch;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code set-compatibility}: sets the compatibility level of subjects, or the global one under the key
 * {@code __GLOBAL} (or {@code null}), as Confluent's plugin does. Every level is read before any is set, so that a
 * misspelled one changes nothing. After setting a subject's level, the level the registry then applies is read
 * back, and a difference is a warning (Apicurio keeps no subject level {@code NONE}); so is the global level. Keys
 * are subjects as written, unless {@code decodeSubject} is set.
 */
@Mojo(name = "set-compatibility", threadSafe = true)
public final class SetCompatibilityMojo extends RegistryMojo {
  /** The key of the registry's global level. */
  static final String GLOBAL = "__GLOBAL";

  /** The level of each subject (element name), or of the registry under {@code __GLOBAL}. */
  @Parameter(required = true)
  Map<String, String> compatibilityLevels;

  /**
   * Whether {@code _x} escapes in the keys are decoded ({@code my_x2Fsubject} is {@code my/subject}). Off by
   * default, as in Confluent's plugin, whose {@code set-compatibility} takes keys as written: {@code acct_xfer-value}
   * is that subject. A key whose escapes are no UTF-8 text, or that names a subject holding U+FFFD, fails the goal
   * before any level is set. A key taken as written whose {@code _xHH} escapes would decode to text is a warning,
   * naming the subject decoding would mean.
   */
  @Parameter(defaultValue = "false")
  boolean decodeSubject;

  @Override
  void run() throws MojoExecutionException {
    Map<String, CompatibilityLevel> levels = levels();
    try (SchemaRegistryClient registry = registry(false)) {
      for (Map.Entry<String, CompatibilityLevel> entry : levels.entrySet()) {
        String subject = entry.getKey();
        CompatibilityLevel level = entry.getValue();
        if (subject == null) {
          registry.setCompatibility(level);
          getLog().info("Global compatibility set to " + level);
          CompatibilityLevel global = registry.compatibility();
          if (global != level) {
            getLog().warn("the registry's global level is " + global + " after setting it to " + level);
          }
        } else {
          registry.setCompatibility(subject, level);
          getLog().info("Compatibility of subject '" + subject + "' set to " + level);
          LevelMismatch.afterSetting(subject, level, registry.compatibilityInForce(subject))
              .ifPresent(getLog()::warn);
        }
      }
    }
  }

  /** The levels by subject, {@code null} for the global one. */
  private Map<String, CompatibilityLevel> levels() throws MojoExecutionException {
    if (compatibilityLevels == null || compatibilityLevels.isEmpty()) {
      throw new MojoExecutionException("<compatibilityLevels> names no subject: give <compatibilityLevels>"
          + "<orders-value>BACKWARD</orders-value></compatibilityLevels> (" + GLOBAL + " for the global level)");
    }
    Map<String, CompatibilityLevel> levels = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : compatibilityLevels.entrySet()) {
      boolean global = entry.getKey().equalsIgnoreCase(GLOBAL) || entry.getKey().equalsIgnoreCase("null");
      String subject;
      try {
        subject = global ? null : SubjectEscapes.subject(entry.getKey(), decodeSubject);
      } catch (IllegalArgumentException e) {
        throw new MojoExecutionException("<compatibilityLevels>: " + e.getMessage(), e);
      }
      if (!global && !decodeSubject) {
        warnIfEscaped(subject);
      }
      String where = global ? "the global level" : "subject '" + subject + "'";
      String value = entry.getValue() == null ? "" : entry.getValue().strip();
      if (value.toLowerCase(Locale.ROOT).equals("null")) {
        throw new MojoExecutionException("<compatibilityLevels>: " + where + " is null, which deletes a level in "
            + "Confluent's plugin; Kavro's plugin sets levels only: give one of "
            + Arrays.toString(CompatibilityLevel.values()));
      }
      levels.put(subject, Levels.parse(where, value));
    }
    return levels;
  }

  /**
   * A warning when a key taken as written holds escapes that decode to text ({@code my_x2Forders}): the user may
   * have meant {@code my/orders}, as the other goals read it. An escape that is no text ({@code acct_xfer-value})
   * is no sign of one, and is no warning.
   */
  private void warnIfEscaped(String key) {
    String decoded;
    try {
      decoded = SubjectEscapes.decode(key);
    } catch (IllegalArgumentException e) {
      return;
    }
    if (!decoded.equals(key)) {
      getLog().warn("<compatibilityLevels>: subject '" + key + "' is taken as written; "
          + "<decodeSubject>true</decodeSubject> would mean '" + decoded + "'");
    }
  }
}
