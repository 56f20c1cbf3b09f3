package io.kavro.serde;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;

/**
 * Reader schemas derived from a writer's by the evolutions Avro resolves: fields dropped, added with defaults,
 * renamed with an alias, reordered; int to long, float or double, long to float or double, float to double,
 * string to bytes and back; enums with more symbols, in another order, or a default; unions with another branch; a value read
 * through a union that holds it. Logical types, fixed and recursive records stay as they are.
 */
final class Evolution {
  private final Random random;
  private int added;

  Evolution(Random random) {
    this.random = random;
  }

  Schema reader(Schema writer) {
    return evolve(writer, false);
  }

  private Schema evolve(Schema writer, boolean inUnion) {
    if (writer.getLogicalType() != null) {
      return writer;
    }
    Schema evolved = switch (writer.getType()) {
      case RECORD -> record(writer);
      case ENUM -> enumeration(writer);
      case ARRAY -> Schema.createArray(evolve(writer.getElementType(), false));
      case MAP -> Schema.createMap(evolve(writer.getValueType(), false));
      case UNION -> union(writer);
      case INT -> inUnion ? writer : pick(writer, Schema.Type.LONG, Schema.Type.FLOAT, Schema.Type.DOUBLE);
      case LONG -> inUnion ? writer : pick(writer, Schema.Type.FLOAT, Schema.Type.DOUBLE);
      case FLOAT -> inUnion ? writer : pick(writer, Schema.Type.DOUBLE);
      case STRING -> inUnion ? writer : pick(writer, Schema.Type.BYTES);
      case BYTES -> inUnion ? writer : pick(writer, Schema.Type.STRING);
      default -> writer;
    };
    if (!inUnion && evolved.getType() != Schema.Type.UNION && evolved.getType() != Schema.Type.NULL
        && random.nextInt(12) == 0) {
      return Schema.createUnion(Schema.create(Schema.Type.NULL), evolved); // read through a union
    }
    return evolved;
  }

  private Schema pick(Schema writer, Schema.Type... wider) {
    return random.nextInt(3) == 0 ? Schema.create(wider[random.nextInt(wider.length)]) : writer;
  }

  private Schema record(Schema writer) {
    if (Shrink.isRecursive(writer)) {
      return writer;
    }
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : writer.getFields()) {
      int roll = random.nextInt(10);
      if (roll == 0) {
        continue; // dropped: the reader skips it
      }
      Schema type = evolve(field.schema(), false);
      Schema.Field copy = roll == 1
          ? new Schema.Field("renamed" + (added++) + "_" + field.name(), type, field.doc(), field.defaultVal())
          : new Schema.Field(field.name(), type, field.doc(), field.defaultVal());
      if (roll == 1) {
        copy.addAlias(field.name());
      }
      fields.add(copy);
    }
    for (int i = random.nextInt(3); i > 0; i--) {
      fields.add(withDefault());
    }
    if (random.nextInt(3) == 0) {
      Collections.shuffle(fields, random);
    }
    return Schema.createRecord(writer.getName(), writer.getDoc(), writer.getNamespace(), false, fields);
  }

  /** A field the writer does not have, with its default. */
  private Schema.Field withDefault() {
    String name = "added" + (added++);
    return switch (random.nextInt(5)) {
      case 0 -> new Schema.Field(name, Schema.create(Schema.Type.INT), null, 7);
      case 1 -> new Schema.Field(name, Schema.create(Schema.Type.STRING), null, "d\u00e9faut");
      case 2 -> new Schema.Field(name, Schema.createUnion(Schema.create(Schema.Type.NULL),
          Schema.create(Schema.Type.LONG)), null, JsonProperties.NULL_VALUE);
      case 3 -> new Schema.Field(name, Schema.createArray(Schema.create(Schema.Type.DOUBLE)), null, List.of(1.5));
      default -> new Schema.Field(name, Schema.createMap(Schema.create(Schema.Type.BOOLEAN)), null,
          java.util.Map.of("k", true));
    };
  }

  private Schema enumeration(Schema writer) {
    List<String> symbols = new ArrayList<>(writer.getEnumSymbols());
    for (int i = random.nextInt(3); i > 0; i--) {
      symbols.add(random.nextInt(symbols.size() + 1), "NEW" + (added++));
    }
    if (random.nextBoolean()) {
      Collections.shuffle(symbols, random); // Avro resolves symbols by name, not by position
    }
    String defaultSymbol = random.nextInt(3) == 0 ? symbols.get(0) : null;
    return Schema.createEnum(writer.getName(), writer.getDoc(), writer.getNamespace(), symbols, defaultSymbol);
  }

  private Schema union(Schema writer) {
    List<Schema> branches = new ArrayList<>();
    for (Schema branch : writer.getTypes()) {
      branches.add(evolve(branch, true));
    }
    for (Schema.Type extra : List.of(Schema.Type.NULL, Schema.Type.BOOLEAN, Schema.Type.FLOAT)) {
      if (random.nextInt(4) == 0 && branches.stream().noneMatch(b -> b.getType() == extra)) {
        branches.add(Schema.create(extra));
      }
    }
    return Schema.createUnion(branches);
  }
}
