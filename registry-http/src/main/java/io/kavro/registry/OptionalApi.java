package io.kavro.registry;

/**
 * The APIs that a registry may lack while its core API (Confluent's subjects and ids) answers: newer parts of
 * Confluent's, and Apicurio's own.
 */
enum OptionalApi {
  GUIDS("Confluent's GUID API (GET /schemas/guids/{guid}, Confluent Platform 8 and later)"),
  METADATA("Confluent's metadata API (GET /subjects/{subject}/metadata, Confluent Platform 7.4 and later)"),
  DEK_REGISTRY("Confluent's DEK registry API (/dek-registry/v1, Confluent Platform 7.5 and later)"),
  APICURIO_V3("Apicurio's v3 API (GET /apis/registry/v3/ids/..., Apicurio Registry 3)"),
  APICURIO_V2("Apicurio's v2 API (GET /apis/registry/v2/ids/..., Apicurio Registry 2)");

  final String description;

  OptionalApi(String description) {
    this.description = description;
  }
}
