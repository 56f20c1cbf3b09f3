/** Where a record's schema id is and how it is read or written. */
package io.kavro.serde.framing;
