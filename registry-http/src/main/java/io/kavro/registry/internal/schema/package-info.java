/**
 * Schema texts and subject names as registries hold them: the lenient parser ({@code HeldSchemaParser}), the
 * limits on a text's size and depth, defaults checked as a registry checks them, named types across references,
 * and subject names checked before they reach a path. Not exported.
 *
 * <p>May use: the client API's values and the exceptions only. No HTTP, no cache.
 */
package io.kavro.registry.internal.schema;
