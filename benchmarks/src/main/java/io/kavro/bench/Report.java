package io.kavro.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;

/**
 * Turns a JMH JSON result (with {@code -prof gc}) into {@code RESULTS.md}: times, allocations, the ratios
 * the targets are stated in and whether each is met, plus payload sizes and the heap each cached schema costs,
 * which it measures itself. Where it replaces a RESULTS.md, the sections measured anew show the previous figures
 * beside the new ones.
 *
 * <pre>Report [--previous &lt;steady.json&gt; &lt;label&gt;] &lt;RESULTS.md&gt; &lt;quick|full&gt; &lt;jmh.json&gt;...</pre>
 * <pre>Report --sections &lt;RESULTS.md&gt; &lt;settings&gt; &lt;jmh.json&gt;...</pre> (many schemas, Kafka's clients, rules:
 * spliced in place)
 */
public final class Report {
  private final Map<String, JsonNode> results = new LinkedHashMap<>();
  private final StringBuilder md = new StringBuilder();
  private final List<String[]> targets = new ArrayList<>();

  private Report(List<JsonNode> jmhFiles) {
    for (JsonNode jmh : jmhFiles) {
      for (JsonNode run : jmh) {
        String name = run.get("benchmark").asText().replace("io.kavro.bench.", "");
        String shape = run.path("params").path("shape").asText("");
        JsonNode params = run.path("params");
        String variant = params.path("fast").asText(params.path("schemas").asText(params.path("rules")
            .asText(params.path("serde").asText(""))));
        results.put(name + "/" + shape + (variant.isEmpty() ? "" : "#" + variant), run);
      }
    }
  }

  /**
   * The whole results file of {@code runs} in {@code mode}, rendered over the {@code old} one, without the figures
   * that Report measures itself (each cached schema's heap, payload sizes: tens of seconds of work): its layout, for
   * tests.
   */
  static String renderedWithoutOwnMeasures(List<JsonNode> runs, String old, String mode) throws Exception {
    Report report = new Report(runs);
    report.old = old;
    report.measuresItself = false;
    return report.render(mode);
  }

  /** The Kafka clients' section, then the targets and what bounds those missed, of {@code runs} alone. */
  static String clientsAndTargets(List<JsonNode> runs) {
    Report report = new Report(runs);
    report.clients();
    report.checkTargets();
    return report.md.toString();
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--rules-section")) {
      spliceSections(Path.of(args[1]), List.of(new ObjectMapper().readTree(Path.of(args[2]).toFile())), args[3],
          List.of(RULES));
      return;
    }
    if (args.length > 0 && args[0].equals("--sections")) {
      List<JsonNode> runs = new ArrayList<>();
      for (int i = 3; i < args.length; i++) {
        runs.add(new ObjectMapper().readTree(Path.of(args[i]).toFile()));
      }
      spliceSections(Path.of(args[1]), runs, args[2], List.of(MANY_SCHEMAS, CLIENTS, RULES));
      return;
    }
    Report previous = null;
    String previousLabel = null;
    if (args.length > 0 && args[0].equals("--previous")) {
      previous = new Report(List.of(new ObjectMapper().readTree(Path.of(args[1]).toFile())));
      previousLabel = args[2];
      args = java.util.Arrays.copyOfRange(args, 3, args.length);
    }
    List<JsonNode> files = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      files.add(new ObjectMapper().readTree(Path.of(args[i]).toFile()));
    }
    Report report = new Report(files);
    report.old = Files.exists(Path.of(args[0])) ? Files.readString(Path.of(args[0])) : "";
    String text = report.render(args[1]);
    if (previous != null) {
      text = text + report.againstPrevious(previous, previousLabel);
    }
    Files.writeString(Path.of(args[0]), text);
    System.out.println(text);
  }

  private String render(String mode) throws Exception {
    line("# Kavro benchmark results");
    line("");
    line("Produced by `benchmarks/run " + ("quick".equals(mode) ? "--quick" : "--full") + "` on " + LocalDate.now()
        + ". " + machine());
    line("");
    line("All numbers of a table come from one JMH run, side by side in the same JVM build. Times are JMH "
        + "average time per record (ns/op, lower is better) with their 99.9% error; allocations are "
        + "`-prof gc` `gc.alloc.rate.norm` (bytes/op). Records are rotated through 1,024 generated from a fixed "
        + "seed, in Avro's raw generic form. Kavro runs on a pre-warmed `mock://` registry; the harness fails "
        + "any iteration in which Kavro made a registry request. Apicurio's serde (2.6.13) runs with headers off "
        + "and the 4-byte id handler (the same 5-byte framing), auto-registration on, against a real Apicurio "
        + "Registry on 127.0.0.1, with every record serialized and deserialized once before measuring." 
        + ("quick".equals(mode) ? " **Quick mode**: few and short iterations on a shared 2-core machine; read "
            + "the ratios as rough." : ""));
    line("");
    table("Serialize", "SerializeBenchmark", List.of(Shape.S1, Shape.S2, Shape.S3), "ApicurioBenchmark.serialize");
    serializeLimits();
    table("Deserialize", "DeserializeBenchmark", List.of(Shape.S1, Shape.S2, Shape.S3, Shape.S4),
        "ApicurioBenchmark.deserialize");
    deserializeLimits();
    specific();
    javaRecords();
    converter();
    manySchemas();
    clients();
    md.append(ClientRounds.sectionsIn(old)); // measured apart, by benchmarks/run --client-rounds: kept as they are
    rules();
    checkTargets();
    firstMessage();
    firstRecordWarm();
    payloadSizes();
    return md.toString();
  }

  private void table(String title, String benchmark, List<Shape> shapes, String apicurio) {
    line("## " + title);
    line("");
    line("| shape | Kavro ns/op | Kavro, generic codec ns/op | raw Avro ns/op | Apicurio ns/op | Kavro/raw | "
        + "Kavro generic/raw | Apicurio/Kavro | Kavro B/op | raw B/op | Apicurio B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|---|");
    for (Shape shape : shapes) {
      JsonNode kavro = results.get(benchmark + ".kavro/" + shape);
      JsonNode generic = results.get(benchmark + ".kavroGeneric/" + shape);
      JsonNode raw = results.get(benchmark + ".raw/" + shape);
      JsonNode api = results.get(apicurio + "/" + shape);
      line("| " + shape + " | " + time(kavro) + " | " + time(generic) + " | " + time(raw) + " | " + time(api) + " | "
          + ratio(kavro, raw) + " | " + ratio(generic, raw) + " | " + ratio(api, kavro) + " | " + alloc(kavro)
          + " | " + alloc(raw) + " | " + alloc(api) + " |");
    }
    line("");
    line("Kavro runs with its defaults, so with the compiled codecs (`avro.fast.codec=true`); the generic-codec "
        + "column is Kavro with `avro.fast.codec=false`, that is Avro's own datum writer or reader inside Kavro.");
    line("");
  }

  /** The serialize limits' section alone, for tests. */
  /** The comparison with a previous run alone, of these JMH results against {@code before}'s, for tests. */
  static String againstPrevious(List<JsonNode> runs, List<JsonNode> before) {
    Report report = new Report(runs);
    report.checkTargets();
    return report.againstPrevious(new Report(before), "a test");
  }

  static String serializeLimits(List<JsonNode> runs) {
    Report report = new Report(runs);
    report.serializeLimits();
    return report.md.toString();
  }

  private void serializeLimits() {
    line("## Serialize: how far any writer can go");
    line("");
    line("`SerializeLimitsBenchmark`, one run, side by side: Kavro and raw Avro again, a writer written by hand for "
        + "exactly this schema's generic records (straight-line code, every field through `get(int)` with its cast, "
        + "every call monomorphic, into a reused array, Kavro's framing, one exact-size copy out; independent of "
        + "Kavro's codec and checked in set-up to write Kavro's bytes for every record: what one writer "
        + "hand-written for exactly this schema reaches, not a bound; its strings are encoded by the same char loop "
        + "as Kavro's `ByteSink`, so it cannot show a faster string encoding), a copy of each record's bytes "
        + "already serialized (the output array alone, which any serializer allocates: a floor), and that copy with "
        + "every value of the record read as any serializer must at least read it (each field through `get(int)`, "
        + "each number unboxed, each list element and map entry, each string's length and first char, each "
        + "buffer's length and first byte: one char of a string where a serializer reads them all, so it does less "
        + "than any serializer must): the floor.");
    line("");
    line("| shape | Kavro ns/op | hand-written ns/op | output only ns/op | values read and output ns/op | "
        + "raw Avro ns/op | Kavro/raw | hand-written/raw | Kavro/hand-written | Kavro/floor (time) | Kavro B/op | "
        + "hand-written B/op | values read and output B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      JsonNode kavro = results.get("SerializeLimitsBenchmark.kavro/" + shape);
      JsonNode hand = results.get("SerializeLimitsBenchmark.handWritten/" + shape);
      JsonNode output = results.get("SerializeLimitsBenchmark.outputOnly/" + shape);
      JsonNode floor = results.get("SerializeLimitsBenchmark.valuesReadAndOutput/" + shape);
      JsonNode raw = results.get("SerializeLimitsBenchmark.raw/" + shape);
      line("| " + shape + " | " + time(kavro) + " | " + time(hand) + " | " + time(output) + " | " + time(floor)
          + " | " + time(raw) + " | " + ratio(kavro, raw) + " | " + ratio(hand, raw) + " | " + ratio(kavro, hand)
          + " | " + ratio(kavro, floor) + " | " + alloc(kavro) + " | " + alloc(hand) + " | " + alloc(floor) + " |");
    }
    line("");
  }

  private void deserializeLimits() {
    line("## Deserialize: how far any reader can go");
    line("");
    line("`DeserializeLimitsBenchmark`, one run, side by side: Kavro and raw Avro again, a reader written by hand "
        + "for exactly this schema (straight-line code, every call monomorphic, on Avro's own decoder, the same "
        + "result: the ceiling of any generated reader, bytecode included), and the bare allocation of the same "
        + "object graph without reading a byte (the same classes, lengths, counts and boxed values, planned from "
        + "each record beforehand: the floor under any reader that returns Avro's generic records).");
    line("");
    line("| shape | Kavro ns/op | hand-written ns/op | allocation only ns/op | raw Avro ns/op | Kavro/raw | "
        + "hand-written/raw | allocation only/raw | Kavro B/op | allocation only B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|");
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      JsonNode kavro = results.get("DeserializeLimitsBenchmark.kavro/" + shape);
      JsonNode hand = results.get("DeserializeLimitsBenchmark.handWritten/" + shape);
      JsonNode floor = results.get("DeserializeLimitsBenchmark.allocationOnly/" + shape);
      JsonNode raw = results.get("DeserializeLimitsBenchmark.raw/" + shape);
      line("| " + shape + " | " + time(kavro) + " | " + time(hand) + " | " + time(floor) + " | " + time(raw) + " | "
          + ratio(kavro, raw) + " | " + ratio(hand, raw) + " | " + ratio(floor, raw) + " | " + alloc(kavro) + " | "
          + alloc(floor) + " |");
    }
    line("");
    line("On Kavro's own decoder, in the same run, from Kavro's read down to the decoding alone: Kavro with "
        + "`TopicNameStrategy` subjects (no per-record check of the topic's schema context, which the default "
        + "`AssociatedNameStrategy` makes), Kavro's compiled decoder of the shape called directly (no framing, no "
        + "route lookup), a reader written by hand for the shape on that decoder (the calls Kavro's decoder makes, "
        + "straight-line, every call monomorphic, the same graph: the ceiling of any reader on Kavro's decoder), and "
        + "that decoder reading every value into reused buffers without building anything (this decoding, through "
        + "the decoder's general string and union calls, not the fast paths Kavro's reader takes: a reference "
        + "point, not a bound).");
    line("");
    line("| shape | Kavro ns/op | Kavro, topic subjects ns/op | compiled decoder only ns/op | hand-written on Kavro's "
        + "decoder ns/op | decode only ns/op | allocation only ns/op | Kavro/hand-written | decode only B/op |");
    line("|---|---|---|---|---|---|---|---|---|");
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      JsonNode kavro = results.get("DeserializeLimitsBenchmark.kavro/" + shape);
      JsonNode topics = results.get("DeserializeLimitsBenchmark.kavroTopicSubjects/" + shape);
      JsonNode compiled = results.get("DeserializeLimitsBenchmark.compiledDecoderOnly/" + shape);
      JsonNode hand = results.get("DeserializeLimitsBenchmark.handWrittenOnKavroDecoder/" + shape);
      JsonNode decode = results.get("DeserializeLimitsBenchmark.decodeOnly/" + shape);
      JsonNode floor = results.get("DeserializeLimitsBenchmark.allocationOnly/" + shape);
      line("| " + shape + " | " + time(kavro) + " | " + time(topics) + " | " + time(compiled) + " | " + time(hand)
          + " | " + time(decode) + " | " + time(floor) + " | " + ratio(kavro, hand) + " | " + alloc(decode) + " |");
    }
    line("");
  }

  /** The generated-classes section and the targets of {@code runs}: what a test reads of them. */
  static String specificAndTargets(List<JsonNode> runs) {
    Report report = new Report(runs);
    report.specific();
    report.checkTargets();
    return report.md.toString();
  }

  private void specific() {
    line("## Generated classes");
    line("");
    line("`SpecificBenchmark`: S2 and S3 as the classes avro-maven-plugin generates (its defaults, custom coders "
        + "included, decimals as BigDecimal), Kavro's serializer and deserializer (`specific.avro.reader=true`) "
        + "against Avro's `SpecificDatumWriter` and `SpecificDatumReader` with the classes' own model and Avro's "
        + "defaults (custom coders are used only with `-Dorg.apache.avro.specific.use_custom_coders=true`).");
    line("");
    line("| shape | serialize Kavro ns/op | raw ns/op | Kavro/raw | Kavro B/op | raw B/op | deserialize Kavro ns/op "
        + "| raw ns/op | Kavro/raw | Kavro B/op | raw B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|---|");
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      JsonNode ks = results.get("SpecificBenchmark.kavroSerialize/" + shape);
      JsonNode rs = results.get("SpecificBenchmark.rawSerialize/" + shape);
      JsonNode kd = results.get("SpecificBenchmark.kavroDeserialize/" + shape);
      JsonNode rd = results.get("SpecificBenchmark.rawDeserialize/" + shape);
      line("| " + shape + " | " + time(ks) + " | " + time(rs) + " | " + ratio(ks, rs) + " | " + alloc(ks) + " | "
          + alloc(rs) + " | " + time(kd) + " | " + time(rd) + " | " + ratio(kd, rd) + " | " + alloc(kd) + " | "
          + alloc(rd) + " |");
    }
    line("");
    line("Under the writes, side by side in the same benchmark: a writer written by hand for exactly the generated "
        + "class (`handWrittenSerialize`: every field through `get(int)` as Avro's writer reads it, boxes included, "
        + "the logical types from the values that writer sees; straight-line code, every call monomorphic, into a "
        + "reused byte array, Kavro's framing, one exact-size copy out: the ceiling of any writer of these classes "
        + "that reads them as Avro does; checked in set-up to return Kavro's payload and Avro's body byte for byte "
        + "for every record), and what a writer whose boxes escape allocates without encoding a byte "
        + "(`allocationOnlySerialize`: `get(int)` of every field, its boxes kept by a blackhole, and the output "
        + "array). With every call inlined the JIT removes the hand-written writer's boxes: it allocates the "
        + "output array only, less than the allocation-only row.");
    line("");
    line("| shape | Kavro ns/op | hand-written ns/op | allocation only ns/op | raw Avro ns/op | Kavro/raw | "
        + "hand-written/raw | allocation only/raw | Kavro/hand-written | Kavro B/op | hand-written B/op | "
        + "allocation only B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      JsonNode kavro = results.get("SpecificBenchmark.kavroSerialize/" + shape);
      JsonNode hand = results.get("SpecificBenchmark.handWrittenSerialize/" + shape);
      JsonNode floor = results.get("SpecificBenchmark.allocationOnlySerialize/" + shape);
      JsonNode raw = results.get("SpecificBenchmark.rawSerialize/" + shape);
      if (hand == null && floor == null) {
        continue;
      }
      line("| " + shape + " | " + time(kavro) + " | " + time(hand) + " | " + time(floor) + " | " + time(raw) + " | "
          + ratio(kavro, raw) + " | " + ratio(hand, raw) + " | " + ratio(floor, raw) + " | " + ratio(kavro, hand)
          + " | " + alloc(kavro) + " | " + alloc(hand) + " | " + alloc(floor) + " |");
    }
    line("");
    specificReadFloors();
  }

  /**
   * Under the generated-class reads, the floors of the same run: a reader written by hand for the class and the same
   * objects built without reading; nothing when neither was measured.
   */
  private void specificReadFloors() {
    List<Shape> measured = new ArrayList<>();
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      if (results.get("SpecificBenchmark.handWrittenDeserialize/" + shape) != null
          || results.get("SpecificBenchmark.allocationOnlyDeserialize/" + shape) != null) {
        measured.add(shape);
      }
    }
    if (measured.isEmpty()) {
      return;
    }
    line("Under the reads, side by side in the same benchmark: a reader written by hand for exactly the generated "
        + "class (`handWrittenDeserialize`: straight-line code through the generated setters, every call "
        + "monomorphic, on Avro's own `BinaryDecoder`, as Kavro's decoder is internal to the serde; a uuid parsed "
        + "from its hex digits and a decimal from its unscaled bytes without Avro's conversions), and the same "
        + "objects built without reading a byte (`allocationOnlyDeserialize`: the generated classes, `Utf8`s and "
        + "byte arrays of the same lengths filled by a copy, the same boxes, collections and logical-type values, "
        + "planned from each record beforehand: the floor under any reader that returns these classes). This floor "
        + "allocates and copies, since a `Utf8` and a fixed must own their arrays; the generic floor above "
        + "zero-fills its arrays without copying, so it sits slightly below. The hand-written reader is a reference "
        + "point for readers on Avro's decoder, not a bound. Both are checked in set-up to return, for every "
        + "record, objects equal to Kavro's and Avro's.");
    line("");
    line("| shape | Kavro ns/op | hand-written ns/op | allocation and copy ns/op | raw Avro ns/op | Kavro/raw | "
        + "hand-written/raw | allocation and copy/raw | Kavro/hand-written | Kavro B/op | hand-written B/op | "
        + "allocation and copy B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Shape shape : measured) {
      JsonNode kavro = results.get("SpecificBenchmark.kavroDeserialize/" + shape);
      JsonNode hand = results.get("SpecificBenchmark.handWrittenDeserialize/" + shape);
      JsonNode floor = results.get("SpecificBenchmark.allocationOnlyDeserialize/" + shape);
      JsonNode raw = results.get("SpecificBenchmark.rawDeserialize/" + shape);
      line("| " + shape + " | " + time(kavro) + " | " + time(hand) + " | " + time(floor) + " | " + time(raw) + " | "
          + ratio(kavro, raw) + " | " + ratio(hand, raw) + " | " + ratio(floor, raw) + " | " + ratio(kavro, hand)
          + " | " + alloc(kavro) + " | " + alloc(hand) + " | " + alloc(floor) + " |");
    }
    line("");
    List<String> floors = new ArrayList<>();
    for (Shape shape : measured) {
      String floor = specificReadFloor(shape);
      if (floor != null) {
        floors.add(floor);
      }
    }
    if (!floors.isEmpty()) {
      line(String.join(" ", floors));
      line("");
    }
  }

  /**
   * Kavro's generated-class read of {@code shape} beside the floors under any reader of the same run, as a
   * sentence; null unless all four were measured.
   */
  private String specificReadFloor(Shape shape) {
    JsonNode kavro = results.get("SpecificBenchmark.kavroDeserialize/" + shape);
    JsonNode raw = results.get("SpecificBenchmark.rawDeserialize/" + shape);
    JsonNode hand = results.get("SpecificBenchmark.handWrittenDeserialize/" + shape);
    JsonNode floor = results.get("SpecificBenchmark.allocationOnlyDeserialize/" + shape);
    if (kavro == null || raw == null || hand == null || floor == null) {
      return null;
    }
    return "Generated " + shape + ": Kavro reads at " + ratio(kavro, raw) + " of Avro's `SpecificDatumReader`, a "
        + "reader written by hand for the class at " + ratio(hand, raw) + ", and merely building the same objects "
        + "takes " + ratio(floor, raw) + " (" + time(floor) + " of " + time(raw) + " ns): no reader returning the "
        + "generated class reads at less than that. " + roomAboveFloor(kavro, raw, hand, floor, "the objects alone");
  }

  /**
   * What 0.70 of {@code raw} leaves above {@code floor} (or that it is under it, beyond this run's noise or within
   * it), and how far above the floor Kavro and the hand-written reader on Avro's decoder read, as the end of a
   * sentence; {@code alone} names the floor ("the objects alone").
   */
  private static String roomAboveFloor(JsonNode kavro, JsonNode raw, JsonNode hand, JsonNode floor, String alone) {
    double allowed = 0.70 * score(raw);
    double beyond = score(kavro) - score(floor);
    return (allowed > score(floor)
            ? "For 0.70 a reader may take " + fmt(allowed) + " ns, " + fmt(allowed - score(floor)) + " ns beyond "
                + alone + "; "
            : 0.70 * (score(raw) + error(raw)) < score(floor) - error(floor)
                ? "0.70 (" + fmt(allowed) + " ns) is under that floor beyond this run's noise: no such reader can "
                    + "meet it; "
                : "0.70 (" + fmt(allowed) + " ns) is within this run's noise of that floor; ")
        + (beyond >= 0 ? "Kavro takes " + fmt(beyond) + " ns beyond " + alone
            : "Kavro reads at the floor (" + fmt(-beyond) + " ns under it, the two rows' noise)")
        + ", the hand-written reader on Avro's decoder " + fmt(score(hand) - score(floor)) + " ns.";
  }

  private void javaRecords() {
    line("## Java records");
    line("");
    line("`JavaRecordBenchmark`: S3 as Java records (`schema.reflection=true`), Kavro against Avro's "
        + "`ReflectDatumWriter` on the same records, and Avro's `ReflectDatumReader` on the same tree as mutable "
        + "classes (the same bytes), since Avro's reflection cannot build a Java record.");
    line("");
    line("| operation | Kavro ns/op | raw Avro ns/op | Kavro/raw | Kavro B/op | raw B/op |");
    line("|---|---|---|---|---|---|");
    for (String op : List.of("Serialize", "Deserialize")) {
      JsonNode kavro = results.get("JavaRecordBenchmark.kavro" + op + "/");
      JsonNode raw = results.get("JavaRecordBenchmark.raw" + op + "/");
      line("| " + op.toLowerCase(Locale.ROOT) + " | " + time(kavro) + " | " + time(raw) + " | " + ratio(kavro, raw)
          + " | " + alloc(kavro) + " | " + alloc(raw) + " |");
    }
    line("");
  }

  private void converter() {
    line("## Kafka Connect");
    line("");
    line("`ConverterBenchmark`, S3: Kavro's converter on a `Struct` against Kavro's serde alone on the same "
        + "records in Avro's generic form (the converter's overhead is the difference) and Kafka's `JsonConverter` "
        + "(schemas on) on the same structs; one converter shared by 1 and by 2 threads (per-operation times). "
        + "`structsOnly` is the floor under any converter that returns Connect's structs: the same trees built "
        + "again with `Struct.put`, which checks each value it is given (nested ones again at every level), from "
        + "values already in Connect's form, reading nothing.");
    line("");
    line("| direction | converter ns/op | converter, 2 threads | serde alone ns/op | serde alone, 2 threads | "
        + "converter/serde | JsonConverter ns/op | JsonConverter/converter | converter B/op | serde B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|");
    String[][] rows = {{"fromConnectData (write)", "fromConnect", "serdeSerialize", "jsonFromConnect"},
        {"toConnectData (read)", "toConnect", "serdeDeserialize", "jsonToConnect"}};
    for (String[] row : rows) {
      JsonNode converter = results.get("ConverterBenchmark." + row[1] + "/");
      JsonNode converter2 = results.get("ConverterBenchmark." + row[1] + "2Threads/");
      JsonNode serde = results.get("ConverterBenchmark." + row[2] + "/");
      JsonNode serde2 = results.get("ConverterBenchmark." + row[2] + "2Threads/");
      JsonNode json = results.get("ConverterBenchmark." + row[3] + "/");
      line("| " + row[0] + " | " + time(converter) + " | " + time(converter2) + " | " + time(serde) + " | "
          + time(serde2) + " | " + ratio(converter, serde) + " | " + time(json) + " | " + ratio(json, converter)
          + " | " + alloc(converter) + " | " + alloc(serde) + " |");
    }
    JsonNode floor = results.get("ConverterBenchmark.structsOnly/");
    line("| structs only (floor of toConnectData beyond the serde) | " + time(floor) + " | | | | | | | "
        + alloc(floor) + " | |");
    JsonNode javaStrings = results.get("ConverterBenchmark.serdeSerializeJavaStrings/");
    line("| serde alone, strings as `java.lang.String` (the form a struct holds them in) | | | "
        + time(javaStrings) + " | | " + ratio(results.get("ConverterBenchmark.fromConnect/"), javaStrings)
        + " | | | | " + alloc(javaStrings) + " |");
    line("");
    line("Apicurio's `AvroConverter` (2.6.13) on the same structs, against a real Apicurio Registry on 127.0.0.1, "
        + "configured as for `ApicurioBenchmark` (headers off, 4-byte content ids, auto-registration), warmed "
        + "over every record; it writes the same Avro bodies as Kavro's converter, and reads what it wrote.");
    line("");
    line("| peer | direction | peer ns/op | peer B/op | Kavro's converter/peer (time) | "
        + "Kavro's converter/peer (B/op) |");
    line("|---|---|---|---|---|---|");
    for (String[] row : new String[][] {{"fromConnectData (write)", "fromConnect", "apicurioFromConnect"},
        {"toConnectData (read)", "toConnect", "apicurioToConnect"}}) {
      JsonNode kavro = results.get("ConverterBenchmark." + row[1] + "/");
      JsonNode peer = results.get("ConverterBenchmark." + row[2] + "/");
      line("| Apicurio's AvroConverter | " + row[0] + " | " + time(peer) + " | " + alloc(peer) + " | "
          + ratio(kavro, peer) + " | " + allocRatio(kavro, peer) + " |");
    }
    line("");
  }

  private void manySchemas() throws Exception {
    line(MANY_SCHEMAS);
    line("");
    line("`ManySchemasBenchmark`: one serializer, one deserializer and one converter on records of 1, 1,000 or 10,000 "
        + "distinct schemas in turn (each an S3 record type on its own topic), every one written and read once before "
        + "measuring, with every schema cache bound at " + String.format("%,d", ManySchemas.BOUND) + " "
        + "(`max.schemas.per.subject`, `schemas.cache.config`; the defaults hold 1,000, and beyond its bound a cache "
        + "evicts and builds again), against raw Avro as a hand-tuned application holds it: the generic writer and "
        + "reader of each schema built beforehand and handed directly (no lookup, no id read), one encoder, decoder "
        + "and buffer for all, in the same order. `ManySchemasThreadsBenchmark`: the same serdes and converter "
        + "shared by two threads (per-operation times). Both run with `-XX:+AlwaysPreTouch`: on this VM, whose host "
        + "backs guest memory on first touch, the first pass of allocation through heap not used before cost any "
        + "reader, Kavro's or raw Avro's, 3 to 10 µs a record until the fork's first young GC, which made iterations "
        + "at 10,000 schemas bimodal and the comparison luck. The previous Kavro/raw is that of the results this "
        + "file replaced; until 2026-12-06 the baseline kept an encoder, a decoder and a 4 KB buffer per schema, "
        + "which slowed raw Avro most at 10,000 schemas. Under the reads, as in \"Deserialize: how far any reader "
        + "can go\" but with each record's own schema objects (whose cache misses at many schemas any reader pays): "
        + "a reader written by hand for S3 (`handWrittenDeserialize`: straight-line code on Avro's own decoder, every "
        + "call monomorphic, one decoder for all, which allocates a source object per payload as raw Avro's does: the "
        + "ceiling of any generated reader on that decoder) and the bare allocation of the same object graph without "
        + "reading a byte (`allocationOnly`: the same classes, lengths, counts and values, planned from each record "
        + "beforehand: the floor under any reader that returns Avro's generic records), both checked in set-up to "
        + "return what Kavro and raw Avro return, on one thread only. Their rows hold their own times and "
        + "allocations in the Kavro columns and their ratio to the same raw Avro read in Kavro/raw.");
    line("");
    line("| operation | schemas | Kavro ns/op | raw Avro ns/op | Kavro/raw | previous Kavro/raw | Kavro, 2 threads ns/op "
        + "| 2 threads/1 | Kavro B/op | raw B/op |");
    line("|---|---|---|---|---|---|---|---|---|---|");
    List<String[]> before = oldRows(MANY_SCHEMAS);
    for (String[] row : new String[][] {{"deserialize", "deserialize", "rawDeserialize"},
        {"hand-written reader on Avro's decoder", "handWrittenDeserialize", "rawDeserialize"},
        {"allocation only (deserialize's floor)", "allocationOnly", "rawDeserialize"},
        {"serialize", "serialize", "rawSerialize"}, {"toConnectData", "toConnect", null},
        {"structs only (toConnectData's floor beyond the serde)", "structsOnly", null}}) {
      for (String count : new String[] {"1", "1000", "10000"}) {
        JsonNode kavro = results.get("ManySchemasBenchmark." + row[1] + "/#" + count);
        JsonNode raw = row[2] == null ? null : results.get("ManySchemasBenchmark." + row[2] + "/#" + count);
        JsonNode two = results.get("ManySchemasThreadsBenchmark." + row[1] + "/#" + count);
        if (kavro == null) {
          continue;
        }
        String schemas = String.format("%,d", Integer.parseInt(count));
        line("| " + row[0] + " | " + schemas + " | " + time(kavro) + " | "
            + (raw == null ? "n/a" : time(raw)) + " | " + (raw == null ? "n/a" : ratio(kavro, raw)) + " | "
            + oldCell(before, 4, row[0], schemas) + " | "
            + (two == null ? "" : time(two)) + " | " + (two == null ? "" : ratio(two, kavro)) + " | "
            + alloc(kavro) + " | " + (raw == null ? "n/a" : alloc(raw)) + " |");
      }
    }
    line("");
    List<String> floors = new ArrayList<>();
    for (String count : new String[] {"1000", "10000"}) {
      String floor = manyReadFloor(count);
      if (floor != null) {
        floors.add(floor);
      }
    }
    if (!floors.isEmpty()) {
      line(String.join(" ", floors));
      line("");
    }
    line("Heap each cached schema costs (`SchemaHeap`: S3 record types, heap used after full GCs before and after "
        + "one new client has handled a record of each, over their number; each client measured alone, in this "
        + "order). A deserializer keeps the schema by id, its read plan and compiled decoder; a serializer the id by "
        + "schema, its write plan and compiled encoder; a converter, over a deserializer of its own, the Connect "
        + "schema and mapping too. The `mock://` registry hands the serdes the very schema object it keeps, so "
        + "their figures leave out the parsed schema, which a registry client over HTTP holds once per id beside "
        + "them: its cost is the next column. Raw Avro, for scale, is Avro's generic writer and reader of a parsed "
        + "schema, each used once.");
    line("");
    line("| schemas | deserializer B/schema | serializer B/schema | converter B/schema | parsed schema B/schema | "
        + "raw Avro writer and reader B/schema |");
    line("|---|---|---|---|---|---|");
    for (int count : measuresItself ? new int[] {1_000, 10_000} : new int[0]) {
      SchemaHeap.Cost cost = SchemaHeap.measure(count);
      line("| " + String.format("%,d", count) + " | " + fmt(cost.deserializer()) + " | " + fmt(cost.serializer())
          + " | " + fmt(cost.converter()) + " | " + fmt(cost.parsedSchema()) + " | " + fmt(cost.rawAvro()) + " |");
    }
    line("");
    java.util.regex.Matcher previous = java.util.regex.Pattern.compile("one deserializer and one converter that have "
        + "read a record of each[^:]*: ([0-9,]+) and ([0-9,]+) bytes").matcher(old);
    if (previous.find()) {
      line("Previously (one deserializer and one converter together, 1,000 and 10,000 schemas): " + previous.group(1)
          + " and " + previous.group(2) + " bytes a schema.");
      line("");
    }
  }

  /**
   * Kavro's read at {@code count} schemas beside the floors under any reader of the same run, as a sentence; null
   * unless all four were measured.
   */
  private String manyReadFloor(String count) {
    JsonNode kavro = results.get("ManySchemasBenchmark.deserialize/#" + count);
    JsonNode raw = results.get("ManySchemasBenchmark.rawDeserialize/#" + count);
    JsonNode hand = results.get("ManySchemasBenchmark.handWrittenDeserialize/#" + count);
    JsonNode floor = results.get("ManySchemasBenchmark.allocationOnly/#" + count);
    if (kavro == null || raw == null || hand == null || floor == null) {
      return null;
    }
    return "At " + String.format("%,d", Integer.parseInt(count)) + " schemas Kavro reads at " + ratio(kavro, raw)
        + " of raw Avro's time, a reader written by hand for the schema on Avro's decoder at " + ratio(hand, raw)
        + ", and merely allocating the same graph of the same schema objects takes " + ratio(floor, raw) + " ("
        + time(floor) + " of " + time(raw) + " ns): no reader returning Avro's generic records reads at less than "
        + "that. " + roomAboveFloor(kavro, raw, hand, floor, "the allocation alone");
  }

  /**
   * The in-client benchmark's section: {@code KafkaClientBenchmark}'s operations as records per second, Kavro's
   * serde against the byte-array one, with the previous end-to-end figures beside them.
   */
  private void clients() {
    line(CLIENTS);
    line("");
    line("`KafkaClientBenchmark`: Kavro's serde inside real Kafka clients against the in-JVM KRaft broker (one "
        + "partition, acks=1, linger 10 ms, 512 KB batches; consumer: 10,000 records a poll, 64 MB fetches), "
        + "S3, " + String.format("%,d", KafkaClientBenchmark.RECORDS) + " records an operation, JMH single shots. "
        + "Consume: a `KafkaConsumer` poll loop reading a topic filled beforehand from its start (the same bytes "
        + "for both), every value handed on; produce: a `KafkaProducer` sending and flushing, acknowledged. "
        + "`ByteArrayDeserializer`/`ByteArraySerializer` run on the same records already serialized: the client's "
        + "own work, which the serde adds to. Raw Avro: Avro's own generic writer, or its fast reader, of the "
        + "schema, built beforehand and handed the records directly with the same 5-byte header (no registry, no "
        + "lookup): Avro's own serde in the same loop, the baseline beside Kavro's, neither a floor nor a ceiling. "
        + "Floor: the floor under any serde of these records in the same loop; consuming, a "
        + "deserializer that reads no byte and only allocates the object graph Kavro returns for each record (the "
        + "same classes, lengths, counts and values, planned beforehand from Kavro's result), so the highest "
        + "throughput any deserializer returning Avro's generic records can reach here; producing, a serializer "
        + "handed the same generic records that reads every value of each as any serializer must at least read it "
        + "(one char of each string, one byte of each buffer: less than any serializer reads) and returns a copy "
        + "of its bytes already serialized, the output array any serializer must at least allocate. Hand-written "
        + "(produce only): a writer hand-written for exactly S3's generic records, checked to write Kavro's bytes for every record: what one such writer "
        + "reaches, not a bound (its strings are encoded by the same char loop as Kavro's `ByteSink`, so it cannot "
        + "show a faster string encoding). The broker runs in the same JVM on the same cores. "
        + "Previous: the end-to-end round of the results this file replaced (one produce-then-consume run, not "
        + "JMH).");
    line("");
    line("| operation | Kavro records/s | byte[] records/s | Kavro/byte[] | raw Avro records/s | raw Avro/byte[] | "
        + "Kavro/raw Avro | floor records/s | floor/byte[] | Kavro/floor | hand-written records/s | "
        + "hand-written/byte[] | previous Kavro records/s | previous byte[] records/s | previous Kavro/byte[] |");
    line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    List<String[]> before = oldRows("## End-to-end throughput");
    String[] oldKavro = before.stream().filter(r -> r[0].equals("Kavro")).findFirst().orElse(null);
    String[] oldBytes = before.stream().filter(r -> r[0].startsWith("byte[]")).findFirst().orElse(null);
    for (String[] row : new String[][] {{"consume", "2"}, {"produce", "1"}}) {
      JsonNode kavro = results.get("KafkaClientBenchmark." + row[0] + "/#KAVRO");
      JsonNode bytes = results.get("KafkaClientBenchmark." + row[0] + "/#BYTES");
      JsonNode raw = results.get("KafkaClientBenchmark." + row[0] + "/#RAW_AVRO");
      JsonNode floor = results.get("KafkaClientBenchmark." + row[0] + "/#FLOOR");
      JsonNode hand = results.get("KafkaClientBenchmark." + row[0] + "/#HAND_WRITTEN");
      int column = Integer.parseInt(row[1]);
      String then = oldKavro == null || oldBytes == null ? "n/a" : String.format(Locale.ROOT, "%.2f",
          number(oldKavro[column]) / number(oldBytes[column]));
      line("| " + row[0] + " | " + rate(kavro) + " | " + rate(bytes) + " | " + ratio(bytes, kavro) + " | "
          + rate(raw) + " | " + ratio(bytes, raw) + " | " + ratio(raw, kavro) + " | " + rate(floor) + " | "
          + ratio(bytes, floor) + " | " + ratio(floor, kavro) + " | " + rate(hand) + " | " + ratio(bytes, hand) + " | "
          + (oldKavro == null ? "n/a" : oldKavro[column]) + " | " + (oldBytes == null ? "n/a" : oldBytes[column])
          + " | " + then + " |");
    }
    line("");
    JsonNode read = results.get("KafkaClientBenchmark.consume/#KAVRO");
    JsonNode readBytes = results.get("KafkaClientBenchmark.consume/#BYTES");
    if (read != null && readBytes != null) {
      double loop = perRecord(readBytes);
      line("In the consumer, Kavro's deserializer adds " + fmt(perRecord(read) - perRecord(readBytes))
          + " ns a record to the poll loop's own " + fmt(loop) + " ns: for "
          + "Kavro/byte[] ≥ 0.85 it may add at most " + fmt(loop * 0.15 / 0.85) + " ns.");
      line("");
    }
    String floors = clientFloors();
    if (!floors.isEmpty()) {
      line(floors);
      line("");
    }
  }

  /** What the floors measured in Kafka's clients say of the 0.85 targets; empty if this run measured none. */
  private String clientFloors() {
    return Stream.of(consumerConclusion(), producerConclusion()).filter(Objects::nonNull)
        .collect(Collectors.joining("\n\n"));
  }

  /**
   * What the consumer's floor, measured in the same poll loop, says of the 0.85 target: a bound only if the floor's
   * Kavro/byte[] stays below 0.85 at the end of the error bars most favourable to it; null if not measured.
   */
  private String consumerConclusion() {
    JsonNode floor = results.get("KafkaClientBenchmark.consume/#FLOOR");
    JsonNode bytes = results.get("KafkaClientBenchmark.consume/#BYTES");
    JsonNode kavro = results.get("KafkaClientBenchmark.consume/#KAVRO");
    JsonNode raw = results.get("KafkaClientBenchmark.consume/#RAW_AVRO");
    if (floor == null || bytes == null) {
      return null;
    }
    boolean stops = highestRatio(bytes, floor) < 0.85;
    return "In the same poll loop, a deserializer that reads no byte and only allocates the object graph Kavro "
        + "returns runs at " + ratio(bytes, floor) + " of the byte-array loop's records/s (" + fmt(perRecord(floor))
        + " ns a record against " + fmt(perRecord(bytes)) + ", allocating " + allocPerRecord(floor) + " B a record"
        + (kavro == null ? "" : ", Kavro " + allocPerRecord(kavro)) + ")"
        + (stops ? ": no deserializer returning Avro's generic records reaches a Kavro/byte[] above "
            + ratio(bytes, floor) + " in this loop (below 0.85 beyond this run's noise)"
            : ": the allocation alone does not stop 0.85 (within this run's noise or above it), so it does not "
                + "account for a miss")
        + (kavro == null ? "" : "; Kavro reaches " + ratio(bytes, kavro) + ", " + ratio(floor, kavro)
            + " of the floor's records/s")
        + (raw == null ? "" : "; raw Avro's fast reader of the schema, built beforehand, no registry (the "
            + "baseline, not a bound), reaches " + ratio(bytes, raw))
        + ".";
  }

  /**
   * What the producer's floor (every value read, a copy of the bytes) and the hand-written writer, measured in the
   * same producer, say of the 0.85 target: only the floor is a bound; the hand-written writer shows what one writer
   * for exactly this schema reaches. Null if neither was measured.
   */
  private String producerConclusion() {
    JsonNode floor = results.get("KafkaClientBenchmark.produce/#FLOOR");
    JsonNode bytes = results.get("KafkaClientBenchmark.produce/#BYTES");
    JsonNode kavro = results.get("KafkaClientBenchmark.produce/#KAVRO");
    JsonNode raw = results.get("KafkaClientBenchmark.produce/#RAW_AVRO");
    JsonNode hand = results.get("KafkaClientBenchmark.produce/#HAND_WRITTEN");
    if (bytes == null || floor == null && hand == null) {
      return null;
    }
    List<String> said = new ArrayList<>();
    boolean stops = floor != null && highestRatio(bytes, floor) < 0.85;
    if (floor != null) {
      said.add("In the same producer, a serializer that reads every value of each record as any serializer must at "
          + "least read it and returns a copy of its bytes already serialized, the output array any serializer must "
          + "at least allocate (the floor: less than any serializer does), runs at " + ratio(bytes, floor)
          + " of the byte-array producer's records/s (" + fmt(perRecord(floor)) + " ns a record against "
          + fmt(perRecord(bytes)) + ", allocating " + allocPerRecord(floor) + " B a record"
          + (kavro == null ? "" : ", Kavro " + allocPerRecord(kavro)) + ")"
          + (stops ? ": no serializer of these records reaches a Kavro/byte[] above " + ratio(bytes, floor)
              + " here (below 0.85 beyond this run's noise)"
              : ": reading the values and the output array do not stop 0.85")
          + (kavro == null ? "" : "; Kavro reaches " + ratio(bytes, kavro) + ", " + ratio(floor, kavro)
              + " of the floor's records/s") + ".");
    }
    if (hand != null) {
      boolean kavroMisses = kavro != null && score(bytes) / score(kavro) < 0.85;
      String verdict;
      if (lowestRatio(bytes, hand) >= 0.85) {
        verdict = ": 0.85 is reachable in this loop beyond this run's noise" + (kavroMisses && !stops
            ? ", so the miss is Kavro's own" : "");
      } else if (highestRatio(bytes, hand) < 0.85) {
        verdict = ": a writer hand-written for S3 reaches " + ratio(bytes, hand) + ", below 0.85 beyond this run's "
            + "noise; what one writer reaches, not a bound on every serializer";
      } else {
        verdict = ": a writer hand-written for S3 reaches " + ratio(bytes, hand) + ", within this run's noise of "
            + "0.85";
      }
      said.add("A writer hand-written for exactly S3's generic records (straight-line, every call monomorphic, "
          + "independent of Kavro's codec, checked to write Kavro's bytes for every record; its strings encoded by "
          + "the same char loop as Kavro's `ByteSink`, so it cannot show a faster string encoding), in the same "
          + "producer, runs at " + ratio(bytes, hand) + " of the byte-array producer's records/s ("
          + fmt(perRecord(hand)) + " ns a record against " + fmt(perRecord(bytes)) + ")" + verdict
          + (kavro == null ? "" : "; Kavro reaches " + ratio(bytes, kavro) + ", " + ratio(hand, kavro)
              + " of the hand-written writer's records/s") + ".");
    }
    if (raw != null) {
      said.add("Raw Avro's own writer of the schema, built beforehand, no registry (the baseline, neither a floor "
          + "nor a ceiling), reaches " + ratio(bytes, raw) + (kavro == null ? "" : "; Kavro/raw Avro (records/s) "
          + "is " + ratio(raw, kavro)) + ".");
    }
    return String.join(" ", said);
  }

  /**
   * {@code run}'s records/s over {@code bytes}' at the ends of both error bars most favourable to {@code run}: the
   * highest ratio this run's noise allows.
   */
  private static double highestRatio(JsonNode bytes, JsonNode run) {
    double time = score(run) - error(run);
    return time <= 0 ? Double.POSITIVE_INFINITY : (score(bytes) + error(bytes)) / time;
  }

  /** {@code run}'s records/s over {@code bytes}' at the ends of both error bars least favourable to it. */
  private static double lowestRatio(JsonNode bytes, JsonNode run) {
    return (score(bytes) - error(bytes)) / (score(run) + error(run));
  }

  /**
   * The byte-array {@code loop}'s nanoseconds a record, what Kavro's {@code serde} adds to them and what 0.85 allows
   * it to add.
   */
  private static String clientLoop(String loop, String serde, JsonNode kavro, JsonNode bytes) {
    double own = perRecord(bytes);
    return "the byte-array " + loop + " takes " + fmt(own) + " ns a record and Kavro's " + serde + " adds "
        + fmt(perRecord(kavro) - own) + " ns; for Kavro/byte[] ≥ 0.85 it may add at most " + fmt(own * 0.15 / 0.85)
        + " ns.";
  }

  /** Bytes allocated a record by one of {@code KafkaClientBenchmark}'s results, the broker's share included. */
  private static String allocPerRecord(JsonNode run) {
    return fmt(allocValue(run) / KafkaClientBenchmark.RECORDS);
  }

  /** Nanoseconds a record of one of {@code KafkaClientBenchmark}'s results (ms per operation). */
  private static double perRecord(JsonNode run) {
    return score(run) * 1e6 / KafkaClientBenchmark.RECORDS;
  }

  /** Records per second of one of {@code KafkaClientBenchmark}'s results (ms per operation), with its range. */
  private static String rate(JsonNode run) {
    if (run == null) {
      return "n/a";
    }
    JsonNode metric = run.path("primaryMetric");
    double ms = metric.path("score").asDouble();
    double error = metric.path("scoreError").asDouble(Double.NaN);
    double rate = KafkaClientBenchmark.RECORDS * 1000.0 / ms;
    if (Double.isNaN(error) || error >= ms) {
      return String.format(Locale.ROOT, "%,.0f", rate);
    }
    return String.format(Locale.ROOT, "%,.0f (%,.0f to %,.0f)", rate, KafkaClientBenchmark.RECORDS * 1000.0
        / (ms + error), KafkaClientBenchmark.RECORDS * 1000.0 / (ms - error));
  }

  private static double number(String cell) {
    return Double.parseDouble(cell.replace(",", "").replaceAll(" .*", ""));
  }

  /** The rows of the first table under {@code header} in the results this file replaces, cells trimmed. */
  private List<String[]> oldRows(String header) {
    List<String[]> rows = new ArrayList<>();
    int at = old.indexOf(header + "\n");
    if (at < 0) {
      return rows;
    }
    int end = old.indexOf("\n## ", at + header.length());
    boolean seenTable = false;
    for (String l : old.substring(at, end < 0 ? old.length() : end).split("\n")) {
      if (l.startsWith("|")) {
        seenTable = true;
        if (!l.startsWith("|---")) {
          String[] cells = l.substring(1).split("\\|", -1);
          for (int i = 0; i < cells.length; i++) {
            cells[i] = cells[i].trim();
          }
          rows.add(cells);
        }
      } else if (seenTable) {
        break;
      }
    }
    return rows.isEmpty() ? rows : rows.subList(1, rows.size());
  }

  /** Cell {@code column} of the old row whose first cells are {@code keys}, or "n/a". */
  private static String oldCell(List<String[]> rows, int column, String... keys) {
    for (String[] row : rows) {
      boolean match = row.length > column;
      for (int i = 0; i < keys.length && match; i++) {
        match = row[i].equals(keys[i]);
      }
      if (match) {
        return row[column];
      }
    }
    return "n/a";
  }

  /**
   * Puts the sections named, rendered from a run of their benchmarks alone, into an existing RESULTS.md in their
   * places (a new one before the targets), replacing those there, each saying which run it comes from; the other
   * sections keep the numbers of the run that made them, and the previous figures beside the new ones are those
   * of the sections replaced.
   */
  private static void spliceSections(Path results, List<JsonNode> runs, String settings, List<String> headers)
      throws Exception {
    String text = Files.readString(results);
    for (String header : headers) {
      Report report = new Report(runs);
      report.old = text;
      switch (header) {
        case MANY_SCHEMAS -> report.manySchemas();
        case CLIENTS -> report.clients();
        case RULES -> report.rules();
        default -> throw new IllegalArgumentException(header);
      }
      String section = report.md.toString().replaceFirst("\n\n", "\n\nFrom a run of its benchmarks alone ("
          + settings + ") on " + LocalDate.now() + ", not from the run of the other tables. " + machine() + "\n\n");
      int at = text.indexOf(header + "\n");
      if (at >= 0) {
        int end = text.indexOf("\n## ", at + header.length());
        text = text.substring(0, at) + section + (end < 0 ? "" : text.substring(end + 1));
      } else {
        int targets = text.indexOf("## Targets");
        if (targets < 0) {
          throw new IllegalStateException(results + " has no Targets section to put " + header + " before");
        }
        text = text.substring(0, targets) + section + text.substring(targets);
      }
      System.out.println(section);
    }
    Files.writeString(results, text);
  }

  private void rules() {
    line(RULES);
    line("");
    line("`RulesBenchmark`: Kavro's serializer and deserializer with kavro-rules on the class path, on S3 registered "
        + "without rules, with rules switched off (`rules.ignore=true`: the serde as before rules existed), with one "
        + "CEL condition on a top-level field (`message.count >= 0`, on write and read, which every record passes), "
        + "with one CEL_FIELD transform on one string field that gives its value unchanged (`typeName == 'STRING' ; "
        + "value` on `name`, tagged PII by the version's `metadata.tags`), and with one ENCRYPT rule on "
        + "that field (AES-GCM, a DEK of "
        + "the local KMS), all on the same settings (`use.latest.version`). Every record is written and read once "
        + "before measuring; the harness fails an iteration in which a registry call was made, and the trial if any "
        + "KMS call was (every DEK a rule loads is a KMS call: none means the DEKs were all cached). The cost per "
        + "record is over the row without rules; that row's is over the row with rules switched off.");
    line("");
    line("| rules | serialize ns/op | extra ns/record | B/op | extra B/record | deserialize ns/op | extra ns/record | "
        + "B/op | extra B/record | previous extra ns/record (write, read) |");
    line("|---|---|---|---|---|---|---|---|---|---|");
    List<String[]> before = oldRows(RULES);
    for (String[] row : new String[][] {{"switched off", "OFF", "OFF"}, {"none", "NONE", "OFF"},
        {"one CEL condition", "CEL", "NONE"}, {"one CEL_FIELD transform", "CEL_FIELD", "NONE"},
        {"one encrypted field", "ENCRYPT", "NONE"}}) {
      JsonNode write = results.get("RulesBenchmark.serialize/#" + row[1]);
      JsonNode read = results.get("RulesBenchmark.deserialize/#" + row[1]);
      if (write == null && read == null) {
        continue;
      }
      JsonNode baseWrite = results.get("RulesBenchmark.serialize/#" + row[2]);
      JsonNode baseRead = results.get("RulesBenchmark.deserialize/#" + row[2]);
      String then = oldCell(before, 2, row[0]);
      line("| " + row[0] + " | " + time(write) + " | " + extraTime(write, baseWrite) + " | " + alloc(write) + " | "
          + extraAlloc(write, baseWrite) + " | " + time(read) + " | " + extraTime(read, baseRead) + " | "
          + alloc(read) + " | " + extraAlloc(read, baseRead) + " | "
          + ("n/a".equals(then) ? "n/a" : then + ", " + oldCell(before, 6, row[0])) + " |");
    }
    line("");
  }

  /** {@code run}'s time beyond {@code base}'s, in ns. */
  private static String extraTime(JsonNode run, JsonNode base) {
    return run == null || base == null ? "n/a" : run == base ? "—" : signed(score(run) - score(base));
  }

  /** {@code run}'s allocation beyond {@code base}'s, in B. */
  private static String extraAlloc(JsonNode run, JsonNode base) {
    return run == null || base == null ? "n/a" : run == base ? "—" : signed(allocValue(run) - allocValue(base));
  }

  private static String signed(double value) {
    return (value >= 0 ? "+" : "−") + fmt(Math.abs(value));
  }

  private void checkTargets() {
    line("## Targets");
    line("");
    line("| target | measured | met? |");
    line("|---|---|---|");
    ratioTarget("Serialize Kavro/raw, S1", "SerializeBenchmark.kavro/S1", "SerializeBenchmark.raw/S1", 1.5, true);
    ratioTarget("Serialize Kavro/raw, S2", "SerializeBenchmark.kavro/S2", "SerializeBenchmark.raw/S2", 1.10, true);
    ratioTarget("Serialize Kavro/raw, S3", "SerializeBenchmark.kavro/S3", "SerializeBenchmark.raw/S3", 1.10, true);
    ratioTarget("Deserialize Kavro/raw, S2", "DeserializeBenchmark.kavro/S2", "DeserializeBenchmark.raw/S2", 1.10, true);
    ratioTarget("Deserialize Kavro/raw, S3", "DeserializeBenchmark.kavro/S3", "DeserializeBenchmark.raw/S3", 1.10, true);
    ratioTarget("Deserialize Kavro/raw, S4 (resolving)", "DeserializeBenchmark.kavro/S4", "DeserializeBenchmark.raw/S4",
        1.15, true);
    for (String op : List.of("serialize", "deserialize")) {
      String kavroBench = "serialize".equals(op) ? "SerializeBenchmark.kavro/" : "DeserializeBenchmark.kavro/";
      ratioTarget("Apicurio/Kavro " + op + " time, S1", "ApicurioBenchmark." + op + "/S1", kavroBench + "S1", 1.3, false);
      ratioTarget("Apicurio/Kavro " + op + " time, S2", "ApicurioBenchmark." + op + "/S2", kavroBench + "S2", 1.0, false);
      ratioTarget("Apicurio/Kavro " + op + " time, S3", "ApicurioBenchmark." + op + "/S3", kavroBench + "S3", 1.0, false);
    }
    for (Shape shape : List.of(Shape.S1, Shape.S2, Shape.S3)) {
      JsonNode kavro = results.get("SerializeBenchmark.kavro/" + shape);
      double body = averageBody(shape);
      if (kavro != null) {
        double bytes = allocValue(kavro);
        targets(row("Serialize allocation, " + shape + " (payload " + fmt(body) + " B + 5 + 64)",
            fmt(bytes) + " B/op", bytes <= body + 5 + 64));
        JsonNode raw = results.get("SerializeBenchmark.raw/" + shape);
        if (raw != null) {
          targets(row("Serialize allocation beyond raw Avro's, " + shape + " (≤ 64)",
              fmt(bytes - allocValue(raw)) + " B/op", bytes - allocValue(raw) <= 64));
        }
      }
    }
    for (Shape shape : Shape.values()) {
      JsonNode kavro = results.get("DeserializeBenchmark.kavro/" + shape);
      JsonNode raw = results.get("DeserializeBenchmark.raw/" + shape);
      if (kavro != null && raw != null) {
        targets(row("Deserialize allocation, " + shape + " (raw " + fmt(allocValue(raw)) + " B + 64)",
            fmt(allocValue(kavro)) + " B/op", allocValue(kavro) <= allocValue(raw) + 64));
      }
    }
    targets(row("Registry requests during measured iterations", "0 (asserted after every iteration)", true));
    ratioTarget("Compiled codec: serialize Kavro/raw, S2", "SerializeBenchmark.kavro/S2", "SerializeBenchmark.raw/S2",
        0.8, true);
    ratioTarget("Compiled codec: serialize Kavro/raw, S3", "SerializeBenchmark.kavro/S3", "SerializeBenchmark.raw/S3",
        0.8, true);
    for (Shape shape : List.of(Shape.S2, Shape.S3, Shape.S4)) { // issue 52: against Avro 1.12's fast reader
      ratioTarget("Compiled codec: deserialize Kavro/raw, " + shape, "DeserializeBenchmark.kavro/" + shape,
          "DeserializeBenchmark.raw/" + shape, 0.65, true);
    }
    JsonNode warmFast = results.get("WarmupBenchmark.firstTenThousand/S3#true");
    JsonNode warmGeneric = results.get("WarmupBenchmark.firstTenThousand/S3#false");
    if (warmFast != null && warmGeneric != null) {
      targets(row("Compiled codec no slower than generic over the first 10,000 records (S3, fresh JVM)",
          time(warmFast) + " ms vs " + time(warmGeneric) + " ms", score(warmFast) <= score(warmGeneric)));
    }
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      ratioTarget("Generated classes: serialize Kavro/raw, " + shape, "SpecificBenchmark.kavroSerialize/" + shape,
          "SpecificBenchmark.rawSerialize/" + shape, 0.60, true);
      ratioTarget("Generated classes: deserialize Kavro/raw, " + shape, "SpecificBenchmark.kavroDeserialize/" + shape,
          "SpecificBenchmark.rawDeserialize/" + shape, 0.70, true);
      JsonNode specificRaw = results.get("SpecificBenchmark.rawDeserialize/" + shape);
      JsonNode specificFloor = results.get("SpecificBenchmark.allocationOnlyDeserialize/" + shape);
      JsonNode specificHand = results.get("SpecificBenchmark.handWrittenDeserialize/" + shape);
      String specificFloorName = "Generated classes: deserialize floor/raw, " + shape + ": allocation and copy "
          + "(under any reader of the generated class), hand-written (one reader on Avro's decoder, not a bound)";
      targets(specificRaw == null || specificFloor == null || specificHand == null
          ? row(specificFloorName, "not measured", null)
          : row(specificFloorName, ratio(specificFloor, specificRaw) + ", " + ratio(specificHand, specificRaw), null));
      JsonNode specific = results.get("SpecificBenchmark.kavroSerialize/" + shape);
      if (specific != null) {
        double body = averageBody(shape);
        targets(row("Generated classes: serialize allocation, " + shape + " (payload " + fmt(body) + " B + 5 + 64)",
            fmt(allocValue(specific)) + " B/op", allocValue(specific) <= body + 5 + 64));
      }
    }
    ratioTarget("Java records: serialize Kavro/raw", "JavaRecordBenchmark.kavroSerialize/",
        "JavaRecordBenchmark.rawSerialize/", 0.50, true);
    ratioTarget("Java records: deserialize Kavro/raw", "JavaRecordBenchmark.kavroDeserialize/",
        "JavaRecordBenchmark.rawDeserialize/", 0.50, true);
    JsonNode records = results.get("JavaRecordBenchmark.kavroSerialize/");
    if (records != null) {
      double body = averageBody(Shape.S3);
      targets(row("Java records: serialize allocation (payload " + fmt(body) + " B + 5 + 64)",
          fmt(allocValue(records)) + " B/op", allocValue(records) <= body + 5 + 64));
    }
    ratioTarget("Connect: fromConnectData/serde alone (overhead ≤ 30 %)", "ConverterBenchmark.fromConnect/",
        "ConverterBenchmark.serdeSerialize/", 1.30, true);
    ratioTarget("Connect: toConnectData/serde alone (overhead ≤ 30 %)", "ConverterBenchmark.toConnect/",
        "ConverterBenchmark.serdeDeserialize/", 1.30, true);
    JsonNode toConnect = results.get("ConverterBenchmark.toConnect/");
    JsonNode serdeRead = results.get("ConverterBenchmark.serdeDeserialize/");
    JsonNode structs = results.get("ConverterBenchmark.structsOnly/");
    String floorTarget = "Connect: toConnectData/(serde alone + structsOnly), the floor of any converter ≤ 1.1";
    if (toConnect == null || serdeRead == null || structs == null) {
      targets(row(floorTarget, "not measured", null));
    } else {
      double ratio = score(toConnect) / (score(serdeRead) + score(structs));
      targets(row(floorTarget, String.format(Locale.ROOT, "%.2f", ratio), ratio <= 1.1));
    }
    ratioTarget("Connect: fromConnectData, 2 threads/1 thread per operation (no shared lock)",
        "ConverterBenchmark.fromConnect2Threads/", "ConverterBenchmark.fromConnect/", 1.30, true);
    ratioTarget("Connect: toConnectData, 2 threads/1 thread per operation (no shared lock)",
        "ConverterBenchmark.toConnect2Threads/", "ConverterBenchmark.toConnect/", 1.30, true);
    for (Shape shape : List.of(Shape.S1, Shape.S3)) {
      absoluteTarget("First record of a new schema, code warm, " + shape + ", registration included (µs)",
          "FirstRecordBenchmark.kavroNewSchema/" + shape, 250);
      absoluteTarget("Cold deserializer's first record of a known id, code warm, " + shape + " (µs)",
          "FirstRecordBenchmark.kavroColdReader/" + shape, 150);
    }
    for (String count : new String[] {"1000", "10000"}) {
      String schemas = String.format("%,d", Integer.parseInt(count)) + " schemas";
      ratioTarget("Many schemas: deserialize Kavro/raw, " + schemas, "ManySchemasBenchmark.deserialize/#" + count,
          "ManySchemasBenchmark.rawDeserialize/#" + count, 0.70, true);
      JsonNode raw = results.get("ManySchemasBenchmark.rawDeserialize/#" + count);
      JsonNode floor = results.get("ManySchemasBenchmark.allocationOnly/#" + count);
      JsonNode hand = results.get("ManySchemasBenchmark.handWrittenDeserialize/#" + count);
      String floorName = "Many schemas: deserialize floor/raw, " + schemas + ": allocation only, hand-written "
          + "(under any reader of Avro's generic records)";
      targets(raw == null || floor == null || hand == null ? row(floorName, "not measured", null)
          : row(floorName, ratio(floor, raw) + ", " + ratio(hand, raw), null));
      ratioTarget("Many schemas: serialize Kavro/raw, " + schemas, "ManySchemasBenchmark.serialize/#" + count,
          "ManySchemasBenchmark.rawSerialize/#" + count, 0.70, true);
    }
    ratioTarget("Kafka consumer poll loop, S3: Kavro/byte[] records/s", "KafkaClientBenchmark.consume/#BYTES",
        "KafkaClientBenchmark.consume/#KAVRO", 0.85, false);
    ratioTarget("Kafka producer, S3: Kavro/byte[] records/s", "KafkaClientBenchmark.produce/#BYTES",
        "KafkaClientBenchmark.produce/#KAVRO", 0.85, false);
    for (String[] floor : new String[][] {{"consume", "Kafka consumer poll loop floor, S3: floor/byte[] records/s, "
        + "allocation only (over any deserializer of Avro's generic records)"}, {"produce", "Kafka producer floor, "
        + "S3: floor/byte[] records/s, every value read and a copy of the bytes (over any serializer)"}}) {
      JsonNode bytes = results.get("KafkaClientBenchmark." + floor[0] + "/#BYTES");
      JsonNode allocation = results.get("KafkaClientBenchmark." + floor[0] + "/#FLOOR");
      targets(bytes == null || allocation == null ? row(floor[1], "not measured", null)
          : row(floor[1], ratio(bytes, allocation), null));
    }
    String handName = "Kafka producer, S3: hand-written/byte[] records/s, a writer hand-written for S3's generic "
        + "records (what one such writer reaches, not a bound)";
    JsonNode producedBytes = results.get("KafkaClientBenchmark.produce/#BYTES");
    JsonNode producedHand = results.get("KafkaClientBenchmark.produce/#HAND_WRITTEN");
    targets(producedBytes == null || producedHand == null ? row(handName, "not measured", null)
        : row(handName, ratio(producedBytes, producedHand), null));
    ratioTarget("Rules: a route without rules against rules switched off, serialize", "RulesBenchmark.serialize/#NONE",
        "RulesBenchmark.serialize/#OFF", 1.05, true);
    ratioTarget("Rules: a route without rules against rules switched off, deserialize",
        "RulesBenchmark.deserialize/#NONE", "RulesBenchmark.deserialize/#OFF", 1.05, true);
    for (String operation : new String[] {"deserialize", "serialize", "toConnect"}) {
      ratioTarget("Many schemas: " + operation + ", 2 threads/1 thread per operation, 10,000 schemas (no shared lock)",
          "ManySchemasThreadsBenchmark." + operation + "/#10000", "ManySchemasBenchmark." + operation + "/#10000",
          1.30, true);
    }
    for (String[] target : targets) {
      line("| " + target[0] + " | " + target[1] + " | " + target[2] + " |");
    }
    line("");
    bounds();
  }

  /**
   * What the serde alone takes on the same records with {@code java.lang.String}s, the form a struct holds its
   * strings in: a decoded generic record holds Avro's {@code Utf8}, whose bytes are copied where a string's chars are
   * encoded.
   */
  private String serdeOnJavaStrings(JsonNode fromConnect) {
    JsonNode javaStrings = results.get("ConverterBenchmark.serdeSerializeJavaStrings/");
    if (javaStrings == null) {
      return "";
    }
    return "The serde alone on the same records with their strings as `java.lang.String`, the form a struct holds "
        + "them in (a decoded generic record holds Avro's `Utf8`, whose bytes are copied, not encoded), takes "
        + time(javaStrings) + " ns: the converter takes " + ratio(fromConnect, javaStrings) + "× of that.";
  }

  /** Whether the target whose name starts with {@code name} was measured and missed. */
  private boolean missed(String name) {
    return targets.stream().anyMatch(target -> target[0].startsWith(name) && "**no**".equals(target[2]));
  }

  /** For each target this run missed, the measurement of this same run that bounds it. */
  private void bounds() {
    List<String> reasons = new ArrayList<>();
    JsonNode toConnect = results.get("ConverterBenchmark.toConnect/");
    JsonNode serdeRead = results.get("ConverterBenchmark.serdeDeserialize/");
    JsonNode structs = results.get("ConverterBenchmark.structsOnly/");
    if (missed("Connect: toConnectData/") && toConnect != null && serdeRead != null && structs != null) {
      reasons.add("**toConnectData**: building the same structs with `Struct.put` from values already in Connect's "
          + "form, reading nothing (`structsOnly`), takes " + time(structs) + " ns of the converter's "
          + time(toConnect) + " ns; the serde alone takes " + time(serdeRead) + " ns. So " + fmt(score(serdeRead)
          + score(structs)) + " ns (" + String.format(Locale.ROOT, "%.2f", (score(serdeRead) + score(structs))
          / score(serdeRead)) + "× the serde) is the floor of any converter that returns Connect's structs, "
          + "Confluent's included: `Struct.put` checks every value, nested ones again at each level.");
    }
    JsonNode fromConnect = results.get("ConverterBenchmark.fromConnect/");
    JsonNode serdeWrite = results.get("ConverterBenchmark.serdeSerialize/");
    if (missed("Connect: fromConnectData/serde") && fromConnect != null && serdeWrite != null) {
      reasons.add("**fromConnectData**: " + time(fromConnect) + " ns (" + alloc(fromConnect) + " B/op) against the "
          + "serde alone's " + time(serdeWrite) + " ns (" + alloc(serdeWrite) + " B/op), which is given the records "
          + "already in Avro's form: the converter writes each struct straight into the encoder (no generic "
          + "record), reading every value through `Struct.get` and converting Connect's logical values on the way "
          + "(a decimal's `BigDecimal` to its unscaled bytes, which allocates on every call). "
          + serdeOnJavaStrings(fromConnect));
    }
    for (String count : new String[] {"1000", "10000"}) {
      JsonNode kavro = results.get("ManySchemasBenchmark.deserialize/#" + count);
      JsonNode raw = results.get("ManySchemasBenchmark.rawDeserialize/#" + count);
      JsonNode kavroOne = results.get("ManySchemasBenchmark.deserialize/#1");
      JsonNode rawOne = results.get("ManySchemasBenchmark.rawDeserialize/#1");
      String schemas = String.format("%,d", Integer.parseInt(count)) + " schemas";
      if (missed("Many schemas: deserialize Kavro/raw, " + schemas) && kavro != null && raw != null
          && kavroOne != null && rawOne != null) {
        reasons.add("**Deserialize, " + schemas + "**: from 1 schema, raw Avro slows by " + ratio(raw, rawOne)
            + "× (" + time(rawOne) + " → " + time(raw) + " ns) and Kavro by " + ratio(kavro, kavroOne) + "× ("
            + time(kavroOne) + " → " + time(kavro) + " ns), allocating " + alloc(kavro) + " B/op and asking the "
            + "registry nothing. Every record touches its schema's objects and decoder, no longer in the CPU's "
            + "caches; the error bars say how far a shared machine moves this row."
            + (manyReadFloor(count) == null ? "" : " " + manyReadFloor(count)));
      }
    }
    JsonNode recordsRead = results.get("JavaRecordBenchmark.kavroDeserialize/");
    if (missed("Java records: deserialize") && recordsRead != null) {
      reasons.add("**Java records, deserialize**: " + time(recordsRead) + " ns, " + alloc(recordsRead) + " B/op: "
          + "the compiled generic decoder builds Avro's records, which a converter planned once per class turns "
          + "into the Java records (bytes and collections copied once more). A decoder that produces Java-typed "
          + "leaves directly would remove that step; two cheaper attempts (records built inside the decoder, "
          + "strings read through a reader-schema copy) measured no gain and were not kept.");
    }
    JsonNode consumed = results.get("KafkaClientBenchmark.consume/#KAVRO");
    JsonNode consumedBytes = results.get("KafkaClientBenchmark.consume/#BYTES");
    JsonNode consumedRaw = results.get("KafkaClientBenchmark.consume/#RAW_AVRO");
    JsonNode consumedFloor = results.get("KafkaClientBenchmark.consume/#FLOOR");
    JsonNode graphOnly = results.get("DeserializeLimitsBenchmark.allocationOnly/S3");
    String consumerTarget = "Kafka consumer poll loop, S3: Kavro/byte[] records/s";
    if (missed(consumerTarget) && consumed != null && consumedBytes != null && consumedFloor != null) {
      reasons.add("**Kafka consumer, S3**: " + clientLoop("poll loop", "deserializer", consumed, consumedBytes) + " "
          + consumerConclusion());
    } else if (missed(consumerTarget) && consumed != null && consumedBytes != null && graphOnly != null) {
      double loop = perRecord(consumedBytes);
      double reachable = loop / (loop + score(graphOnly));
      reasons.add("**Kafka consumer, S3**: " + clientLoop("poll loop", "deserializer", consumed, consumedBytes)
          + " Kavro allocates " + fmt((allocValue(consumed) - allocValue(consumedBytes))
          / KafkaClientBenchmark.RECORDS) + " B a record more, the records' object graph; merely allocating S3's "
          + "object graph without reading a byte takes " + time(graphOnly) + " ns (`DeserializeLimitsBenchmark`, "
          + "outside the loop, point estimates)" + (reachable < 0.85 ? ": no reader returning Avro's generic "
          + "records reaches more than " + String.format(Locale.ROOT, "%.2f", reachable) + " of the byte-array "
          + "loop here." : ": the allocation alone would leave " + String.format(Locale.ROOT, "%.2f", reachable)
          + ", so it does not stop 0.85.") + (consumedRaw == null ? "" : " Raw Avro's fast reader of the schema, "
          + "built beforehand, no registry (the baseline, not a bound), in the same loop reaches "
          + ratio(consumedBytes, consumedRaw) + " of it; Kavro/raw Avro (records/s) is "
          + ratio(consumedRaw, consumed) + "."));
    }
    JsonNode produced = results.get("KafkaClientBenchmark.produce/#KAVRO");
    JsonNode producedBytes = results.get("KafkaClientBenchmark.produce/#BYTES");
    String producerConclusion = producerConclusion();
    if (missed("Kafka producer, S3: Kavro/byte[] records/s") && produced != null && producedBytes != null
        && producerConclusion != null) {
      reasons.add("**Kafka producer, S3**: " + clientLoop("producer loop", "serializer", produced, producedBytes)
          + " " + producerConclusion);
    }
    JsonNode specificS3 = results.get("SpecificBenchmark.kavroSerialize/S3");
    if (missed("Generated classes: serialize allocation, S3") && specificS3 != null) {
      reasons.add("**Generated S3, write allocation**: " + alloc(specificS3) + " B/op against a payload of "
          + fmt(averageBody(Shape.S3)) + " B: the rest is allocated while the fields are read through `get(int)`, "
          + "Avro's contract for a writer of generated classes (what `SpecificDatumWriter` reads), which boxes every "
          + "primitive field; the same shape in Avro's generic form, whose values are boxed already, allocates the "
          + "output only." + specificAllocationFloor());
    }
    JsonNode toConnect2 = results.get("ConverterBenchmark.toConnect2Threads/");
    JsonNode serdeRead2 = results.get("ConverterBenchmark.serdeDeserialize2Threads/");
    if (missed("Connect: toConnectData, 2 threads") && toConnect != null && toConnect2 != null && serdeRead != null
        && serdeRead2 != null) {
      reasons.add("**Two threads on one converter**: the serde alone, which shares nothing between threads, slows by "
          + ratio(serdeRead2, serdeRead) + "× per operation on two threads in this run (" + time(serdeRead) + " → "
          + time(serdeRead2) + " ns), the converter by " + ratio(toConnect2, toConnect) + "×: two threads on this "
          + "machine's two cores share its caches, memory bandwidth and garbage collector; the converter takes no "
          + "lock on this path.");
    }
    JsonNode manyToConnect = results.get("ManySchemasBenchmark.toConnect/#10000");
    JsonNode manyToConnect2 = results.get("ManySchemasThreadsBenchmark.toConnect/#10000");
    JsonNode manyStructs = results.get("ManySchemasBenchmark.structsOnly/#10000");
    JsonNode manyStructs2 = results.get("ManySchemasThreadsBenchmark.structsOnly/#10000");
    if (missed("Many schemas: toConnect, 2 threads") && manyToConnect != null && manyToConnect2 != null
        && manyStructs != null && manyStructs2 != null) {
      double converter = score(manyToConnect2) / score(manyToConnect);
      double structsAlone = score(manyStructs2) / score(manyStructs);
      reasons.add("**toConnect, two threads, 10,000 schemas**: the converter slows by "
          + ratio(manyToConnect2, manyToConnect) + "× per operation on two threads (" + time(manyToConnect) + " → "
          + time(manyToConnect2) + " ns). Building the same structs again from values already in Connect's form "
          + "(`structsOnly`: it reads nothing, shares nothing between the threads and takes no lock), "
          + String.format(Locale.ROOT, "%.0f", 100 * score(manyStructs) / score(manyToConnect)) + " % of the "
          + "converter's time on one thread, slows by " + ratio(manyStructs2, manyStructs) + "× (" + time(manyStructs)
          + " → " + time(manyStructs2) + " ns). "
          + (structsAlone >= converter
              ? "So two threads on this machine's two cores, which share its caches, memory bandwidth and garbage "
                  + "collector, slow that floor as much as the converter."
              : "That floor explains part of it; the rest is the converter's own per-record lookups beside the "
                  + "serde (the writer schema's version in the topic's subject, its Connect schema), caches that "
                  + "the two threads share, which no measurement of this run isolates."));
    }
    for (String shape : new String[] {"S2", "S3"}) {
      JsonNode kavro = results.get("DeserializeBenchmark.kavro/" + shape);
      JsonNode raw = results.get("DeserializeBenchmark.raw/" + shape);
      JsonNode limitsKavro = results.get("DeserializeLimitsBenchmark.kavro/" + shape);
      JsonNode limitsHand = results.get("DeserializeLimitsBenchmark.handWritten/" + shape);
      JsonNode limitsAlloc = results.get("DeserializeLimitsBenchmark.allocationOnly/" + shape);
      JsonNode limitsRaw = results.get("DeserializeLimitsBenchmark.raw/" + shape);
      if (missed("Compiled codec: deserialize Kavro/raw, " + shape) && kavro != null && raw != null
          && limitsKavro != null && limitsHand != null && limitsAlloc != null && limitsRaw != null) {
        reasons.add("**Compiled reader, " + shape + "**: per fork, Kavro " + forks(kavro, "primaryMetric")
            + " ns and raw Avro " + forks(raw, "primaryMetric") + " ns. In `DeserializeLimitsBenchmark` of the "
            + "same run, the same code reads at " + ratio(limitsKavro, limitsRaw) + " of raw Avro; a reader written "
            + "by hand for exactly this schema reads at " + ratio(limitsHand, limitsRaw) + ", and merely allocating "
            + "the same object graph takes " + ratio(limitsAlloc, limitsRaw) + " (\"Deserialize: how far any reader "
            + "can go\"). " + ("S2".equals(shape)
                ? "81 optional strings per record are 81 String objects and their arrays, which any reader "
                    + "returning Avro's generic records must build."
                : "The same code measured in two benchmarks of one run differs by as much as the target's margin: "
                    + "the fork means above show how far one fork (its JIT decisions, this shared machine's "
                    + "load) moves from another."));
      }
    }
    for (Shape shape : List.of(Shape.S2, Shape.S3)) {
      String floor = specificReadFloor(shape);
      if (missed("Generated classes: deserialize Kavro/raw, " + shape) && floor != null) {
        reasons.add("**Generated " + shape + ", read time**: per fork, Kavro "
            + forks(results.get("SpecificBenchmark.kavroDeserialize/" + shape), "primaryMetric") + " ns and Avro's "
            + "reader " + forks(results.get("SpecificBenchmark.rawDeserialize/" + shape), "primaryMetric") + " ns. "
            + floor + " (\"Generated classes\", the reads' floors.)");
      }
    }
    JsonNode specificWrite = results.get("SpecificBenchmark.kavroSerialize/S3");
    JsonNode rawSpecificWrite = results.get("SpecificBenchmark.rawSerialize/S3");
    if (missed("Generated classes: serialize Kavro/raw, S3") && specificWrite != null && rawSpecificWrite != null) {
      reasons.add("**Generated S3, write time**: per fork, Kavro " + forks(specificWrite, "primaryMetric")
          + " ns and Avro's writer " + forks(rawSpecificWrite, "primaryMetric") + " ns; Kavro's allocation per fork "
          + forks(specificWrite, "gc.alloc.rate.norm") + " B/op (the JIT removes some of the decimals' temporaries "
          + "in one fork and not in another). A miss here with Avro's writer's time far from its other runs' is "
          + "this shared machine's noise: run the benchmark alone again before reading it as the code's."
          + specificWriteFloor());
    }
    if (reasons.isEmpty()) {
      return;
    }
    line("## What bounds the targets not met");
    line("");
    reasons.forEach(reason -> line("- " + reason));
    line("");
  }

  /** The allocation of the floors under generated S3 writes, in this run; empty if they were not measured. */
  private String specificAllocationFloor() {
    JsonNode hand = results.get("SpecificBenchmark.handWrittenSerialize/S3");
    JsonNode floor = results.get("SpecificBenchmark.allocationOnlySerialize/S3");
    if (hand == null || floor == null) {
      return "";
    }
    return " In the same run, `get(int)`'s boxes kept and the output array allocate " + alloc(floor) + " B/op, and "
        + "a writer written by hand for the class, reading it through `get(int)` as Avro's writer does, " + alloc(hand)
        + " B/op: with its calls inlined at constant indices, the JIT removes the boxes.";
  }

  /** What the floors under generated S3 writes say, in this run; empty if they were not measured. */
  private String specificWriteFloor() {
    JsonNode kavro = results.get("SpecificBenchmark.kavroSerialize/S3");
    JsonNode hand = results.get("SpecificBenchmark.handWrittenSerialize/S3");
    JsonNode floor = results.get("SpecificBenchmark.allocationOnlySerialize/S3");
    JsonNode raw = results.get("SpecificBenchmark.rawSerialize/S3");
    if (kavro == null || hand == null || raw == null) {
      return "";
    }
    return " In the same run, a writer written by hand for exactly the class, reading it through `get(int)` as "
        + "Avro's writer does and returning the same bytes, writes at " + ratio(hand, raw) + " of Avro's writer ("
        + time(hand) + " ns, " + alloc(hand) + " B/op), Kavro at " + ratio(kavro, raw) + ", "
        + ratio(kavro, hand) + "× the hand-written writer's time"
        + (floor == null ? "" : "; `get(int)`'s boxes and the output array alone take " + ratio(floor, raw) + " ("
            + time(floor) + " ns, " + alloc(floor) + " B/op)")
        + " (\"Generated classes\").";
  }

  private static final String MANY_SCHEMAS = "## Many schemas";
  static final String CLIENTS = "## In Kafka's clients (S3)";
  private static final String RULES = "## Data contract rules (S3)";

  /** The RESULTS.md this run replaces, for the previous figures beside the new ones; empty if none. */
  private String old = "";
  /** Whether {@link #render} measures what no JMH run gives: each cached schema's heap, payload sizes. */
  private boolean measuresItself = true;

  private void ratioTarget(String name, String top, String bottom, double bound, boolean atMost) {
    JsonNode a = results.get(top);
    JsonNode b = results.get(bottom);
    if (a == null || b == null) {
      targets(row(name, "not measured", null));
      return;
    }
    double ratio = score(a) / score(b);
    targets(row(name + (atMost ? " ≤ " : " ≥ ") + bound, String.format(Locale.ROOT, "%.2f", ratio),
        atMost ? ratio <= bound : ratio >= bound));
  }

  private void absoluteTarget(String name, String result, double bound) {
    JsonNode run = results.get(result);
    targets(run == null ? row(name + " ≤ " + fmt(bound), "not measured", null)
        : row(name + " ≤ " + fmt(bound), time(run), score(run) <= bound));
  }

  /**
   * The targets' measurements of this run beside those of {@code previous}, an earlier run's steady-state results
   * on the same machine: the rows it measured too, each marked where this run's is worse by more than 10 %
   * (allocations: by more than 1 B/op), which two runs of one build on this machine can differ by.
   */
  private String againstPrevious(Report previous, String label) {
    previous.md.setLength(0);
    previous.checkTargets();
    Map<String, String> before = new LinkedHashMap<>();
    previous.targets.forEach(target -> before.put(target[0], target[1]));
    md.setLength(0);
    line("## Against the previous run");
    line("");
    line("The targets' measurements beside those of the previous run of the same mode on this machine ("
        + label + "), steady-state rows only. A row is marked worse where this run's value is worse by more than "
        + "10 % (an allocation: by more than 1 B/op); two runs of one build here differ by about that much. Rows "
        + "that are not targets (floors and reference points) are never marked.");
    line("");
    line("| target | previous | this run | this/previous | worse? |");
    line("|---|---|---|---|---|");
    for (String[] target : targets) {
      Double now = firstNumber(target[1]);
      Double then = firstNumber(before.get(target[0]));
      if (now == null || then == null || target[1].contains(" vs ") || then == 0) {
        continue;
      }
      boolean higherIsBetter = target[0].contains(" ≥ ") || target[0].contains("records/s");
      boolean allocation = target[1].endsWith("B/op");
      boolean worse = allocation ? now - then > 1 : higherIsBetter ? now < then / 1.10 : now > then * 1.10;
      line("| " + target[0] + " | " + before.get(target[0]) + " | " + target[1] + " | "
          + String.format(Locale.ROOT, "%.2f", now / then) + " | " + ("n/a".equals(target[2]) ? "n/a"
          : worse ? "**worse**" : "no") + " |");
    }
    line("");
    return md.toString();
  }

  /** The first number in a measurement ("1,666 B/op", "0.62", "-112.0 B/op"), or {@code null}. */
  private static Double firstNumber(String measured) {
    if (measured == null) {
      return null;
    }
    java.util.regex.Matcher number = java.util.regex.Pattern.compile("-?[0-9][0-9,]*(\\.[0-9]+)?")
        .matcher(measured);
    return number.find() ? Double.valueOf(number.group().replace(",", "")) : null;
  }

  private static String[] row(String name, String measured, Boolean met) {
    return new String[] {name, measured, met == null ? "n/a" : met ? "yes" : "**no**"};
  }

  private void targets(String[] row) {
    targets.add(row);
  }

  private void firstMessage() {
    line("## First message of a new schema, code cold (single shot)");
    line("");
    line("A new serializer, a freshly parsed schema and an empty registry for each shot: registration and cache "
        + "building included (after a few warm-up shots, so JVM class loading is not counted).");
    line("");
    line("| shape | Kavro µs | raw Avro µs |");
    line("|---|---|---|");
    for (Shape shape : List.of(Shape.S1, Shape.S2, Shape.S3)) {
      line("| " + shape + " | " + time(results.get("FirstMessageBenchmark.kavro/" + shape)) + " | "
          + time(results.get("FirstMessageBenchmark.raw/" + shape)) + " |");
    }
    line("");
  }

  private void firstRecordWarm() {
    line("## First record of a new schema, code warm");
    line("");
    line("`FirstRecordBenchmark`: in a JVM that has run the code before (a Connect worker on many topics, a service "
        + "with many record types), each shot is " + FirstRecordBenchmark.SCHEMAS + " schemas never seen before, each "
        + "its own record type on its own topic, freshly parsed. New schema: one serializer writes the first record "
        + "of each, registration on `mock://` included, against raw Avro building a writer for each. Cold reader: a "
        + "new deserializer reads the first record of each known id (fetched, parsed, planned), against raw Avro "
        + "parsing the schema's text and building a reader. The table above is the same first record in a JVM that "
        + "has barely run the code.");
    line("");
    line("| shape | new schema, Kavro µs | raw Avro µs | cold reader, Kavro µs | raw Avro µs |");
    line("|---|---|---|---|---|");
    for (Shape shape : List.of(Shape.S1, Shape.S3)) {
      line("| " + shape + " | " + time(results.get("FirstRecordBenchmark.kavroNewSchema/" + shape)) + " | "
          + time(results.get("FirstRecordBenchmark.rawNewSchema/" + shape)) + " | "
          + time(results.get("FirstRecordBenchmark.kavroColdReader/" + shape)) + " | "
          + time(results.get("FirstRecordBenchmark.rawColdReader/" + shape)) + " |");
    }
    line("");
  }

  private void payloadSizes() throws Exception {
    line("## Payload size per record");
    line("");
    line("Bytes per record in Kafka record batches of 1,000 records (batch overhead included), as the broker "
        + "stores them.");
    line("");
    line("| shape | format | none | gzip | snappy | lz4 | zstd |");
    line("|---|---|---|---|---|---|---|");
    for (PayloadSizes.Row row : measuresItself ? PayloadSizes.measure() : List.<PayloadSizes.Row>of()) {
      StringBuilder cells = new StringBuilder("| " + row.shape() + " | " + row.format() + " |");
      row.bytesPerRecord().values().forEach(v -> cells.append(' ').append(fmt(v)).append(" |"));
      line(cells.toString());
    }
    line("");
  }

  private static double averageBody(Shape shape) {
    RawAvro raw = new RawAvro(shape.writer(), shape.reader(), 1);
    long total = 0;
    List<GenericRecord> records = BenchData.records(shape);
    for (GenericRecord record : records) {
      total += raw.serialize(record).length - 5;
    }
    return total / (double) records.size();
  }

  /** The mean of each fork's iterations of a metric ("primaryMetric" or a secondary one's name), "a and b". */
  private static String forks(JsonNode run, String metric) {
    JsonNode node = "primaryMetric".equals(metric) ? run.path("primaryMetric")
        : run.path("secondaryMetrics").path(metric);
    List<String> means = new ArrayList<>();
    for (JsonNode fork : node.path("rawData")) {
      double sum = 0;
      for (JsonNode iteration : fork) {
        sum += iteration.asDouble();
      }
      means.add(fmt(sum / Math.max(1, fork.size())));
    }
    return String.join(" and ", means);
  }

  private static double score(JsonNode run) {
    return run.path("primaryMetric").path("score").asDouble();
  }

  /** The 99.9% error of a result's score, 0 when JMH gives none (a single measurement). */
  private static double error(JsonNode run) {
    double error = run.path("primaryMetric").path("scoreError").asDouble(Double.NaN);
    return Double.isNaN(error) ? 0 : error;
  }

  private static String time(JsonNode run) {
    if (run == null) {
      return "n/a";
    }
    JsonNode metric = run.path("primaryMetric");
    double error = metric.path("scoreError").asDouble(Double.NaN);
    return fmt(metric.path("score").asDouble()) + (Double.isNaN(error) ? "" : " ± " + fmt(error));
  }

  private static double allocValue(JsonNode run) {
    return run.path("secondaryMetrics").path("gc.alloc.rate.norm").path("score").asDouble(Double.NaN);
  }

  private static String alloc(JsonNode run) {
    return run == null ? "n/a" : fmt(allocValue(run));
  }

  private static String ratio(JsonNode a, JsonNode b) {
    return a == null || b == null ? "n/a" : String.format(Locale.ROOT, "%.2f", score(a) / score(b));
  }

  /** Allocation per operation of {@code a} over {@code b}. */
  private static String allocRatio(JsonNode a, JsonNode b) {
    return a == null || b == null ? "n/a" : String.format(Locale.ROOT, "%.2f", allocValue(a) / allocValue(b));
  }

  private static String fmt(double value) {
    return Double.isNaN(value) ? "n/a" : value >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  static String machine() {
    String cpu = "unknown CPU";
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          cpu = l.substring(l.indexOf(':') + 1).trim();
          break;
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return "Machine: " + cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores, Java "
        + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ").";
  }

  private void line(String text) {
    md.append(text).append('\n');
  }
}
