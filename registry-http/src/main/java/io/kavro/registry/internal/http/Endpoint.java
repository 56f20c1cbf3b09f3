package io.kavro.registry.internal.http;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryConfigException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import okhttp3.Credentials;
import okhttp3.HttpUrl;

/**
 * One registry base URL, with its user info removed, and the {@code Authorization} header to send to it.
 *
 * <p>{@link #toString()} shows the URL only: the header never leaves this object except on the wire.
 */
public record Endpoint(HttpUrl base, String authorization) {

  /** Builds the endpoints from the configured URLs and credentials, in failover order. */
  public static List<Endpoint> fromConfig(RegistryConfig config) {
    String shared = sharedAuthorization(config);
    List<Endpoint> endpoints = new ArrayList<>();
    for (String raw : config.urls()) {
      HttpUrl url = HttpUrl.parse(raw);
      if (url == null) {
        throw new RegistryConfigException(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, "Invalid value "
            + Urls.redact(raw) + " for configuration " + RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG
            + ": not an http:// or https:// URL");
      }
      String authorization = shared;
      if (authorization == null && !url.username().isEmpty()) {
        authorization = Credentials.basic(url.username(), url.password(), StandardCharsets.UTF_8);
      }
      endpoints.add(new Endpoint(Urls.withoutUserInfo(url), authorization));
    }
    return List.copyOf(endpoints);
  }

  private static String sharedAuthorization(RegistryConfig config) {
    if (config.basicAuthFromUserInfo()) {
      String userInfo = config.basicAuthUserInfo().value();
      int colon = userInfo.indexOf(':'); // there is one: RegistryConfig checks
      return Credentials.basic(userInfo.substring(0, colon), userInfo.substring(colon + 1),
          StandardCharsets.UTF_8);
    }
    return null;
  }

  @Override
  public String toString() {
    return base.toString();
  }
}
