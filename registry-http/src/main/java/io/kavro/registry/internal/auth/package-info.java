/**
 * Who the client says it is, and whom it trusts: TLS from key stores or PEM ({@code ClientTls}, {@code PemKeys})
 * and OAuth client credentials ({@code OAuthTokenSource}, tokens fetched and refreshed from the issuer). Basic
 * auth and the JAAS option are settings ({@code io.kavro.registry.config}). Not exported.
 *
 * <p>May use: {@code internal.http} (the issuer is asked with the transport's retry and JSON), settings and the
 * exceptions.
 */
package io.kavro.registry.internal.auth;
