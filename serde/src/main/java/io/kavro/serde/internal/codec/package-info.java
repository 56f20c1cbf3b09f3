/**
 * The compiled codecs ({@code avro.fast.codec}): for each writer schema a {@link CompiledEncoder}, a tree of
 * pre-resolved steps that {@link EncoderCompiler} builds, and for each (writer schema, reader schema) pair a
 * {@link CompiledDecoder} that {@link DecoderCompiler} builds, with Avro's resolution decided once. They write and read
 * exactly what Apache Avro's generic and specific datum writers and readers do, faster. Schemas they cannot
 * handle fall back to Avro's own.
 *
 * <p>Internal: not a stable API, and not in the public javadoc.
 */
package io.kavro.serde.internal.codec;
