package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * The schema-repo stack: a broker that answers, and registry settings under which Kavro's client reaches the real
 * schema-repo server, whose subjects it creates with the full-compatibility validator.
 */
class SchemaRepoStackTest {
  @Test
  void aBrokerAndTheRepository_theConfigsReachIt_withTheFullCheck() throws Exception {
    Schema v1 = SchemaBuilder.record("Row").fields().requiredLong("id").endRecord();
    Schema v2 = SchemaBuilder.record("Row").fields().requiredLong("id").requiredString("added").endRecord();
    try (SchemaRepoStack stack = SchemaRepoStack.start();
        Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()));
        SchemaRegistryClient client = SchemaRegistryClients.create(stack.registryConfigs())) {
      assertThat(admin.describeCluster().nodes().get()).hasSize(1);
      assertThat(stack.registryConfigs()).containsEntry("schema.registry.api", "schema-repo")
          .containsEntry("schema.registry.url", stack.registryUrl());

      assertThat(client.register("rows-value", v1)).isZero();
      // A new field without a default: the new schema cannot read version 1's records; the full check refuses.
      assertThatThrownBy(() -> client.register("rows-value", v2)).isInstanceOf(IncompatibleSchemaException.class)
          .hasMessageContaining("added");
      assertThat(client.forSubject("rows-value").schemaById(0)).isEqualTo(v1);
    }
  }
}
