package io.kavro.registry.config;

import java.util.HashMap;
import java.util.Map;

/**
 * The user and password of a Kafka client's {@code sasl.jaas.config}, for
 * {@code basic.auth.credentials.source=SASL_INHERIT}: the registry gets the same credentials as the broker.
 * Reads the JAAS text without Kafka: {@code <LoginModule> <flag> key=value ... ;}, values quoted or not.
 */
final class JaasCredentials {
  private JaasCredentials() {}

  /**
   * {@code username:password} of the first login module.
   *
   * @throws RegistryConfigException when there is no {@code sasl.jaas.config}, or it has no username and password
   */
  static Secret userInfo(Secret jaasConfig) {
    if (jaasConfig == null || jaasConfig.value().isBlank()) {
      throw new RegistryConfigException(RegistryConfig.SASL_JAAS_CONFIG, RegistryConfig.SASL_JAAS_CONFIG
          + " must be set when " + RegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + "=SASL_INHERIT");
    }
    Map<String, String> options = options(jaasConfig.value());
    String user = options.get("username");
    String password = options.get("password");
    if (user == null || password == null) {
      throw new RegistryConfigException(RegistryConfig.SASL_JAAS_CONFIG, "The login module of "
          + RegistryConfig.SASL_JAAS_CONFIG + " has no username and password options, so "
          + RegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + "=SASL_INHERIT cannot inherit them");
    }
    return Secret.of(user + ":" + password);
  }

  /** The options of the first module: after its class name and control flag, up to the first ';'. */
  static Map<String, String> options(String text) {
    Map<String, String> options = new HashMap<>();
    int i = skipWord(text, skipSpace(text, 0)); // login module class
    i = skipWord(text, skipSpace(text, i)); // required / optional / ...
    while (true) {
      i = skipSpace(text, i);
      if (i >= text.length() || text.charAt(i) == ';') {
        return options;
      }
      int eq = text.indexOf('=', i);
      if (eq < 0) {
        throw malformed();
      }
      String key = text.substring(i, eq).trim();
      i = eq + 1;
      StringBuilder value = new StringBuilder();
      if (i < text.length() && text.charAt(i) == '"') {
        for (i++; i < text.length() && text.charAt(i) != '"'; i++) {
          char c = text.charAt(i);
          if (c == '\\' && i + 1 < text.length()) {
            c = text.charAt(++i);
          }
          value.append(c);
        }
        if (i >= text.length()) {
          throw malformed();
        }
        i++;
      } else {
        for (; i < text.length() && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != ';'; i++) {
          value.append(text.charAt(i));
        }
      }
      options.put(key, value.toString());
    }
  }

  private static int skipSpace(String text, int i) {
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static int skipWord(String text, int i) {
    while (i < text.length() && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != ';') {
      i++;
    }
    return i;
  }

  /** Never shows the text: it holds a password. */
  private static RegistryConfigException malformed() {
    return new RegistryConfigException(RegistryConfig.SASL_JAAS_CONFIG, "Invalid value [hidden] for "
        + "configuration " + RegistryConfig.SASL_JAAS_CONFIG + ": not a JAAS login module configuration");
  }
}
