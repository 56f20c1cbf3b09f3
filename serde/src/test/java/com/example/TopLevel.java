package com.example;

/** A user's own record, in a package that is neither Kavro's nor Avro's (issue 13, item 5). */
public record TopLevel(String sensor, double celsius) {}
