package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * The spun writers of generated records nested {@value Nested#DEPTH} levels deep: a value the spun writers do not
 * take deep down costs each level a write or two, not one write per path through the levels' fallbacks (each
 * fallback loop re-entering the nested records' spun writers cost 2^depth writes: a hang for a deep schema).
 * Counted by the records themselves: every write of a record, spun or by the loop, reads its field 0 once.
 */
class SpunWriterNestingTest {
  private static final SpecificData MODEL = new SpecificData();
  /** At most a spun write and a loop's write per level. */
  private static final int AT_MOST = 2 * (Nested.DEPTH + 1);

  static {
    // As the serializer's planner does before compiling: the classes of the records the application hands it.
    ClassTrust.trustGenerated(Nest0.class, Nested.SCHEMAS.get(0));
  }

  @Test
  void nullInANonNullableFieldDeepDown_fewWrites_theLoopsFailureNamingTheField() {
    List<Nested> levels = Nested.chain();
    levels.get(Nested.DEPTH).put(2, null); // name: a string, not nullable
    CompiledEncoder encoder = EncoderCompiler.compile(Nested.SCHEMAS.get(0), MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).as("spun: its fallback is what is tested").isNotNull();

    Throwable failure = catchThrowable(() -> encoder.encode(levels.get(0), new ByteSink()));

    assertThat(failure).isExactlyInstanceOf(NullPointerException.class)
        .hasMessage("null value for (non-nullable) field Nest" + Nested.DEPTH + ".name");
    assertThat(Nested.writes(levels)).as("writes of levels 0..%s: %s", Nested.DEPTH,
        Arrays.toString(Nested.perLevel(levels)))
        .isLessThanOrEqualTo(AT_MOST);
    assertThat(Arrays.stream(Nested.perLevel(levels)).max().orElseThrow()).as("writes of one level")
        .isLessThanOrEqualTo(2);
  }

  /**
   * A value deep down whose class fails to link (the datum's, not the spun classes'): each level a write or two, the
   * Error thrown as it is, and no level's spun class switched off.
   */
  @Test
  void aValueThatFailsToLinkDeepDown_fewWrites_theErrorAsItIs() {
    List<Nested> levels = Nested.chain();
    levels.get(Nested.DEPTH).put(2, new UnlinkableText()); // name: a string
    CompiledEncoder encoder = EncoderCompiler.compile(Nested.SCHEMAS.get(0), MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).as("spun: its fallback is what is tested").isNotNull();

    Throwable failure = catchThrowable(() -> encoder.encode(levels.get(0), new ByteSink()));

    assertThat(failure).isExactlyInstanceOf(NoClassDefFoundError.class);
    assertThat(Nested.writes(levels)).as("writes of levels 0..%s: %s", Nested.DEPTH,
        Arrays.toString(Nested.perLevel(levels)))
        .isLessThanOrEqualTo(AT_MOST);
    assertThat(Arrays.stream(Nested.perLevel(levels)).max().orElseThrow()).as("writes of one level")
        .isLessThanOrEqualTo(2);
    assertThat(SpunWriter.unlinked(encoder)).as("the top level's spun class switched off").isFalse();
  }

  @Test
  void aWrongTypeDeepDown_fewWrites_theLoopsFailure() {
    List<Nested> levels = Nested.chain();
    levels.get(Nested.DEPTH).put(2, 42); // an Integer in a string field
    // A subclass of the specific model is never spun: its failure is the loop's.
    Throwable loop = catchThrowable(() -> EncoderCompiler.compile(Nested.SCHEMAS.get(0), new SpecificData() { })
        .encode(levels.get(0), new ByteSink()));
    Nested.clearCounts(levels);

    Throwable spun = catchThrowable(() -> EncoderCompiler.compile(Nested.SCHEMAS.get(0), MODEL)
        .encode(levels.get(0), new ByteSink()));

    assertThat(loop).isInstanceOf(ClassCastException.class);
    assertThat(spun).isExactlyInstanceOf(loop.getClass()).hasMessage(loop.getMessage());
    assertThat(Nested.writes(levels)).as("writes of levels 0..%s: %s", Nested.DEPTH,
        Arrays.toString(Nested.perLevel(levels)))
        .isLessThanOrEqualTo(AT_MOST);
    assertThat(Arrays.stream(Nested.perLevel(levels)).max().orElseThrow()).as("writes of one level")
        .isLessThanOrEqualTo(2);
  }

  @Test
  void aValueOnlyTheLoopTakesDeepDown_thatRecordWrittenAgain_sameBytesAsAvro() {
    List<Nested> levels = Nested.chain();
    levels.get(Nested.DEPTH).put(1, new StringBuilder("built")); // note: ["null", "string"], resolved by Avro
    byte[] avro = AvroBytes.written(new SpecificDatumWriter<>(Nested.SCHEMAS.get(0), MODEL), levels.get(0));
    Nested.clearCounts(levels);
    CompiledEncoder encoder = EncoderCompiler.compile(Nested.SCHEMAS.get(0), MODEL);

    ByteSink sink = new ByteSink();
    encoder.encode(levels.get(0), sink);

    assertThat(sink.toByteArray()).isEqualTo(avro);
    int[] expected = new int[Nested.DEPTH + 1];
    Arrays.fill(expected, 1);
    expected[Nested.DEPTH] = 2; // spun, then by its loop
    assertThat(Nested.perLevel(levels)).containsExactly(expected);
  }

  @Test
  void goodValues_eachLevelWrittenOnce_sameBytesAsAvro() {
    List<Nested> levels = Nested.chain();
    byte[] avro = AvroBytes.written(new SpecificDatumWriter<>(Nested.SCHEMAS.get(0), MODEL), levels.get(0));
    Nested.clearCounts(levels);
    CompiledEncoder encoder = EncoderCompiler.compile(Nested.SCHEMAS.get(0), MODEL);

    ByteSink sink = new ByteSink();
    encoder.encode(levels.get(0), sink);

    assertThat(sink.toByteArray()).isEqualTo(avro);
    int[] once = new int[Nested.DEPTH + 1];
    Arrays.fill(once, 1);
    assertThat(Nested.perLevel(levels)).containsExactly(once);
  }
}

/**
 * A record of level {@code n} of a chain shaped as avro-maven-plugin generates records: {@code NestN} holds a long
 * and level {@code n + 1} (directly on even levels, in {@code ["null", Nest]} on odd ones); the last level holds a
 * long, a nullable and a non-nullable string. Counts its writes.
 */
abstract class Nested extends FieldsInAnArray {
  static final int DEPTH = 12;
  static final List<Schema> SCHEMAS = schemas();
  private int writes;

  Nested(int level) {
    super(SCHEMAS.get(level));
  }

  @Override
  public Object get(int field) {
    if (field == 0) {
      writes++;
    }
    return super.get(field);
  }

  /** Levels 0 to {@link #DEPTH}, each holding the next, with values that fit. */
  static List<Nested> chain() {
    List<Nested> levels = List.of(new Nest0(), new Nest1(), new Nest2(), new Nest3(), new Nest4(), new Nest5(),
        new Nest6(), new Nest7(), new Nest8(), new Nest9(), new Nest10(), new Nest11(), new Nest12());
    for (int n = 0; n < DEPTH; n++) {
      levels.get(n).put(0, (long) n);
      levels.get(n).put(1, levels.get(n + 1));
    }
    levels.get(DEPTH).put(0, -1L);
    levels.get(DEPTH).put(1, null);
    levels.get(DEPTH).put(2, "leaf");
    return levels;
  }

  static int[] perLevel(List<Nested> levels) {
    return levels.stream().mapToInt(level -> level.writes).toArray();
  }

  static int writes(List<Nested> levels) {
    return Arrays.stream(perLevel(levels)).sum();
  }

  static void clearCounts(List<Nested> levels) {
    levels.forEach(level -> level.writes = 0);
  }

  private static List<Schema> schemas() {
    String json = "{\"type\":\"record\",\"name\":\"Nest" + DEPTH + "\",\"namespace\":\"io.kavro.serde\",\"fields\":["
        + "{\"name\":\"n\",\"type\":\"long\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]},"
        + "{\"name\":\"name\",\"type\":\"string\"}]}";
    for (int n = DEPTH - 1; n >= 0; n--) {
      json = "{\"type\":\"record\",\"name\":\"Nest" + n + "\",\"namespace\":\"io.kavro.serde\",\"fields\":["
          + "{\"name\":\"n\",\"type\":\"long\"},{\"name\":\"next\",\"type\":"
          + (n % 2 == 0 ? json : "[\"null\"," + json + "]") + "}]}";
    }
    List<Schema> schemas = new ArrayList<>();
    Schema schema = new Schema.Parser().parse(json);
    schemas.add(schema);
    for (int n = 0; n < DEPTH; n++) {
      Schema next = schema.getField("next").schema();
      schema = next.getType() == Schema.Type.UNION ? next.getTypes().get(1) : next;
      schemas.add(schema); // the very schema its parent holds: the union's encoder knows it by identity
    }
    return List.copyOf(schemas);
  }
}

// One class per level, named as its schema: Avro's specific model finds a record's class by its full name.
class Nest0 extends Nested { Nest0() { super(0); } }

class Nest1 extends Nested { Nest1() { super(1); } }

class Nest2 extends Nested { Nest2() { super(2); } }

class Nest3 extends Nested { Nest3() { super(3); } }

class Nest4 extends Nested { Nest4() { super(4); } }

class Nest5 extends Nested { Nest5() { super(5); } }

class Nest6 extends Nested { Nest6() { super(6); } }

class Nest7 extends Nested { Nest7() { super(7); } }

class Nest8 extends Nested { Nest8() { super(8); } }

class Nest9 extends Nested { Nest9() { super(9); } }

class Nest10 extends Nested { Nest10() { super(10); } }

class Nest11 extends Nested { Nest11() { super(11); } }

class Nest12 extends Nested { Nest12() { super(12); } }
