package io.kavro.registry.config;

/**
 * A registry client setting is missing or invalid. The message names the key, and never shows a secret's
 * value. The serde turns it into Kafka's {@code ConfigException}.
 */
public class RegistryConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;

  /** About the setting {@code key}. */
  public RegistryConfigException(String key, String message) {
    super(message);
    this.key = key;
  }

  /** The key of the setting that is wrong. */
  public String key() {
    return key;
  }
}
