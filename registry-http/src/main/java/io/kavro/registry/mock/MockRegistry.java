package io.kavro.registry.mock;

import io.kavro.registry.Association;
import io.kavro.registry.SchemaRegistryClient;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The in-memory registry of one {@code mock://scope}, for users' unit tests: a {@link SchemaRegistryClient} with
 * the Confluent registry's semantics (data contracts included: {@link
 * SchemaRegistryClient#register(String, Schema, List, io.kavro.registry.contract.DataContract)} keeps metadata and
 * rules, which the serde runs as it would on a real registry), and a shorter way to register metadata. Get one from {@link MockRegistries#scope(String)}.
 */
public interface MockRegistry extends SchemaRegistryClient {
  /**
   * Registers {@code schema} with metadata properties, as Confluent's registry does for a schema whose
   * {@code metadata.properties} are set: the same schema with other metadata is a new version. For tests of
   * {@code use.latest.with.metadata}.
   *
   * @return the schema's id
   */
  int register(String subject, Schema schema, Map<String, String> metadata);

  /**
   * Associates {@code association}'s subject with its resource, as Confluent's registry does on
   * {@code POST /associations}: {@link #associations} then answers it, and Kavro's default subject name strategy
   * ({@code AssociatedNameStrategy}) writes the topic's keys or values under that subject. It replaces an earlier
   * association of the same resource (namespace, name, type) and association type. For tests of associations.
   * This default, for implementations written before associations, refuses.
   *
   * @throws UnsupportedOperationException when this mock registry does not keep associations
   */
  default void associate(Association association) {
    throw new UnsupportedOperationException(getClass().getName() + " does not implement MockRegistry.associate("
        + "Association): it keeps no associations");
  }
}
