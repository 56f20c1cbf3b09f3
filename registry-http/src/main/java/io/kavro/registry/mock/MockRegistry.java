package io.kavro.registry.mock;

import io.kavro.registry.SchemaRegistryClient;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The in-memory registry of one {@code mock://scope}, for users' unit tests: a {@link SchemaRegistryClient} with
 * the Confluent registry's semantics, and two ways to register that a test needs to set up what a real registry
 * can hold. Get one from {@link MockRegistries#scope(String)}.
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
   * Registers {@code schema} with data contract rules, as Confluent's registry holds a schema with a
   * {@code ruleSet}: the same schema with rules gets its own id. A client of this registry refuses the schema
   * wherever it meets it ({@link io.kavro.registry.UnsupportedRulesException}); a client configured with
   * {@code rules.ignore=true} uses it as if it had none. For tests of data contracts.
   *
   * @param rules the rules, each as {@code kind name (type)}: {@code "domainRules encryptSsn (ENCRYPT)"}
   * @return the schema's id
   */
  int registerWithRules(String subject, Schema schema, List<String> rules);
}
