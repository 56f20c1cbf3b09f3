/**
 * The CEL rule executors: {@link io.kavro.rules.cel.CelExecutor} ({@code CEL}, over the message) and
 * {@link io.kavro.rules.cel.CelFieldExecutor} ({@code CEL_FIELD}, per field), on Google's {@code dev.cel}.
 */
package io.kavro.rules.cel;
