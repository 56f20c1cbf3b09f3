package io.kavro.registry.config;

import java.time.Duration;
import java.util.Objects;

/**
 * OAuth 2 client credentials for the registry ({@code bearer.auth.credentials.source=OAUTHBEARER}): the
 * client asks the issuer for an access token with its id and secret, sends it as a bearer token, keeps it
 * until {@code expiryBuffer} before it expires (and refreshes it then, ahead of time), and fetches a new one
 * when the registry answers 401. Neither the secret nor a token is ever logged or put in an exception.
 *
 * @param issuerEndpoint the token endpoint ({@code bearer.auth.issuer.endpoint.url})
 * @param clientId {@code bearer.auth.client.id}
 * @param clientSecret {@code bearer.auth.client.secret}
 * @param scope {@code bearer.auth.scope}, or {@code null} for none
 * @param scopeClaimName the JWT claim that holds the scope ({@code bearer.auth.scope.claim.name}, {@code scope})
 * @param subClaimName the JWT claim that names the subject ({@code bearer.auth.sub.claim.name}, {@code sub})
 * @param expiryBuffer how long before expiry a token is replaced
 *     ({@code bearer.auth.cache.expiry.buffer.seconds}, 300 s); when a token lives shorter than that, it is
 *     replaced after 80 % of its life, as Confluent's client does
 */
public record OAuthSettings(String issuerEndpoint, String clientId, Secret clientSecret, String scope,
    String scopeClaimName, String subClaimName, Duration expiryBuffer) {

  /** Confluent's default {@code bearer.auth.cache.expiry.buffer.seconds}. */
  public static final Duration DEFAULT_EXPIRY_BUFFER =
      Duration.ofSeconds(RegistryKey.BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS.longDefault());

  /** Checks that the endpoint, id and secret are there. */
  public OAuthSettings {
    require(RegistryConfig.BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG, issuerEndpoint);
    require(RegistryConfig.BEARER_AUTH_CLIENT_ID_CONFIG, clientId);
    if (clientSecret == null) {
      throw missing(RegistryConfig.BEARER_AUTH_CLIENT_SECRET_CONFIG);
    }
    scopeClaimName = scopeClaimName == null || scopeClaimName.isBlank()
        ? RegistryKey.BEARER_AUTH_SCOPE_CLAIM_NAME.stringDefault() : scopeClaimName;
    subClaimName = subClaimName == null || subClaimName.isBlank()
        ? RegistryKey.BEARER_AUTH_SUB_CLAIM_NAME.stringDefault() : subClaimName;
    Objects.requireNonNull(expiryBuffer, "expiryBuffer");
    if (expiryBuffer.isNegative()) {
      throw new RegistryConfigException(RegistryConfig.BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG,
          "Invalid value " + expiryBuffer.toSeconds() + " for configuration "
          + RegistryConfig.BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG + ": must not be negative");
    }
  }

  private static void require(String key, String value) {
    if (value == null || value.isBlank()) {
      throw missing(key);
    }
  }

  private static RegistryConfigException missing(String key) {
    return new RegistryConfigException(key, key + " must be set when "
        + RegistryConfig.BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG + "=OAUTHBEARER");
  }
}
