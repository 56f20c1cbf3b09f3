package io.kavro.registry.internal.http;

import io.kavro.registry.SchemaRegistryException;
import okhttp3.HttpUrl;

/**
 * What one registry protocol's HTTP answers mean to {@link RestTransport}: the media types it asks for, and the
 * typed failure each non-2xx answer is. Retries, failover, auth and TLS are the transport's, the same for every
 * protocol. Implementations are stateless and thread-safe.
 */
public interface RegistryDialect {
  /** Confluent's REST API (and the registries that speak it): {@link ErrorMapping}. */
  RegistryDialect CONFLUENT = new RegistryDialect() {
    @Override
    public String accept() {
      return RestTransport.ACCEPT;
    }

    @Override
    public SchemaRegistryException toException(RestRequest request, int status, String body, String contentType,
        String url, HttpUrl base, HttpUrl endpoint) {
      return ErrorMapping.toException(request.operation(), request.optionalApi(), status, body, contentType, url,
          base, endpoint);
    }
  };

  /** The {@code Accept} header of every request. */
  String accept();

  /**
   * The failure a non-2xx, non-3xx answer to {@code request} is.
   *
   * @param url the request URL, without user info
   * @param base as {@link ErrorMapping#toException}'s: the base URL of a call of the core API to a URL that has never
   *     answered as a registry, else {@code null}
   * @param endpoint the configured base URL (without user info) that answered: what kind of registry it leads to
   *     (Apicurio's {@code .../apis/ccompat/v<n>}, else Confluent's kind) tells its own answers from others'
   */
  SchemaRegistryException toException(RestRequest request, int status, String body, String contentType, String url,
      HttpUrl base, HttpUrl endpoint);
}
