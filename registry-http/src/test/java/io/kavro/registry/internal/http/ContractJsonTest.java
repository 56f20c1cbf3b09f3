package io.kavro.registry.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import org.junit.jupiter.api.Test;

/** Issue 49, item 12: a rule's {@code "disabled": true} is read from a registry's answer and sent back as it was. */
class ContractJsonTest {
  @Test
  void disabled_isReadAndWritten() throws Exception {
    DataContract read = ContractJson.read(JsonBodies.MAPPER.readTree("{\"ruleSet\":{\"domainRules\":["
        + "{\"name\":\"off\",\"type\":\"CEL\",\"expr\":\"false\",\"disabled\":true},"
        + "{\"name\":\"on\",\"type\":\"CEL\",\"expr\":\"false\"}],"
        + "\"encodingRules\":[{\"name\":\"offToo\",\"type\":\"ENCRYPT_PAYLOAD\",\"disabled\":\"true\"}]}}"), "s");

    assertThat(read.ruleSet().domainRules()).extracting(Rule::name, Rule::disabled)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("off", true), org.assertj.core.groups.Tuple.tuple("on",
            false));
    assertThat(read.ruleSet().encodingRules().get(0).disabled()).isTrue();

    ObjectNode body = JsonBodies.object();
    ContractJson.write(body, read);
    assertThat(body.path("ruleSet").path("domainRules").get(0).path("disabled").asBoolean()).isTrue();
    assertThat(ContractJson.read(body, "s")).isEqualTo(read);
  }
}
