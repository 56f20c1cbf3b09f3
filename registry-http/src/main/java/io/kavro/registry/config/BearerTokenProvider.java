package io.kavro.registry.config;

import java.util.Map;

/**
 * Supplies the bearer token sent to the registry as {@code Authorization: Bearer <token>}: Kavro's
 * counterpart of Confluent's {@code BearerAuthCredentialProvider}, for tokens that an application gets its own
 * way. Name the class in {@code bearer.auth.custom.provider.class} (with
 * {@code bearer.auth.credentials.source=CUSTOM}), or set an instance with
 * {@link RegistryConfig.Builder#bearerTokenProvider}.
 *
 * <p>Implementations must be thread-safe: every request of every thread asks for the token. They should cache
 * it and answer quickly; {@link #token()} may block while a new one is fetched.
 */
public interface BearerTokenProvider {

  /**
   * Called once, before the first {@link #token()}, with the client's whole configuration map, when the
   * provider was named by class. Does nothing by default.
   */
  default void configure(Map<String, ?> configs) {}

  /**
   * The token to send now.
   *
   * @throws io.kavro.registry.SchemaRegistryException when no token can be had: a {@link
   *     io.kavro.registry.RegistryUnavailableException} if the
   *     source may answer later, a {@link io.kavro.registry.RegistryAccessDeniedException} (best, a
   *     {@link io.kavro.registry.OAuthTokenRefusedException}) if it refused: the client makes it the latter, whatever
   *     its status, so that a source's 403 is never read as the registry refusing one request
   */
  String token();

  /**
   * The registry answered 401 to {@code token}: the next {@link #token()} must not return it. The request is
   * then sent once more with a new token. Does nothing by default.
   */
  default void unauthorized(String token) {}
}
