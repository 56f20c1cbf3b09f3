package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The previous files of {@code test-local-compatibility} are taken oldest first with numbers compared as numbers:
 * {@code v10.avsc} is the newest of ten, not the second; the legend of a failure gives the version each file
 * became.
 */
class NaturalOrderTest {
  @Test
  void compareNames_digitRunsCompareAsNumbers() {
    assertThat(NaturalOrder.compareNames("v2.avsc", "v10.avsc")).isNegative();
    assertThat(NaturalOrder.compareNames("v10.avsc", "v9.avsc")).isPositive();
    assertThat(NaturalOrder.compareNames("a.avsc", "b.avsc")).isNegative();
    assertThat(NaturalOrder.compareNames("v1.avsc", "v1.avsc")).isZero();
    assertThat(NaturalOrder.compareNames("v1", "v1a")).isNegative();
  }

  @Test
  void previous_aDirectoryOfTenFiles_isInNumberOrder(@TempDir Path dir) throws Exception {
    for (String name : List.of("v1", "v2", "v9", "v10", "v11")) {
      Files.writeString(dir.resolve(name + ".avsc"), "\"string\"");
    }
    Files.writeString(dir.resolve("notes.txt"), "not a schema");
    TestLocalCompatibilityMojo mojo = new TestLocalCompatibilityMojo();
    mojo.basedir = dir.toFile();
    mojo.previousSchemaPaths = Map.of("order", new File("."));

    List<String> names = mojo.previous("order").stream().map(p -> p.getFileName().toString()).toList();

    assertThat(names).containsExactly("v1.avsc", "v2.avsc", "v9.avsc", "v10.avsc", "v11.avsc");
  }

  @Test
  void run_identicalPreviousFiles_shareAVersionInTheLegend(@TempDir Path dir) throws Exception {
    String v1 = """
        {"type": "record", "name": "Order", "fields": [{"name": "a", "type": "int"}]}""";
    Files.createDirectory(dir.resolve("old"));
    Files.writeString(dir.resolve("old/v1.avsc"), v1);
    Files.writeString(dir.resolve("old/v2.avsc"), v1);
    Files.writeString(dir.resolve("old/v10.avsc"), """
        {"type": "record", "name": "Order", "fields": [{"name": "a", "type": "int"},
          {"name": "b", "type": "int", "default": 0}]}""");
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "fields": [{"name": "a", "type": "string"}]}""");
    TestLocalCompatibilityMojo mojo = new TestLocalCompatibilityMojo();
    mojo.basedir = dir.toFile();
    mojo.schemas = Map.of("order", new File("order.avsc"));
    mojo.previousSchemaPaths = Map.of("order", new File("old"));
    mojo.compatibilityLevels = Map.of("order", "BACKWARD_TRANSITIVE");

    assertThatThrownBy(mojo::run).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("(version 1 is old/v1.avsc and old/v2.avsc, version 2 is old/v10.avsc)");
  }

  @Test
  void compare_namesEqualAsNumbers_stillHaveAnOrder() {
    Path a = Path.of("v1.avsc");
    Path b = Path.of("v01.avsc");
    assertThat(NaturalOrder.OF_FILE_NAMES.compare(a, b)).isNotZero();
    assertThat(Integer.signum(NaturalOrder.OF_FILE_NAMES.compare(a, b)))
        .isEqualTo(-Integer.signum(NaturalOrder.OF_FILE_NAMES.compare(b, a)));
  }
}
