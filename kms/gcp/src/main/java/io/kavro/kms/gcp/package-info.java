/** The {@code gcp-kms} KMS driver: keys of Google Cloud KMS as Confluent's KEKs name them. */
package io.kavro.kms.gcp;
