package io.kavro.registry.internal.http;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;

/**
 * A 404 that is not the registry's own answer (a page of text, a proxy's) from an API whose missing is learned only
 * from a registry's own answer ({@link OptionalApi#knownAnswersOnly}: the associations API is the serde's first call,
 * the GUID API a deserializer's), while no URL has answered as a registry yet: thrown by the transport at once, for
 * the client to ask the core API whether the URL is wrong (a {@link io.kavro.registry.WrongRegistryUrlException}) or
 * the registry is there, and then to send the call again ({@link RestRequest#afterCoreApiAnswered}), which goes on as
 * an outage, retried and failed over, and never throws this again. Not counted as a failed call; never leaves the
 * client.
 */
public final class UnprovenNotFoundException extends RegistryUnavailableException {
  private static final long serialVersionUID = 1L;

  UnprovenNotFoundException(SchemaRegistryException failure) {
    super(failure.getMessage(), failure.status(), failure.errorCode(), failure.url(), null);
  }
}
