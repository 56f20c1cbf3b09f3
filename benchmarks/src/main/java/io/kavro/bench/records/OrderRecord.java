package io.kavro.bench.records;

import java.util.List;
import java.util.Map;
import org.apache.avro.reflect.Nullable;

/** S3 as a Java record: the same fields and values, as reflection maps them (decimals as their bytes). */
public record OrderRecord(String id, long seq, int count, float ratio, double score, boolean active, String name,
    byte[] payload, Status status, byte[] hash, @Nullable String nickname, List<Long> tags,
    Map<String, String> attributes, AddressRecord address, List<LineRecord> lines, long createdAt, int birthday,
    byte[] balance) {}
