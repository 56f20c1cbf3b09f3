package io.kavro.bench.records;

/** S3's order line. */
public record LineRecord(String sku, int qty, byte[] price) {}
