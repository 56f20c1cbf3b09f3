/**
 * Kavro's Kafka serializer, deserializer and Streams serde for Avro, with their settings, errors, metrics, subject
 * naming strategies and the framing that says where a record's schema id is.
 *
 * <p>The planners' data models, the bounded decoder and the compiled codecs live package-private in
 * {@code io.kavro.serde}, beside the engines that use them: no other package, and no sibling module, names them.
 */
module io.kavro.serde {
  // The serde's API names the registry's client, settings and exceptions, and Avro's types.
  requires transitive io.kavro.registry;
  requires transitive org.apache.avro;
  // kafka-clients is provided: the application brings it, in any version 3.0 to 4.4. None of them declares a
  // module name, so this is the name derived from the jar's file name. "static" keeps Kavro from being the one
  // that demands it at start-up: an application on the module path requires it itself, and then this module
  // reads it.
  requires static kafka.clients;
  requires com.github.benmanes.caffeine;
  // The write planner edits schema JSON; Jackson comes with Avro.
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.kavro.serde;
  // Where a record's schema id is and how it is read or written: FramingResolver and SchemaIdPrefix are named by users.
  exports io.kavro.serde.framing;
  exports io.kavro.serde.metrics;
  exports io.kavro.serde.rules;
  exports io.kavro.serde.subject;

  uses io.kavro.serde.rules.RuleExecutor;
  uses io.kavro.serde.rules.RuleAction;
}
