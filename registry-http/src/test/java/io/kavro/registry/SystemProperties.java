package io.kavro.registry;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JVM system properties set for one test and put back as they were on {@link #close()}, for the settings a client
 * reads from the JVM ({@code https.proxyHost}, {@code javax.net.ssl.trustStore}, an SDK's endpoint property).
 * Surefire runs a module's test classes one after another in one JVM: a test that sets them must restore them.
 * Not thread-safe: one test's.
 */
public final class SystemProperties implements AutoCloseable {
  private final Map<String, String> saved = new LinkedHashMap<>();

  /** Sets {@code name} to {@code value} until {@link #close()}. */
  public SystemProperties set(String name, String value) {
    saved.putIfAbsent(name, System.getProperty(name));
    System.setProperty(name, value);
    return this;
  }

  /** Clears {@code name} until {@link #close()}. */
  public SystemProperties clear(String name) {
    saved.putIfAbsent(name, System.getProperty(name));
    System.clearProperty(name);
    return this;
  }

  /** The JVM's HTTPS proxy ({@code https.proxyHost}, {@code https.proxyPort}) is {@code proxy}. */
  public SystemProperties httpsProxy(TunnelProxy proxy) {
    return set("https.proxyHost", proxy.host()).set("https.proxyPort", Integer.toString(proxy.port()));
  }

  /** Puts every property back as it was. */
  @Override
  public void close() {
    saved.forEach((name, value) -> {
      if (value == null) {
        System.clearProperty(name);
      } else {
        System.setProperty(name, value);
      }
    });
    saved.clear();
  }
}
