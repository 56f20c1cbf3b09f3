package io.kavro.rules.encryption;

import io.kavro.serde.rules.RuleDeploymentException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KMS drivers by type: the built-in {@link LocalKmsDriver}, then those that {@link ServiceLoader} finds. When
 * two have the same type, the first one wins (so the built-in local KMS cannot be replaced), with a warning.
 * Immutable.
 */
final class KmsDrivers {
  private static final Logger LOG = LoggerFactory.getLogger(KmsDrivers.class);

  private final Map<String, KmsDriver> byType;

  KmsDrivers(List<KmsDriver> drivers) {
    Map<String, KmsDriver> map = new LinkedHashMap<>();
    for (KmsDriver driver : drivers) {
      KmsDriver first = map.putIfAbsent(driver.kmsType(), driver);
      if (first != null && first.getClass() != driver.getClass()) {
        LOG.warn("Two KMS drivers of type '{}': {} and {}; using the first", driver.kmsType(),
            first.getClass().getName(), driver.getClass().getName());
      }
    }
    this.byType = Map.copyOf(map);
  }

  /** The built-in driver and those on the class path of {@code loader}. */
  static KmsDrivers load(ClassLoader loader) {
    List<KmsDriver> drivers = new java.util.ArrayList<>();
    drivers.add(new LocalKmsDriver());
    try {
      ServiceLoader.load(KmsDriver.class, loader).forEach(drivers::add);
    } catch (ServiceConfigurationError e) {
      throw new RuleDeploymentException("cannot load the KMS drivers listed in META-INF/services/"
          + KmsDriver.class.getName() + ": " + e.getMessage(), e);
    }
    return new KmsDrivers(drivers);
  }

  /**
   * The driver of a KMS type.
   *
   * @throws RuleDeploymentException when there is none, naming the types there are
   */
  KmsDriver driver(String kmsType) {
    KmsDriver driver = byType.get(kmsType);
    if (driver == null) {
      throw new RuleDeploymentException("no KMS driver for KMS type '" + kmsType + "' (drivers found: "
          + new java.util.TreeSet<>(byType.keySet()) + "); add the plug-in jar that implements "
          + KmsDriver.class.getName() + " for it");
    }
    return driver;
  }
}
