package io.kavro.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

/**
 * The rules a route runs on read, in Confluent's order: the encoding rules of the writer's version on the body;
 * the migrations from the writer's version to the reader's, on the message in Avro's JSON form; the domain rules
 * of the target version (the reader's with {@code use.latest.*}, else the writer's) on a generic datum. The result
 * is encoded again as the {@link #output()} schema, which the route's decoder reads as usual. Immutable and
 * thread-safe; only routes whose versions have rules carry one.
 */
final class ReadRules {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Schema writer;
  private final Schema target;
  private final RulePlan encoding;
  private final List<RulePlan> migrations;
  private final RulePlan domain;
  private final GenericDatumReader<Object> reader;
  private final GenericDatumWriter<Object> writerOfWriter;
  private final GenericDatumReader<Object> targetReader;
  private final GenericDatumWriter<Object> datumWriter;
  /** Whether a migration rule runs; else the migrations (if any) only count rules skipped (rule metrics). */
  private final boolean migrates;
  /** Whether a domain rule runs. */
  private final boolean domainRuns;
  /** Whether any rule runs; when none does, {@link #skipped()} counts them instead of {@link #apply}. */
  private final boolean runs;

  private ReadRules(Schema writer, Schema target, RulePlan encoding, List<RulePlan> migrations, RulePlan domain) {
    this.writer = writer;
    this.migrates = migrations.stream().anyMatch(RulePlan::runs);
    this.domainRuns = domain != null && domain.runs();
    this.runs = migrates || domainRuns || encoding != null && encoding.runs();
    this.target = !migrates && !domainRuns ? writer : target;
    this.encoding = encoding;
    this.migrations = List.copyOf(migrations);
    this.domain = domain;
    this.reader = !migrates ? new GenericDatumReader<>(writer, this.target, GenericData.get())
        : new GenericDatumReader<>(writer, writer, GenericData.get());
    this.writerOfWriter = new GenericDatumWriter<>(writer, GenericData.get());
    this.targetReader = new GenericDatumReader<>(this.target, this.target, GenericData.get());
    this.datumWriter = new GenericDatumWriter<>(this.target, GenericData.get());
  }

  /** The rules of a route, or null when none runs. */
  static ReadRules of(Schema writer, Schema target, RulePlan encoding, List<RulePlan> migrations, RulePlan domain) {
    return encoding == null && migrations.isEmpty() && domain == null ? null
        : new ReadRules(writer, target, encoding, migrations, domain);
  }

  /** The schema that {@link #apply}'s bytes are written with: the route decodes them as their writer schema. */
  Schema output() {
    return target;
  }

  /** Whether a rule runs. */
  boolean runs() {
    return runs;
  }

  /** Counts the rules of versions none of whose rules runs on read as skipped; reads nothing. */
  void skipped() {
    if (encoding != null) {
      encoding.countSkipped();
    }
    skippedAfterEncoding();
  }

  /** Counts the migrations' and the domain rules' skipped rules, when none of them runs. */
  private void skippedAfterEncoding() {
    for (int i = 0; i < migrations.size(); i++) { // per record: no iterator
      migrations.get(i).countSkipped();
    }
    if (domain != null) {
      domain.countSkipped();
    }
  }

  /**
   * The body after the rules.
   *
   * @param payload the whole payload, for actions
   * @param toTheEnd whether the body must be read to its last byte
   * @throws IOException when the body is not valid for the writer schema
   */
  byte[] apply(RuleInput input, byte[] payload, int offset, int length, boolean toTheEnd) throws IOException {
    byte[] body = java.util.Arrays.copyOfRange(payload, offset, offset + length);
    if (encoding != null) {
      Object decoded = encoding.run(input, body, payload);
      if (!(decoded instanceof byte[] bytes)) {
        throw new IOException("an encoding rule of writer schema " + writer.getFullName() + " gave "
            + (decoded == null ? "nothing" : "a " + decoded.getClass().getName()) + ", not bytes");
      }
      body = bytes;
    }
    if (!migrates && !domainRuns) {
      skippedAfterEncoding();
      return body;
    }
    org.apache.avro.io.BinaryDecoder in = DecoderFactory.get().binaryDecoder(body, null);
    Object message = reader.read(null, in);
    if (toTheEnd && !in.isEnd()) {
      throw new IOException("bytes are left after the datum");
    }
    if (!migrates) {
      for (RulePlan migration : migrations) {
        migration.countSkipped();
      }
    } else {
      JsonNode json = toJson(message);
      for (RulePlan migration : migrations) {
        Object migrated = migration.run(input, json, payload);
        if (!(migrated instanceof JsonNode node)) {
          throw new IOException("a migration rule gave " + (migrated == null ? "nothing"
              : "a " + migrated.getClass().getName()) + ", not JSON");
        }
        json = node;
      }
      try {
        message = targetReader.read(null, DecoderFactory.get().jsonDecoder(target, JSON.writeValueAsString(json)));
      } catch (IOException | RuntimeException e) {
        // Avro's JSON decoder quotes what it read (an enum symbol): the class only, as for any rule's failure
        throw new IOException("the migrated message does not match the reader schema " + target.getFullName()
            + ": " + e.getClass().getName(), RuleException.hidingValues("a migrated message that does not match", e));
      }
    }
    if (domain != null) {
      message = domain.run(input, message, payload);
    }
    if (!migrates && target == writer && !domain.transforms()) {
      return body; // conditions only: the message read is the message written
    }
    try {
      return RuleMessageEncoder.encode(datumWriter, message);
    } catch (IOException | RuntimeException e) {
      // Avro's writer quotes the value that does not fit: the class only
      throw new IOException("the rules gave a message that does not match schema " + target.getFullName()
          + ": " + e.getClass().getName(), RuleException.hidingValues("a message that does not match", e));
    }
  }

  private JsonNode toJson(Object message) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonEncoder encoder = EncoderFactory.get().jsonEncoder(writer, out);
    writerOfWriter.write(message, encoder);
    encoder.flush();
    return JSON.readTree(out.toByteArray());
  }
}
