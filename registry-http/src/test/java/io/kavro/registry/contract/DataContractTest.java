package io.kavro.registry.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a registration's tools say when a registry drops the contract it was sent, as Apicurio does. */
class DataContractTest {
  private static final Metadata OWNER = new Metadata(Map.of(), Map.of("owner", "payments"), Set.of());
  private static final RuleSet RULES = new RuleSet(List.of(), List.of(new Rule("checkId", null, Rule.Kind.CONDITION,
      Rule.Mode.WRITE, "CEL", null, null, "true", null, null, false)), List.of(), null);

  @Test
  void droppedBy_aRegistryThatKeptNothing_namesTheSubjectTheIdAndBothParts() {
    assertThat(new DataContract(OWNER, RULES).droppedBy(DataContract.NONE, "team@corp-value", 7)).hasValueSatisfying(
        error -> assertThat(error).startsWith("the registry dropped the rules and metadata of subject "
            + "'team@corp-value': read back, schema id 7 has no rules and no metadata, so the schema is registered "
            + "without them and they would never run"));
  }

  @Test
  void droppedBy_onlyMetadataSent_andDropped_namesMetadataOnly() {
    assertThat(new DataContract(OWNER, RuleSet.EMPTY).droppedBy(DataContract.NONE, "x", 1)).hasValueSatisfying(
        error -> assertThat(error).startsWith("the registry dropped the metadata of subject 'x': read back, "
            + "schema id 1 has no metadata,"));
  }

  @Test
  void droppedBy_aRegistryThatKeptWhatWasSent_orMore_isNothing() {
    DataContract sent = new DataContract(OWNER, RULES);
    Metadata more = new Metadata(Map.of(), Map.of("owner", "payments", "confluent:version", "2"), Set.of());
    DataContract metadataOnly = new DataContract(OWNER, RuleSet.EMPTY);

    assertThat(sent.droppedBy(sent, "x", 1)).isEmpty();
    assertThat(metadataOnly.droppedBy(metadataOnly, "x", 1)).isEmpty();
    assertThat(sent.droppedBy(new DataContract(more, RULES), "x", 1)).isEmpty();
    assertThat(DataContract.NONE.droppedBy(DataContract.NONE, "x", 1)).isEmpty();
  }
}
