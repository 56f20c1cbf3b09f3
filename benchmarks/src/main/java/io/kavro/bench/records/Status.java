package io.kavro.bench.records;

/** S3's status. */
public enum Status { NEW, ACTIVE, SUSPENDED, CLOSED }
