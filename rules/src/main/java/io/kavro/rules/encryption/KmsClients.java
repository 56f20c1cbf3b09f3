package io.kavro.rules.encryption;

import io.kavro.registry.contract.Kek;
import io.kavro.serde.rules.RuleException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link KmsClient}s of one encryption executor, which owns them: one per KEK URL and settings (the executor's,
 * with the KEK's {@code kmsProps} over them), made by the KEK's driver when first needed and kept until
 * {@link #close()}, which closes each once. A KEK that the KEK cache forgets and asks the registry for again gets the
 * same client back while its settings are the same, so the clients are as many as the KEKs (and their
 * {@code kmsProps}) in use. Thread-safe.
 */
final class KmsClients implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KmsClients.class);

  private final Map<String, ?> configs;
  private final KmsDrivers drivers;
  private final Map<ClientKey, KmsClient> clients = new HashMap<>();
  private boolean closed;

  /**
   * @param configs the executor's settings, under every KEK's {@code kmsProps}
   */
  KmsClients(Map<String, ?> configs, KmsDrivers drivers) {
    this.configs = configs;
    this.drivers = drivers;
  }

  /**
   * The client of a KEK: the one made before for its URL and settings, else a new one from its driver (outside any
   * lock: a driver may call a credentials endpoint).
   *
   * @throws RuleException when there is no driver for its KMS type, the driver cannot make the client (its message),
   *     or the executor is closed
   */
  KmsClient client(Kek kek) {
    KmsDriver driver = drivers.driver(kek.kmsType());
    ClientKey key = new ClientKey(kek.kmsType() + "://" + kek.kmsKeyId(), KmsSettings.merged(configs, kek, driver));
    synchronized (this) {
      checkOpen(kek);
      KmsClient client = clients.get(key);
      if (client != null) {
        return client;
      }
    }
    KmsClient made = driver.newClient(key.kekUrl(), key.settings());
    boolean wasClosed;
    KmsClient kept;
    synchronized (this) {
      wasClosed = closed;
      kept = wasClosed ? null : clients.putIfAbsent(key, made);
    }
    if (!wasClosed && kept == null) {
      return made;
    }
    close(made, "of KEK '" + kek.name() + "'"); // closed meanwhile, or another thread made the same client first
    checkOpen(kek);
    return kept;
  }

  private synchronized void checkOpen(Kek kek) {
    if (closed) {
      throw new RuleException("the encryption executor is closed: no KMS client for KEK '" + kek.name() + "'");
    }
  }

  /** How many clients are open. */
  synchronized int size() {
    return clients.size();
  }

  /** Closes every client, once; afterwards no client is made. A second call does nothing. */
  @Override
  public void close() {
    List<KmsClient> open;
    synchronized (this) {
      closed = true;
      open = new ArrayList<>(clients.values());
      clients.clear();
    }
    open.forEach(client -> close(client, ""));
  }

  /**
   * Closes a client, which should never throw; one that does is logged by its {@code toString} (a driver's client
   * prints no secret) and the KEK's name, never by its KEK URL: a key id may carry credentials (a Vault URL's
   * {@code user:pass@} or {@code ?token=}).
   */
  private static void close(KmsClient client, String ofKek) {
    try {
      client.close();
    } catch (RuntimeException e) {
      LOG.warn("cannot close the KMS client {}{} ({})", client, ofKek.isEmpty() ? "" : " " + ofKek,
          e.getClass().getName());
    }
  }

  /** A KEK's URL and settings; both may hold secrets (a Vault URL's {@code ?token=}): never printed. */
  private record ClientKey(String kekUrl, Map<String, Object> settings) {
    @Override
    public String toString() {
      return "a KMS client's KEK URL and settings";
    }
  }
}
