package io.kavro.registry.internal.http;

/** The parts of Confluent's REST API that a registry may lack while its core API (subjects, ids) answers. */
enum OptionalApi {
  GUIDS("GUID API (GET /schemas/guids/{guid}, Confluent Platform 8 and later)"),
  METADATA("metadata API (GET /subjects/{subject}/metadata, Confluent Platform 7.4 and later)");

  final String description;

  OptionalApi(String description) {
    this.description = description;
  }
}
