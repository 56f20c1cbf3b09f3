package io.kavro.serde;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.kafka.common.utils.Utils;

/**
 * The application's own classes that a schema names, found without running their static initializers: a
 * schema from the registry names them, so nothing of theirs runs just because a record arrived.
 */
final class LocalClasses {
  private static final List<String> CLASS_PROPS =
      List.of(SpecificData.CLASS_PROP, SpecificData.KEY_CLASS_PROP, SpecificData.ELEMENT_PROP);

  private LocalClasses() {}

  /**
   * The class named {@code name} (a nested class's name may use dots, as Avro's reflection writes its
   * namespace), loaded but not initialized, or {@code null} when there is none.
   */
  static Class<?> find(String name) {
    String candidate = name;
    while (true) {
      try {
        return Class.forName(candidate, false, Utils.getContextOrKafkaClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        int dot = candidate.lastIndexOf('.');
        if (dot < 0) {
          return null;
        }
        candidate = candidate.substring(0, dot) + '$' + candidate.substring(dot + 1);
      }
    }
  }

  /**
   * The names of the Java classes that {@code schema} may stand for: its records, enums and fixed, by their
   * full names, and the classes its {@code java-class} properties (and the like) name. For a schema derived
   * from the application's own class, those are the classes it is made of.
   */
  static List<String> namedBy(Schema schema) {
    Set<String> names = new HashSet<>();
    collect(schema, names, Collections.newSetFromMap(new IdentityHashMap<>()));
    return new ArrayList<>(names);
  }

  private static void collect(Schema schema, Set<String> names, Set<Schema> seen) {
    if (!seen.add(schema)) {
      return;
    }
    for (String prop : CLASS_PROPS) {
      String name = schema.getProp(prop);
      if (name != null) {
        names.add(name);
      }
    }
    switch (schema.getType()) {
      case RECORD -> {
        names.add(schema.getFullName());
        schema.getFields().forEach(field -> collect(field.schema(), names, seen));
      }
      case ENUM, FIXED -> names.add(schema.getFullName());
      case ARRAY -> collect(schema.getElementType(), names, seen);
      case MAP -> collect(schema.getValueType(), names, seen);
      case UNION -> schema.getTypes().forEach(branch -> collect(branch, names, seen));
      default -> { }
    }
  }
}
