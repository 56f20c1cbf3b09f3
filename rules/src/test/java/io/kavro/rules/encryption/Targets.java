package io.kavro.rules.encryption;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.serde.rules.RuleTarget;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;

/** Rule targets for tests: a rule of a type, on a schema, against a registry client that has only a DEK registry. */
final class Targets {
  static final String SUBJECT = "users-value";

  private Targets() {}

  static Rule rule(String type, Map<String, String> params) {
    return rule(type, Set.of(), params);
  }

  static Rule rule(String type, Set<String> tags, Map<String, String> params) {
    return new Rule("encryptPII", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, type, tags, params, null, null,
        "ERROR,NONE", false);
  }

  static RuleTarget target(Rule rule, Rule.Mode phase, Schema schema, DekRegistry deks) {
    return target(rule, phase, schema, DataContract.NONE, deks);
  }

  static RuleTarget target(Rule rule, Rule.Mode phase, Schema schema, DataContract contract, DekRegistry deks) {
    return new RuleTarget(rule, phase, SUBJECT, schema, contract, List.of(rule), 0, client(deks));
  }

  /**
   * A target against {@code client}, which may have no DEK registry.
   */
  static RuleTarget target(Rule rule, Rule.Mode phase, Schema schema, SchemaRegistryClient client) {
    return new RuleTarget(rule, phase, SUBJECT, schema, DataContract.NONE, List.of(rule), 0, client);
  }

  /** A registry client without a DEK registry (a schema-repo client's answer): its default dekRegistry(). */
  static SchemaRegistryClient clientWithoutDekRegistry() {
    return (SchemaRegistryClient) Proxy.newProxyInstance(Targets.class.getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("dekRegistry")) {
            throw new io.kavro.registry.UnsupportedRegistryApiException("this registry client has no DEK "
                + "registry (Confluent's /dek-registry/v1)", -1, -1, null, null);
          }
          if (method.getName().equals("toString")) {
            return "client without a DEK registry";
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }

  static DataContract contract(Map<String, Set<String>> tags, Map<String, String> properties) {
    return new DataContract(new Metadata(tags, properties, Set.of()), RuleSet.EMPTY);
  }

  /** A registry client whose only working method is {@code dekRegistry()}. */
  static SchemaRegistryClient client(DekRegistry deks) {
    return (SchemaRegistryClient) Proxy.newProxyInstance(Targets.class.getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("dekRegistry")) {
            return deks;
          }
          if (method.getName().equals("toString")) {
            return "test registry client";
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }
}
