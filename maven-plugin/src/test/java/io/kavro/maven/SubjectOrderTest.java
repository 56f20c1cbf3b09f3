package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The subjects of {@code <subjects>} in the order the goals handle them: a subject after those its references name,
 * as Confluent's plugin registers them; decoded names; a cycle and a non-Avro type refused with their names.
 */
class SubjectOrderTest {
  private static RegisterMojo mojo(Map<String, File> subjects, Map<String, List<Reference>> references) {
    RegisterMojo mojo = new RegisterMojo();
    mojo.basedir = new File("/project");
    mojo.subjects = subjects;
    if (references != null) {
      mojo.references = new LinkedHashMap<>();
      references.forEach((subject, list) -> {
        References entry = new References();
        list.forEach(entry::addReference);
        mojo.references.put(subject, entry);
      });
    }
    mojo.decodeSubject = true;
    return mojo;
  }

  @Test
  void subjectFiles_referencedSubjectsComeFirst_andPathsStartAtTheProject() throws Exception {
    Map<String, File> subjects = new LinkedHashMap<>();
    subjects.put("audit-value", new File("src/audit.avsc"));
    subjects.put("orders_x2Fvalue", new File("/abs/order.avsc"));
    RegisterMojo mojo = mojo(subjects, Map.of("audit-value",
        List.of(new Reference("com.acme.Order", "orders/value", null))));

    List<SubjectFile> files = mojo.subjectFiles();

    assertThat(files).extracting(SubjectFile::subject).containsExactly("orders/value", "audit-value");
    assertThat(files.get(1).file()).isEqualTo(new File("/project/src/audit.avsc").toPath());
    assertThat(files.get(1).references()).singleElement().satisfies(wanted -> {
      assertThat(wanted.subject()).isEqualTo("orders/value");
      assertThat(wanted.version()).as("latest").isZero();
    });
  }

  @Test
  void subjectFiles_referencesInACycle_failNamingThem() {
    RegisterMojo mojo = mojo(Map.of("a", new File("a.avsc"), "b", new File("b.avsc")), Map.of(
        "a", List.of(new Reference("B", "b", 1)), "b", List.of(new Reference("A", "a", 1))));

    assertThatThrownBy(mojo::subjectFiles).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("cycle").hasMessageContaining("a -> b");
  }

  @Test
  void subjectFiles_anotherSchemaType_isRefusedByName() {
    RegisterMojo mojo = mojo(Map.of("a", new File("a.avsc")), null);
    mojo.schemaTypes = Map.of("a", "PROTOBUF");

    assertThatThrownBy(mojo::subjectFiles).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("<schemaTypes> gives <a> the type PROTOBUF");
  }

  @Test
  void reference_withoutASubject_isRefusedNamingTheReferrer() {
    assertThatThrownBy(() -> new Reference("com.acme.Order", null, null).wanted("audit-value"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subject 'audit-value'");
  }
}
