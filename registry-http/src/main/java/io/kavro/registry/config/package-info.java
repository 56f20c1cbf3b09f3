/**
 * The registry client's settings: {@link io.kavro.registry.config.RegistryConfig}, parsed once from Confluent's
 * keys (each declared once as a {@link io.kavro.registry.config.RegistryKey}), with the protocol it speaks
 * ({@link io.kavro.registry.config.RegistryApi}), OAuth client credentials, the JAAS option read into basic-auth
 * credentials, {@link io.kavro.registry.config.Secret}s that never print, and
 * {@link io.kavro.registry.config.RegistryConfigException} for a bad value.
 *
 * <p>May use: nothing of Kavro's. It is the bottom layer: every other registry package may read settings.
 */
package io.kavro.registry.config;
