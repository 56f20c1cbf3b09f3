package com.acme.reader;

import org.apache.avro.Schema;

/**
 * A consumer's reader class as Avro generates it, reduced to what {@code verify-reader} reads of one: its
 * {@code SCHEMA$}. MavenBuildsIT copies its compiled class into the sample's {@code target/classes}, the project's
 * compile class path.
 */
public final class OrderReader {
  /** The reader schema: reads version 1 of the sample subject (no note) and version 2 (a note). */
  public static final Schema SCHEMA$ = new Schema.Parser().parse("""
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [
        {"name": "id", "type": "long"},
        {"name": "amount", "type": "double"},
        {"name": "note", "type": ["null", "string"], "default": null}
      ]}""");

  private OrderReader() {}
}
