package io.kavro.serde;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificFixed;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * The application's own classes, which Avro may load by the names that a schema gives them. Avro refuses to
 * load a class by name unless it is trusted: from 1.12.2 any class, through a JVM-wide validator; before, the
 * classes of {@code java-class} properties, per reader. Kavro trusts exactly the classes the application
 * hands it: the class of a datum it writes by reflection, a generated class it reads into, and the classes
 * that the schemas Avro derives from those classes name. A class that only a registry's schema names is never
 * trusted here.
 *
 * <p>On Avro 1.12.2 and later the trust is added to Avro's {@code ClassSecurityValidator}: Kavro composes
 * its predicate with the one installed (Avro's default reads {@code org.apache.avro.SERIALIZABLE_PACKAGES}
 * and {@code SERIALIZABLE_CLASSES}) and never replaces it; if something installs another predicate later,
 * the next class trusted composes with that one. Classes are held weakly. Thread-safe.
 *
 * <p>Package-private on purpose: adding to Avro's JVM-wide trust widens what Avro loads by name, so only Kavro's
 * planners, which hand it the application's own classes, may call it.
 */
final class ClassTrust {
  private static final Set<Class<?>> TRUSTED =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private ClassTrust() {}

  /**
   * Trusts {@code type}, which the application handed to Kavro, and the classes that {@code derived} (the
   * schema Avro derived from it) names: its nested records, enums and fixed, and its {@code java-class}
   * properties.
   */
  static void trust(Class<?> type, Schema derived) {
    Set<Class<?>> classes = new LinkedHashSet<>();
    classes.add(type);
    classes.addAll(namedBy(derived));
    add(classes);
  }

  /**
   * Trusts a generated class that a specific reader reads into, with the generated records, enums and
   * fixed that its schema names; any other class named there is left to Avro's own rules.
   */
  static void trustGenerated(Class<?> type, Schema schema) {
    Set<Class<?>> generated = new LinkedHashSet<>();
    generated.add(type);
    for (Class<?> named : namedBy(schema)) {
      if (isGenerated(named)) {
        generated.add(named);
      }
    }
    add(generated);
  }

  private static void add(Set<Class<?>> classes) {
    TRUSTED.addAll(classes);
    if (AvroFeatures.VALIDATES_EVERY_CLASS) {
      Validator.install();
    }
  }

  /**
   * Whether the application handed Kavro this class (or one whose schema names it), or trusts it itself
   * through Avro's system properties {@code org.apache.avro.SERIALIZABLE_CLASSES} and
   * {@code org.apache.avro.SERIALIZABLE_PACKAGES} (read the same way on every Avro version).
   */
  static boolean isTrusted(Class<?> type) {
    return TRUSTED.contains(type) || UserTrust.trusts(type);
  }

  /** The classes and packages that the application lists in Avro's system properties. */
  private static final class UserTrust {
    private static final Set<String> CLASSES = entries("org.apache.avro.SERIALIZABLE_CLASSES");
    private static final Set<String> PACKAGES = entries("org.apache.avro.SERIALIZABLE_PACKAGES");

    static boolean trusts(Class<?> type) {
      String name = type.getName();
      if (PACKAGES.contains("*") || CLASSES.contains(name)) {
        return true;
      }
      for (String pkg : PACKAGES) {
        if (name.startsWith(pkg + ".")) {
          return true;
        }
      }
      return false;
    }

    private static Set<String> entries(String property) {
      Set<String> entries = new HashSet<>();
      String value = System.getProperty(property);
      if (value != null) {
        for (String entry : value.split(",")) {
          if (!entry.isBlank()) {
            entries.add(entry.strip());
          }
        }
      }
      return Set.copyOf(entries);
    }
  }

  /** Whether {@code type} is one that avro-maven-plugin generates: a record, an enum or a fixed. */
  private static boolean isGenerated(Class<?> type) {
    return SpecificRecord.class.isAssignableFrom(type) || SpecificFixed.class.isAssignableFrom(type)
        || type.isEnum() && GenericEnumSymbol.class.isAssignableFrom(type);
  }

  /**
   * Lets {@code reader} load the trusted classes that {@code schema} names in {@code java-class} properties.
   * Before Avro 1.12.2 each reader checks those by package; from 1.12.2 the JVM-wide validator decides, and
   * this does nothing.
   */
  @SuppressWarnings("deprecation")
  static void allowIn(SpecificDatumReader<?> reader, Schema schema) {
    if (AvroFeatures.VALIDATES_EVERY_CLASS) {
      return;
    }
    for (Class<?> named : namedBy(schema)) {
      if (TRUSTED.contains(named) && named.getPackage() != null) {
        reader.getTrustedPackages().add(named.getPackage().getName());
      }
    }
  }

  /** The classes that a schema names and that are on the class path, loaded without being initialized. */
  private static Set<Class<?>> namedBy(Schema schema) {
    Set<Class<?>> classes = new HashSet<>();
    for (String name : LocalClasses.namedBy(schema)) {
      Class<?> type = LocalClasses.find(name);
      if (type != null) {
        classes.add(type);
      }
    }
    return classes;
  }

  /** Kavro's predicate in Avro 1.12.2's validator; only loaded where that class exists. */
  private static final class Validator {
    private static final ClassSecurityValidator.ClassSecurityPredicate KAVRO = TRUSTED::contains;
    private static ClassSecurityValidator.ClassSecurityPredicate installed;

    static synchronized void install() {
      ClassSecurityValidator.ClassSecurityPredicate current = ClassSecurityValidator.getGlobal();
      if (current != installed) {
        installed = ClassSecurityValidator.composite(current, KAVRO);
        ClassSecurityValidator.setGlobal(installed);
      }
    }
  }
}
