package io.kavro.maven;

import io.kavro.registry.contract.DataContract;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * The data contracts {@code register} sends: each subject's {@code <metadata>} and {@code <ruleSet>}, built and
 * checked for every subject before the first is registered.
 */
final class Contracts {
  private Contracts() {}

  /**
   * The contract of each subject that has metadata or rules; the others have none.
   *
   * @param subjects the subjects of {@code <subjects>}
   * @param decode how a key of the maps (or a field path of tags) becomes what it names
   * @throws MojoExecutionException when a key names no subject of {@code <subjects>}, or an entry is wrong
   */
  static Map<String, DataContract> of(Map<String, Metadata> metadata, Map<String, RuleSet> ruleSet,
      Collection<String> subjects, UnaryOperator<String> decode) throws MojoExecutionException {
    Map<String, Metadata> metadataBySubject = bySubject("metadata", metadata, subjects, decode);
    Map<String, RuleSet> rulesBySubject = bySubject("ruleSet", ruleSet, subjects, decode);
    Map<String, DataContract> contracts = new LinkedHashMap<>();
    for (String subject : subjects) {
      Metadata m = metadataBySubject.get(subject);
      RuleSet r = rulesBySubject.get(subject);
      if (m != null || r != null) {
        try {
          contracts.put(subject, new DataContract(
              m == null ? io.kavro.registry.contract.Metadata.EMPTY : m.toContract(subject, decode),
              r == null ? io.kavro.registry.contract.RuleSet.EMPTY : r.toContract(subject)));
        } catch (IllegalArgumentException e) {
          throw new MojoExecutionException(e.getMessage() + "; nothing was registered", e);
        }
      }
    }
    return contracts;
  }

  private static <T> Map<String, T> bySubject(String parameter, Map<String, T> map, Collection<String> subjects,
      UnaryOperator<String> decode) throws MojoExecutionException {
    Map<String, T> bySubject = new LinkedHashMap<>();
    if (map != null) {
      for (Map.Entry<String, T> entry : map.entrySet()) {
        String subject;
        try {
          subject = decode.apply(entry.getKey());
        } catch (IllegalArgumentException e) {
          throw new MojoExecutionException("<" + parameter + ">: " + e.getMessage() + "; nothing was registered", e);
        }
        if (!subjects.contains(subject)) {
          throw new MojoExecutionException("<" + parameter + "> names subject '" + subject + "', which is not in "
              + "<subjects> " + subjects + "; nothing was registered");
        }
        if (entry.getValue() != null) {
          bySubject.put(subject, entry.getValue());
        }
      }
    }
    return bySubject;
  }

  /** "metadata (properties [owner], tags [**.ssn], sensitive []) and rules [checkOwner]", names only. */
  static String describe(DataContract contract) {
    List<String> parts = new ArrayList<>();
    io.kavro.registry.contract.Metadata metadata = contract.metadata();
    if (!metadata.isEmpty()) {
      parts.add("metadata (properties " + metadata.properties().keySet() + ", tags " + metadata.tags().keySet()
          + ", sensitive " + metadata.sensitive() + ")");
    }
    if (!contract.ruleSet().isEmpty()) {
      parts.add("rules " + rules(contract.ruleSet()).map(io.kavro.registry.contract.Rule::name).toList());
    }
    return String.join(" and ", parts);
  }

  private static Stream<io.kavro.registry.contract.Rule> rules(io.kavro.registry.contract.RuleSet rules) {
    return Stream.of(rules.migrationRules(), rules.domainRules(), rules.encodingRules()).flatMap(List::stream);
  }
}
