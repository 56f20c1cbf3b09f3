/** The {@code azure-kms} KMS driver: KEKs that are RSA keys in Azure Key Vault (or a Managed HSM). */
package io.kavro.kms.azure;
