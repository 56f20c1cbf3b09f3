package io.kavro.bench.records;

import org.apache.avro.reflect.Nullable;

/** S3's address. */
public record AddressRecord(String street, String city, @Nullable String zip) {}
