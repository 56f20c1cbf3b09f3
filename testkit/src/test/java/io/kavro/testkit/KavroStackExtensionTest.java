package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, item 13: the stack's holder in JUnit's store is an {@code AutoCloseable} as JUnit 5.13 wants it
 * (every run printed "Type implements CloseableResource but not AutoCloseable").
 */
class KavroStackExtensionTest {
  @Test
  void theStacksHolder_isAutoCloseable() {
    Class<?> holder = Arrays.stream(KavroStackExtension.class.getDeclaredClasses())
        .filter(type -> type.getSimpleName().equals("Holder")).findFirst().orElseThrow();

    assertThat(AutoCloseable.class.isAssignableFrom(holder)).isTrue();
  }
}
