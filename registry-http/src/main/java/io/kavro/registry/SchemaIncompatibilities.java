package io.kavro.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;

/**
 * What keeps a reader schema from reading a writer's data, in words that name the field and the difference ("enum
 * Currency lacks GBP, at Payment.currency"), from what Avro's {@link SchemaCompatibility} finds. Avro's own
 * description prints both schemas whole and says only that decoding "will or may fail".
 */
public final class SchemaIncompatibilities {
  private SchemaIncompatibilities() {}

  /**
   * Every reason data written with {@code writer} cannot be read as {@code reader}; empty when it can.
   *
   * @param reader the schema the data is to be read as
   * @param writer the schema the data was written with
   * @return one sentence per incompatibility, each naming its place in the reader's schema
   */
  public static List<String> of(Schema reader, Schema writer) {
    SchemaCompatibility.SchemaPairCompatibility result =
        SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
    if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
      return List.of();
    }
    List<String> reasons = new ArrayList<>();
    for (Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
      reasons.add(describe(reader, incompatibility));
    }
    if (reasons.isEmpty()) { // Avro found the pair incompatible without naming a place
      reasons.add("Avro finds " + writer.getFullName() + " unreadable as " + reader.getFullName());
    }
    return List.copyOf(reasons);
  }

  /** {@link #of}'s reasons in one line, or {@code null} when the reader reads the writer's data. */
  public static String summary(Schema reader, Schema writer) {
    List<String> reasons = of(reader, writer);
    return reasons.isEmpty() ? null : String.join("; ", reasons);
  }

  /**
   * The first reason a {@code candidate} schema breaks a compatibility {@code level} against a subject's versions, as
   * a registry would judge it: "BACKWARD: new schema cannot read version 1 (field Order.priority is not in the
   * writer's schema and has no default)". A transitive level is judged against every version, another against the
   * latest; the in-memory registry judges so, and the client says so when a registry refuses without a reason.
   *
   * @param level the level to judge by
   * @param versions the subject's live versions, oldest first
   * @param candidate the schema that would be registered
   * @return the reason, or empty when the level admits the schema
   */
  public static Optional<String> firstProblem(CompatibilityLevel level, List<SubjectVersion> versions,
      Schema candidate) {
    return Optional.ofNullable(first(level, versions, candidate));
  }

  /**
   * As {@link #firstProblem(CompatibilityLevel, List, Schema)}, at the level in force for {@code subject}, against
   * its live versions as {@code client} gives them, fetching only the versions the level judges against: for a
   * non-transitive level the level, the version list and the latest version (three requests from Confluent's
   * registry, whatever the number of versions); for a transitive one every version too; for {@code NONE} only the level. Each call asks the
   * registry: meant for a schema already refused, never for the record path.
   *
   * @param client the registry to ask
   * @param subject the subject the schema would be registered under
   * @param candidate the schema that would be registered
   * @return the reason, or empty when the level admits the schema
   * @throws SchemaRegistryException when the registry fails to give the level or a version
   */
  public static Optional<String> firstProblem(SchemaRegistryClient client, String subject, Schema candidate) {
    return firstProblem(client, subject, client.compatibility(subject), candidate);
  }

  /**
   * As {@link #firstProblem(SchemaRegistryClient, String, Schema)}, at a {@code level} the caller already has (the
   * level in force, read once), so that only the versions are fetched.
   *
   * @param client the registry to ask
   * @param subject the subject the schema would be registered under
   * @param level the level to judge by
   * @param candidate the schema that would be registered
   * @return the reason, or empty when the level admits the schema
   * @throws SchemaRegistryException when the registry fails to give a version
   */
  public static Optional<String> firstProblem(SchemaRegistryClient client, String subject, CompatibilityLevel level,
      Schema candidate) {
    return Optional.ofNullable(first(client, subject, level, candidate));
  }

  /**
   * The first reason the {@code candidate} breaks {@code level} against the subject's live {@code versions} (oldest
   * first), or {@code null} when it does not.
   */
  private static String first(CompatibilityLevel level, List<SubjectVersion> versions, Schema candidate) {
    if (level == CompatibilityLevel.NONE || versions.isEmpty()) {
      return null;
    }
    List<SubjectVersion> against = level.transitive() ? versions : List.of(versions.get(versions.size() - 1));
    for (SubjectVersion v : against) {
      if (level.backward()) {
        String problem = problem(candidate, v.schema(), "new schema cannot read version " + v.version());
        if (problem != null) {
          return level + ": " + problem;
        }
      }
      if (level.forward()) {
        String problem = problem(v.schema(), candidate, "version " + v.version() + " cannot read the new schema");
        if (problem != null) {
          return level + ": " + problem;
        }
      }
    }
    return null;
  }

  /**
   * As {@link #first(CompatibilityLevel, List, Schema)}, against the subject's live versions as {@code
   * client} gives them, fetching only those the level judges against: the latest, or every one for a transitive
   * level; none for {@code NONE}. So a non-transitive level costs two requests (the version list and the latest),
   * whatever the number of versions, fresh from the registry.
   */
  private static String first(SchemaRegistryClient client, String subject, CompatibilityLevel level,
      Schema candidate) {
    if (level == CompatibilityLevel.NONE) {
      return null;
    }
    List<Integer> numbers = client.versions(subject);
    if (numbers.isEmpty()) {
      return null;
    }
    List<Integer> against = level.transitive() ? numbers : List.of(numbers.get(numbers.size() - 1));
    List<SubjectVersion> versions = new ArrayList<>(against.size());
    for (int number : against) {
      versions.add(client.version(subject, number));
    }
    return first(level, versions, candidate);
  }

  private static String problem(Schema reader, Schema writer, String what) {
    String reasons = summary(reader, writer);
    return reasons == null ? null : what + " (" + reasons + ")";
  }

  private static String describe(Schema reader, Incompatibility incompatibility) {
    Schema readerPart = incompatibility.getReaderFragment();
    Schema writerPart = incompatibility.getWriterFragment();
    String at = path(reader, incompatibility.getLocation());
    return switch (incompatibility.getType()) {
      case MISSING_ENUM_SYMBOLS -> "enum " + readerPart.getName() + " lacks "
          + symbols(incompatibility.getMessage()) + ", at " + at;
      case READER_FIELD_MISSING_DEFAULT_VALUE -> "field " + at + " is not in the writer's schema and has no default";
      case TYPE_MISMATCH -> at + " is " + type(writerPart) + " in the writer's schema and " + type(readerPart)
          + " in the reader's";
      case MISSING_UNION_BRANCH -> at + ": the reader's union " + type(readerPart) + " has no branch for the writer's "
          + type(writerBranch(writerPart, incompatibility.getLocation()));
      case NAME_MISMATCH -> at + " is named " + writerPart.getFullName() + " in the writer's schema and "
          + readerPart.getFullName() + " in the reader's, and no alias joins them";
      case FIXED_SIZE_MISMATCH -> "fixed " + readerPart.getFullName() + " is " + writerPart.getFixedSize()
          + " bytes in the writer's schema and " + readerPart.getFixedSize() + " in the reader's, at " + at;
    };
  }

  /** The writer's union branch a location ends in, or the writer's part itself when it is no union. */
  private static Schema writerBranch(Schema writerPart, String location) {
    if (writerPart.getType() != Schema.Type.UNION) {
      return writerPart;
    }
    String last = location.substring(location.lastIndexOf('/') + 1);
    try {
      return writerPart.getTypes().get(Integer.parseInt(last));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      return writerPart;
    }
  }

  /** "[GBP, JPY]" as Avro puts the missing symbols, to "GBP, JPY". */
  private static String symbols(String message) {
    return message.startsWith("[") && message.endsWith("]") ? message.substring(1, message.length() - 1) : message;
  }

  /**
   * A location such as {@code /fields/2/type/items} as a field path in the reader's schema ({@code
   * Order.lines[].price}); the location itself where the schema does not lead the way.
   */
  static String path(Schema reader, String location) {
    StringBuilder path = new StringBuilder(reader.getType() == Schema.Type.RECORD ? reader.getName() : type(reader));
    Schema at = reader;
    String[] steps = location.isEmpty() ? new String[0] : location.substring(1).split("/");
    for (int i = 0; i < steps.length; i++) {
      String step = steps[i];
      switch (step) {
        case "fields" -> {
          Schema record = branch(at, Schema.Type.RECORD);
          int pos = i + 1 < steps.length ? index(steps[i + 1]) : -1;
          if (record == null || pos < 0 || pos >= record.getFields().size()) {
            return location;
          }
          Schema.Field field = record.getFields().get(pos);
          path.append('.').append(field.name());
          at = field.schema();
          i++;
          if (i + 1 < steps.length && steps[i + 1].equals("type")) {
            i++;
          }
        }
        case "items" -> {
          Schema array = branch(at, Schema.Type.ARRAY);
          if (array == null) {
            return location;
          }
          path.append("[]");
          at = array.getElementType();
        }
        case "values" -> {
          Schema map = branch(at, Schema.Type.MAP);
          if (map == null) {
            return location;
          }
          path.append("{}");
          at = map.getValueType();
        }
        default -> {
          // "symbols", "size", "name", or a writer union's branch index: no step in the reader's schema
        }
      }
    }
    return path.toString();
  }

  private static int index(String step) {
    try {
      return Integer.parseInt(step);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The schema itself when of the type, else its first union branch of it, else {@code null}. */
  private static Schema branch(Schema schema, Schema.Type type) {
    if (schema.getType() == type) {
      return schema;
    }
    if (schema.getType() == Schema.Type.UNION) {
      return schema.getTypes().stream().filter(s -> s.getType() == type).findFirst().orElse(null);
    }
    return null;
  }

  /** A type as a schema's author writes it: {@code double}, {@code enum Currency}, {@code [null, string]}. */
  private static String type(Schema schema) {
    return switch (schema.getType()) {
      case RECORD -> "record " + schema.getName();
      case ENUM -> "enum " + schema.getName();
      case FIXED -> "fixed " + schema.getName();
      case ARRAY -> "array of " + type(schema.getElementType());
      case MAP -> "map of " + type(schema.getValueType());
      case UNION -> schema.getTypes().stream().map(SchemaIncompatibilities::type)
          .collect(Collectors.joining(", ", "[", "]"));
      default -> schema.getType().getName();
    };
  }
}
