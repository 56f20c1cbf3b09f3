package io.kavro.serde;

import io.kavro.serde.rules.InlineBinding;
import io.kavro.serde.rules.InlineChecks;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The rules a route runs on write, in Confluent's order: the domain rules on the message (a generic datum of the
 * writer schema, decoded from what the codec wrote, so the application's own object is never changed), then the
 * encoding rules on the encoded body; the inline validation rules ({@code confluent:rules}) before or after the domain
 * rules. The framing is put around the result. Immutable and thread-safe; only routes whose schema version has rules
 * (or inline rules, when they run) carry one, so a schema without rules costs nothing.
 */
final class WriteRules {
  private final Schema writer;
  private final RulePlan domain;
  private final RulePlan encoding;
  private final GenericDatumReader<Object> reader;
  private final GenericDatumWriter<Object> datumWriter;
  private final Inline inline;
  /** Whether a rule runs: false when the plans only count rules skipped on write (rule metrics). */
  private final boolean runs;

  /**
   * @param domain the domain rules, or null; @param encoding the encoding rules, or null; @param inline the inline
   *     validation rules, or null
   */
  WriteRules(Schema writer, RulePlan domain, RulePlan encoding, Inline inline) {
    this.writer = writer;
    this.domain = domain;
    this.encoding = encoding;
    this.inline = inline;
    this.runs = inline != null || domain != null && domain.runs() || encoding != null && encoding.runs();
    this.reader = new GenericDatumReader<>(writer, writer, GenericData.get());
    this.datumWriter = new GenericDatumWriter<>(writer, GenericData.get());
  }

  /** Builds the rules of a route, or null when none runs. */
  static WriteRules of(Schema writer, RulePlan domain, RulePlan encoding, Inline inline) {
    return domain == null && encoding == null && inline == null ? null
        : new WriteRules(writer, domain, encoding, inline);
  }

  /**
   * The inline validation rules of a schema version, compiled once, and when they run: before or after the domain
   * rules, as {@code validation.rules.execution} says.
   *
   * @param checks the compiled rules
   * @param before whether they run before the domain rules
   * @param failFast whether the first violation stops the walk
   * @param at the schema version and record, for the message
   */
  record Inline(InlineChecks checks, boolean before, boolean failFast, String at) {
    /**
     * The inline rules of {@code writer}, or null when it has none.
     *
     * @param binding what {@code this} is: the data model the serializer writes the application's object with
     */
    static Inline of(InlineValidation validation, Schema writer, String at, InlineBinding binding) {
      InlineChecks checks;
      try {
        checks = validation.prepare(writer, binding);
      } catch (RuleException e) {
        throw new SerializationException("cannot serialize with " + at + ": an inline validation rule cannot run: "
            + e.getMessage(), e);
      }
      return checks == null ? null : new Inline(checks, validation.beforeDomainRules(), validation.failFast(), at);
    }

    /** @throws InlineValidationException when {@code message} breaks a rule */
    void check(Object message) {
      List<String> violations = checks.violations(message, failFast);
      if (!violations.isEmpty()) {
        throw new InlineValidationException(at, violations);
      }
    }
  }

  /** Whether a rule runs; when none does, {@link #skipped()} counts them instead of {@link #apply}. */
  boolean runs() {
    return runs;
  }

  /** Counts the rules of a version none of whose rules runs on write as skipped; reads nothing. */
  void skipped() {
    if (domain != null) {
      domain.countSkipped();
    }
    if (encoding != null) {
      encoding.countSkipped();
    }
  }

  /** The payload after the rules: {@code payload} holds {@code prefix} bytes of framing, then the body. */
  byte[] apply(RuleInput input, byte[] payload, int prefix) {
    byte[] body = java.util.Arrays.copyOfRange(payload, prefix, payload.length);
    Object message;
    try {
      message = reader.read(null, DecoderFactory.get().binaryDecoder(body, null));
    } catch (IOException | RuntimeException e) {
      throw new SerializationException("cannot run the rules of writer schema " + writer.getFullName()
          + ": its own encoding does not read back: " + e, e);
    }
    // Actions get the message as the writer schema's generic datum: what a dead letter queue writes.
    Object original = message;
    if (inline != null && inline.before()) {
      inline.check(message);
    }
    if (domain != null) {
      message = domain.run(input, message, original);
      if (domain.transforms()) {
        body = encode(message);
      }
    }
    if (inline != null && !inline.before()) {
      inline.check(message);
    }
    if (encoding != null) {
      Object encoded = encoding.run(input, body, message);
      if (!(encoded instanceof byte[] bytes)) {
        throw new SerializationException("an encoding rule of writer schema " + writer.getFullName()
            + " gave " + (encoded == null ? "nothing" : "a " + encoded.getClass().getName()) + ", not bytes");
      }
      body = bytes;
    }
    byte[] framed = new byte[prefix + body.length];
    System.arraycopy(payload, 0, framed, 0, prefix);
    System.arraycopy(body, 0, framed, prefix, body.length);
    return framed;
  }

  private byte[] encode(Object message) {
    try {
      return RuleMessageEncoder.encode(datumWriter, message);
    } catch (IOException | RuntimeException e) {
      // Avro's writer quotes the value that does not fit: the class only
      throw new SerializationException("the rules of writer schema " + writer.getFullName() + " gave a message "
          + "that does not match it: " + e.getClass().getName(), RuleException.hidingValues("a message that does "
          + "not match", e));
    }
  }
}
