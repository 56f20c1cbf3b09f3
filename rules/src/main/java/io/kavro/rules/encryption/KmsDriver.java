package io.kavro.rules.encryption;

import java.util.Map;
import java.util.Set;

/**
 * A KMS that holds key-encryption keys (KEKs): what a cloud KMS plug-in implements. Field encryption finds
 * drivers by {@link java.util.ServiceLoader} (a jar lists its class in
 * {@code META-INF/services/io.kavro.rules.encryption.KmsDriver}); {@link LocalKmsDriver} ({@code local-kms}) is
 * built in. Implementations are thread-safe and have a public no-argument constructor.
 *
 * <p>Confluent's {@code encrypt.alternate.kms.key.ids} (more keys of the same KMS, tried in order when the KEK's own
 * key fails) is not a driver's to implement: a driver builds the {@link KmsClient} of one key id and hands it, with
 * a factory of the alternates' clients, to {@link AlternateKeys#of(String, KmsClient, Map,
 * AlternateKeys.KeyClientFactory)}, which returns that client alone when there is no alternate:
 * <pre>{@code
 * public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
 *   Credentials credentials = Credentials.of(configs);      // parsed once, shared by every key
 *   return AlternateKeys.of("Azure Key Vault", new KeyClient(kekUrl, credentials), configs,
 *       keyId -> new KeyClient(keyId, credentials));         // keyId as the user wrote it, prefix or not
 * }
 * }</pre>
 */
public interface KmsDriver {
  /** The KMS type that KEKs name ({@code encrypt.kms.type}): {@code local-kms}, {@code aws-kms}, ... */
  String kmsType();

  /**
   * A client for one KEK.
   *
   * @param kekUrl {@code <kmsType>://<kmsKeyId>}, as Confluent's clients name the key
   * @param configs the executor's settings (the serde's, with {@code rule.executors.*.param.*} over them) with the
   *     KEK's {@code kmsProps} laid over them, except the {@link #executorOnlySettings()}; they may hold secrets,
   *     never to be printed
   * @throws io.kavro.serde.rules.RuleException when the driver cannot reach the key (a setting is missing); the
   *     message names the setting, never its value
   * @throws io.kavro.serde.rules.RuleUnavailableException when the client cannot be made for now (a credentials
   *     endpoint that times out, say): the record is retried. Calls of the KMS itself belong in the
   *     {@link KmsClient}, whose transient failures are {@link KmsUnavailableException}s
   */
  KmsClient newClient(String kekUrl, Map<String, ?> configs);

  /**
   * The settings that a KEK's {@code kmsProps} may not set, only the executor's settings: those that say where
   * credentials or tokens are sent (an endpoint, a token URI), for anyone who may create a KEK in the DEK registry
   * controls its {@code kmsProps}. A KEK's value of one of them is ignored, with a warning naming the setting.
   * None by default.
   */
  default Set<String> executorOnlySettings() {
    return Set.of();
  }
}
