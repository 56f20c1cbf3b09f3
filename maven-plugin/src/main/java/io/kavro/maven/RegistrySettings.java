package io.kavro.maven;

import io.kavro.registry.config.RegistryConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The registry settings of a goal, as the serde takes them: the plugin's parameters turned into the keys of
 * {@link RegistryConfig} ({@code schema.registry.url}, {@code basic.auth.*}, {@code bearer.auth.*},
 * {@code request.header.*}, {@code schema.registry.ssl.*}), over the free {@code configs} map. A parameter wins
 * over the same key in {@code configs}, as Confluent's plugin has {@code userInfoConfig} win. The map goes to
 * {@link io.kavro.registry.factory.SchemaRegistryClients#create(Map)}, the one path from settings to a client that the
 * serde and the console tool take too.
 *
 * @param urls the registry's base URLs
 * @param userInfo basic auth's {@code user:password}, or null
 * @param bearerToken a static bearer token, or null
 * @param headers headers sent with every request
 * @param tls the {@code schema.registry.ssl.*} settings given as parameters, by key
 * @param configs any other setting, by its key
 * @param normalize whether the registry normalizes schemas on register and lookup
 */
record RegistrySettings(List<String> urls, String userInfo, String bearerToken, Map<String, String> headers,
    Map<String, String> tls, Map<String, String> configs, boolean normalize) {

  /** Copies the collections; null ones are empty. */
  RegistrySettings {
    urls = urls == null ? List.of() : urls.stream().filter(Objects::nonNull).map(String::strip)
        .filter(url -> !url.isEmpty()).toList();
    headers = copy(headers);
    tls = copy(tls);
    configs = copy(configs);
  }

  private static Map<String, String> copy(Map<String, String> map) {
    Map<String, String> copy = new TreeMap<>();
    if (map != null) {
      map.forEach((key, value) -> {
        if (key != null && value != null) {
          copy.put(key, value);
        }
      });
    }
    return java.util.Collections.unmodifiableMap(copy);
  }

  /** The settings map for {@link io.kavro.registry.factory.SchemaRegistryClients#create(Map)}. */
  Map<String, Object> config() {
    Map<String, Object> config = new LinkedHashMap<>(configs);
    if (!urls.isEmpty()) {
      config.put(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, String.join(",", urls));
    }
    if (userInfo != null && !userInfo.isBlank()) {
      config.put(RegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, "USER_INFO");
      config.put(RegistryConfig.BASIC_AUTH_USER_INFO_CONFIG, userInfo);
    }
    if (bearerToken != null && !bearerToken.isBlank()) {
      config.put(RegistryConfig.BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, "STATIC_TOKEN");
      config.put(RegistryConfig.BEARER_AUTH_TOKEN_CONFIG, bearerToken);
    }
    headers.forEach((name, value) -> config.put(RegistryConfig.REQUEST_HEADER_PREFIX + name, value));
    config.putAll(tls);
    if (normalize) {
      config.put(RegistryConfig.NORMALIZE_SCHEMAS_CONFIG, "true");
    }
    return config;
  }

  /** Whether a registry is named, by a parameter or by {@code schema.registry.url} in {@code configs}. */
  boolean hasRegistry() {
    return !urls.isEmpty() || configs.containsKey(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG);
  }

  /** The URLs without their user info, and which secrets are set, never their values. */
  @Override
  public String toString() {
    return "RegistrySettings[urls=" + urls.stream().map(RegistryConfig::redact).toList() + ", userInfo="
        + (userInfo == null ? "none" : "(set)") + ", bearerToken=" + (bearerToken == null ? "none" : "(set)")
        + ", headers=" + headers.keySet() + ", tls=" + tls.keySet() + ", configs=" + configs.keySet()
        + ", normalize=" + normalize + "]";
  }
}
