package io.kavro.kms.hcvault;

import io.kavro.serde.rules.RuleException;
import java.util.List;
import okhttp3.HttpUrl;

/**
 * A transit key of a Vault, as an {@code hcvault} KEK names it: {@code hcvault://<address>/<mount>/keys/<name>},
 * where the address is {@code http(s)://<host>[:<port>]} ({@code https} when no scheme is given, as Confluent's
 * Java driver does). Immutable.
 *
 * @param address the Vault's address, {@code scheme://host:port}
 * @param mount the transit engine's mount path, without slashes at either end ({@code transit})
 * @param name the key's name
 */
record VaultKey(HttpUrl address, String mount, String name) {
  /** The key URI prefix, as the KEK's kmsType names it. */
  static final String PREFIX = HcVaultKmsDriver.KMS_TYPE + "://";

  /**
   * The key a key URI names.
   *
   * @param keyUri {@code hcvault://...}, or the key id alone (what follows the prefix)
   * @throws RuleException when it is not a URL whose path ends in {@code <mount>/keys/<name>}; the message shows
   *     the URI without any user info
   */
  static VaultKey parse(String keyUri) {
    String id = keyUri.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) ? keyUri.substring(PREFIX.length()) : keyUri;
    // Confluent's Java driver tests startsWith("http"), which takes a host named http... for a scheme
    boolean scheme = id.regionMatches(true, 0, "http://", 0, 7) || id.regionMatches(true, 0, "https://", 0, 8);
    String withScheme = scheme ? id : "https://" + id;
    HttpUrl url = HttpUrl.parse(withScheme);
    if (url == null) {
      throw new RuleException("the Vault key URI '" + PREFIX + redact(id) + "' is not "
          + PREFIX + "http(s)://<host>:<port>/<mount>/keys/<name>");
    }
    List<String> path = url.pathSegments();
    int keys = path.size() - 2;
    if (keys < 1 || !path.get(keys).equals("keys") || path.get(keys + 1).isEmpty()
        || path.subList(0, keys).contains("")) {
      throw new RuleException("the Vault key URI '" + PREFIX + redact(id) + "' has no <mount>/keys/<name> path: "
          + "it must be " + PREFIX + "http(s)://<host>:<port>/<mount>/keys/<name>");
    }
    HttpUrl address = new HttpUrl.Builder().scheme(url.scheme()).host(url.host()).port(url.port()).build();
    return new VaultKey(address, String.join("/", path.subList(0, keys)), path.get(keys + 1));
  }

  /** The URL of a transit operation on the key: {@code <address>/v1/<mount>/<operation>/<name>}. */
  HttpUrl operation(String operation) {
    return address.newBuilder().addPathSegment("v1").addPathSegments(mount).addPathSegment(operation)
        .addPathSegment(name).build();
  }

  /** The key URI, as a KEK names it. */
  @Override
  public String toString() {
    String host = address.toString();
    return PREFIX + host.substring(0, host.length() - 1) + "/" + mount + "/keys/" + name;
  }

  /**
   * A key id as it was given, for a message: without a query or fragment ({@code ?token=...}), cut at the first
   * {@code ?} or {@code #}, nor the user info the rest may carry ({@code user:pass@}, with or without a scheme, up
   * to its last {@code @}, for a password may hold {@code @} or {@code /}). An {@code @} after the cut is the query's
   * ({@code ?token=ab@cd}); but when the cut falls before the first {@code /} of the address and an {@code @} follows,
   * the cut was inside the user info (a password with a raw {@code ?}), and the whole address is dropped.
   */
  static String redact(String id) {
    int scheme = id.indexOf("://");
    int start = scheme < 0 ? 0 : scheme + 3;
    int query = indexOfAny(id, '?', '#', start);
    String address = query < 0 ? id : id.substring(0, query);
    String cut = query < 0 ? "" : "?***";
    if (query >= 0 && address.indexOf('/', start) < 0 && id.indexOf('@', query) >= 0) {
      return id.substring(0, start) + "***";
    }
    int at = address.lastIndexOf('@');
    return (at < start ? address : address.substring(0, start) + "***" + address.substring(at)) + cut;
  }

  private static int indexOfAny(String text, char one, char other, int from) {
    int first = text.indexOf(one, from);
    int second = text.indexOf(other, from);
    return first < 0 ? second : second < 0 ? first : Math.min(first, second);
  }
}
