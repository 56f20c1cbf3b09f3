package com.example;

import java.net.URI;

/** A user's record with a field that Avro's reflection writes as a string naming its class (java-class). */
public record Link(String name, URI target) {}
