package io.kavro.registry.internal.http;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;
import okhttp3.Authenticator;
import okhttp3.OkHttpClient;

/**
 * An HTTP proxy's 407 ("Proxy Authentication Required"): the proxy wants credentials, and Kavro sends none to a
 * proxy. Thrown by the proxy authenticator that {@link #install} gives the registry's OkHttp client, which OkHttp
 * calls for a 407 to a {@code CONNECT} (an {@code https://} registry, tunnelled) as for one to a plain request.
 * Without it, OkHttp ends a tunnel's 407 with a bare {@code IOException} ("Failed to authenticate with proxy"),
 * which reads as an outage. Every call meets it alike: the deployment's fault, as a registry's 401.
 */
public final class ProxyRefusal extends IOException {
  private static final long serialVersionUID = 1L;

  /** HTTP's "Proxy Authentication Required". */
  public static final int STATUS = 407;

  /** What a message says of it. */
  public static final String WHY = "the HTTP proxy (proxy.host, or the JVM's http.proxyHost and https.proxyHost) "
      + "answered 407, Proxy Authentication Required: Kavro sends no credentials to a proxy; let this client through "
      + "it without them, or use another proxy";

  private ProxyRefusal(String proxy) {
    super("the HTTP proxy " + proxy + " answered 407 (Proxy Authentication Required)");
  }

  /**
   * {@code builder} with a proxy authenticator that throws a {@link ProxyRefusal}, unless the client it came from
   * has a proxy authenticator of its own (a shared client's: its answer stands).
   */
  public static OkHttpClient.Builder install(OkHttpClient base, OkHttpClient.Builder builder) {
    if (base.proxyAuthenticator() != Authenticator.NONE) {
      return builder;
    }
    return builder.proxyAuthenticator((route, response) -> {
      throw new ProxyRefusal(route == null ? "(unknown)" : String.valueOf(route.proxy().address()));
    });
  }

  /** Whether a {@link ProxyRefusal} is among {@code failure}, its causes and their suppressed exceptions. */
  public static boolean in(Throwable failure) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<Throwable> next = new ArrayDeque<>();
    next.add(failure);
    while (!next.isEmpty() && seen.size() < 32) {
      Throwable t = next.poll();
      if (t == null || !seen.add(t)) {
        continue;
      }
      if (t instanceof ProxyRefusal) {
        return true;
      }
      if (t.getCause() != null) {
        next.add(t.getCause());
      }
      Collections.addAll(next, t.getSuppressed());
    }
    return false;
  }
}
