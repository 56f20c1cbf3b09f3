package com.example;

import java.util.List;
import java.util.Set;

/** A user's record whose collections may hold nulls (with avro.reflection.allow.null). */
public record Tagged(String name, List<String> tags, Set<String> labels) {}
