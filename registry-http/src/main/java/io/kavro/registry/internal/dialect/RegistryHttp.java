package io.kavro.registry.internal.dialect;

import io.kavro.registry.config.BearerTokenProvider;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.auth.ClientTls;
import io.kavro.registry.internal.auth.OAuthTokenSource;
import io.kavro.registry.internal.http.Endpoint;
import io.kavro.registry.internal.http.RegistryDialect;
import io.kavro.registry.internal.http.RestTransport;
import io.kavro.registry.internal.http.RetryPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side that every registry protocol shares, set up once from the configuration: the OkHttp client with
 * its timeouts, TLS and proxy, the endpoints in failover order with their credentials, retries and the source of
 * bearer tokens. A protocol gets a {@link RestTransport} of its {@link RegistryDialect} from it, so that a new
 * protocol is one class that speaks through a transport.
 *
 * <p>Thread-safe.
 */
public final class RegistryHttp {
  private static final Logger log = LoggerFactory.getLogger(RegistryHttp.class);

  private final OkHttpClient okHttp;
  private final boolean ownsOkHttp;
  private final List<Endpoint> endpoints;
  private final RetryPolicy retry;
  private final BearerTokenProvider bearer;
  private final java.util.Map<String, String> headers;

  private RegistryHttp(RegistryConfig config, OkHttpClient base, boolean ownsOkHttp) {
    this.ownsOkHttp = ownsOkHttp;
    OkHttpClient.Builder builder = base.newBuilder()
        .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .writeTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .callTimeout(config.connectTimeout().plus(config.readTimeout()).toMillis(), TimeUnit.MILLISECONDS)
        .retryOnConnectionFailure(false)
        // No redirect is followed: OkHttp would carry the configured headers (API keys, cluster ids) to any host
        // a registry or something posing as one points at. A 3xx is a typed failure that names the target.
        .followRedirects(false)
        .followSslRedirects(false);
    ClientTls.configure(config.tls(), builder);
    if (config.proxy() != null) {
      builder.proxy(new java.net.Proxy(java.net.Proxy.Type.HTTP, config.proxy()));
    }
    // A proxy's 407 (proxy.host's or the JVM's) as a typed refusal, a tunnel's too: not an outage.
    io.kavro.registry.internal.http.ProxyRefusal.install(base, builder);
    this.okHttp = builder.build();
    List<Endpoint> ordered = new ArrayList<>(Endpoint.fromConfig(config));
    if (config.urlRandomize()) {
      // Confluent's schema.registry.url.randomize: a random start, then failover in the configured order.
      Collections.rotate(ordered, -ThreadLocalRandom.current().nextInt(ordered.size()));
    }
    this.endpoints = List.copyOf(ordered);
    this.retry = new RetryPolicy(config.maxRetries(), config.retriesWait(), config.retriesMaxWait());
    // The issuer is another host: the registry's "no hostname check" (a self-signed registry) is not its.
    OkHttpClient issuerHttp = okHttp.newBuilder().hostnameVerifier(base.hostnameVerifier()).build();
    this.bearer = bearer(config, issuerHttp, retry);
    for (Endpoint endpoint : endpoints) {
      if ((endpoint.authorization() != null || bearer != null) && !endpoint.base().isHttps()) {
        log.warn("Sending registry credentials to {} over plain http://: anyone on the path can read them; "
            + "use https://", endpoint.base());
      }
    }
    this.headers = config.requestHeaders();
  }

  /**
   * The HTTP side of {@code config}: with an OkHttp client of its own, which {@link #close()} shuts down, when
   * {@code shared} is {@code null}; else one derived from {@code shared} (its connection pool and dispatcher,
   * which {@link #close()} leaves to their owner).
   */
  public static RegistryHttp of(RegistryConfig config, OkHttpClient shared) {
    return shared == null ? new RegistryHttp(config, new OkHttpClient(), true)
        : new RegistryHttp(config, shared, false);
  }

  /** A transport to the configured endpoints that reads answers in {@code dialect}. */
  RestTransport transport(RegistryDialect dialect) {
    return new RestTransport(endpoints, okHttp, retry, bearer, headers, dialect);
  }

  /** The endpoints, in failover order. */
  List<Endpoint> endpoints() {
    return endpoints;
  }

  /** Shuts down the OkHttp client's threads and connections, when they are this one's own. */
  void close() {
    if (ownsOkHttp) {
      okHttp.dispatcher().executorService().shutdown();
      okHttp.connectionPool().evictAll();
    }
  }

  /** Where bearer tokens come from: a static token, OAuth client credentials, the application; or none. */
  private static BearerTokenProvider bearer(RegistryConfig config, OkHttpClient okHttp, RetryPolicy retry) {
    if (config.bearerToken() != null) {
      String token = config.bearerToken().value();
      return () -> token;
    }
    if (config.oauth() != null) {
      if (config.oauth().issuerEndpoint().toLowerCase(Locale.ROOT).startsWith("http://")) {
        log.warn("Sending the OAuth client secret to {} over plain http://: anyone on the path can read it; "
            + "use https://", RegistryConfig.redact(config.oauth().issuerEndpoint()));
      }
      return new OAuthTokenSource(config.oauth(), okHttp, retry, java.time.Clock.systemUTC(),
          config.connectTimeout().plus(config.readTimeout()));
    }
    return config.bearerTokenProvider();
  }
}
