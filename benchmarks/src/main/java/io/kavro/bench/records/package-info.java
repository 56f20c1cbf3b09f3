/**
 * S3 as plain Java types, for the reflection benchmarks: Java records, which Kavro reads and writes, and the same
 * tree as mutable classes, which Avro's own reflect reader needs (it cannot build a record).
 */
package io.kavro.bench.records;
