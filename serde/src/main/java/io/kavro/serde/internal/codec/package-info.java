/**
 * Schema-specialized codecs: for each writer schema a tree of pre-resolved steps that encodes a datum, and for
 * each (writer, reader) pair a tree that decodes one with Avro's resolution decided once. They write and read
 * exactly what Apache Avro's generic and specific datum writers and readers do, faster. Schemas they cannot
 * handle fall back to Avro's own.
 *
 * <p>Internal: not a stable API, and not in the public javadoc.
 */
package io.kavro.serde.internal.codec;
