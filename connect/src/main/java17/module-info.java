/**
 * Kavro's Kafka Connect converter for Avro, the mapping between Connect data and Avro, and the schema id
 * translation transforms.
 */
module io.kavro.connect {
  requires transitive io.kavro.serde;
  // Provided by the Connect worker, which puts them on its class path, never the module path; neither jar declares
  // a module name, so these are the names derived from the jars' file names.
  requires static kafka.clients;
  requires static connect.api;
  requires com.fasterxml.jackson.databind;
  requires com.github.benmanes.caffeine;
  requires org.slf4j;

  exports io.kavro.connect;

  provides org.apache.kafka.connect.storage.Converter with io.kavro.connect.AvroConverter;
  provides org.apache.kafka.connect.transforms.Transformation
      with io.kavro.connect.SchemaIdTranslation.Key, io.kavro.connect.SchemaIdTranslation.Value;
}
