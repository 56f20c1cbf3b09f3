/**
 * What the serde's own packages share and no user may name: {@code OutageBackoff}, the waits between askings of an
 * answer kept while the registry cannot be reached, and {@code Deadlines}, when a kept answer's time is over (the
 * subject name strategy's subjects in {@code io.kavro.serde.subject}, the deserializer's topic contexts in
 * {@code io.kavro.serde}); {@code FloatAccessor}, the functional type a Java record's {@code float} accessor is
 * spun into, in the record class's own lookup. Public only because another package or a spun class uses each; not exported by the module descriptor, no API, not in the javadoc, and free to change in any
 * release.
 *
 * <p>May use: the JDK only.
 */
package io.kavro.serde.internal;
