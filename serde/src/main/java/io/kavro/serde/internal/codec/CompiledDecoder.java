package io.kavro.serde.internal.codec;

import io.kavro.serde.internal.avro.BoundedBinaryDecoder;
import java.io.IOException;

/** Decodes one value written with one schema as another. Stateless and thread-safe. */
@FunctionalInterface
public interface CompiledDecoder {
  /** @throws IOException for a truncated or corrupt body, as the decoder reports it */
  Object decode(BoundedBinaryDecoder in) throws IOException;
}
