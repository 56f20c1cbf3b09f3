package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The previous files of {@code test-local-compatibility} are taken oldest first with numbers compared as numbers:
 * {@code v10.avsc} is the newest of ten, not the second.
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
  void compare_namesEqualAsNumbers_stillHaveAnOrder() {
    Path a = Path.of("v1.avsc");
    Path b = Path.of("v01.avsc");
    assertThat(NaturalOrder.OF_FILE_NAMES.compare(a, b)).isNotZero();
    assertThat(Integer.signum(NaturalOrder.OF_FILE_NAMES.compare(a, b)))
        .isEqualTo(-Integer.signum(NaturalOrder.OF_FILE_NAMES.compare(b, a)));
  }
}
