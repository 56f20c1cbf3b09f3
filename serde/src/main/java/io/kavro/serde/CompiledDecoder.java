package io.kavro.serde;

import java.io.IOException;

/** Decodes one value written with one schema as another. Stateless and thread-safe. */
@FunctionalInterface
interface CompiledDecoder {
  /** @throws IOException for a truncated or corrupt body, as the decoder reports it */
  Object decode(BoundedBinaryDecoder in) throws IOException;
}
