package io.kavro.serde;

import io.kavro.registry.OAuthTokenRefusedException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.serde.rules.Causes;

/**
 * What a serde failure says of its deployment rather than of its record, for a host that decides what to do with a
 * failed record (Kavro's Connect converter and transform): the questions that need the registry client's types,
 * answered in the serde's terms.
 */
public final class RegistryFaults {
  private static final int FORBIDDEN = 403;

  private RegistryFaults() {}

  /**
   * Whether a registry (or the DEK registry) refused the client's credentials themselves: a
   * {@link RegistryAccessDeniedException} among the causes of {@code failure} whose status is not 403 (an HTTP 401:
   * wrong, missing or expired credentials; or an HTTP proxy's 407: the proxy's own credentials), or an
   * {@link OAuthTokenRefusedException} whatever its status (no OAuth
   * token could be had: the issuer's own refusal, a 403 too). Every record meets it alike until the credentials are
   * fixed. A registry's own 403 is not that: the credentials were accepted, and the refusal may be scoped to what one
   * record names (a subject's schema id, one KEK).
   *
   * @param failure a serde's failure, or null
   */
  public static boolean credentialsRefused(Throwable failure) {
    return Causes.find(failure, RegistryAccessDeniedException.class)
        .filter(denied -> denied instanceof OAuthTokenRefusedException || denied.status() != FORBIDDEN).isPresent();
  }
}
