/** The {@code hcvault} KMS driver: keys of HashiCorp Vault's transit engine as Confluent's KEKs name them. */
package io.kavro.kms.hcvault;
