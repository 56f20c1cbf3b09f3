package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@code register} says when a registry drops the contract it was sent, as Apicurio does. */
class ContractsTest {
  private static final Metadata OWNER = new Metadata(Map.of(), Map.of("owner", "payments"), Set.of());
  private static final RuleSet RULES = new RuleSet(List.of(), List.of(new Rule("checkId", null, Rule.Kind.CONDITION,
      Rule.Mode.WRITE, "CEL", null, null, "true", null, null, false)), List.of(), null);

  @Test
  void lost_registryKeptNothing_warnsNamingTheSubjectAndBothParts() {
    assertThat(Contracts.lost("team@corp-value", new DataContract(OWNER, RULES), DataContract.NONE)).hasValue(
        "the registry kept no metadata and no rules for subject 'team@corp-value' (does it support data "
            + "contracts?): the version is registered without metadata and rules");
  }

  @Test
  void lost_onlyMetadataSent_andDropped_namesMetadataOnly() {
    assertThat(Contracts.lost("x", new DataContract(OWNER, RuleSet.EMPTY), DataContract.NONE)).hasValueSatisfying(
        warning -> assertThat(warning).startsWith("the registry kept no metadata for subject 'x'"));
  }

  @Test
  void lost_registryKeptWhatWasSent_orMore_saysNothing() {
    DataContract sent = new DataContract(OWNER, RULES);
    Metadata more = new Metadata(Map.of(), Map.of("owner", "payments", "confluent:version", "2"), Set.of());

    DataContract metadataOnly = new DataContract(OWNER, RuleSet.EMPTY);

    assertThat(Contracts.lost("x", sent, sent)).isEmpty();
    assertThat(Contracts.lost("x", metadataOnly, metadataOnly)).isEmpty();
    assertThat(Contracts.lost("x", sent, new DataContract(more, RULES))).isEmpty();
    assertThat(Contracts.lost("x", DataContract.NONE, DataContract.NONE)).isEmpty();
  }
}
