/**
 * Avro plumbing behind the serde: data models with logical-type conversions, schema inference from data,
 * a bounds-checked decoder and a reusable output buffer.
 *
 * <p>Internal: these classes are public only so that the serde and Connect packages can share them. They are
 * not a stable API, and not in the public javadoc.
 */
package io.kavro.serde.internal.avro;
