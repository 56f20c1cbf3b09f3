package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code InlineValidation.close()} throws nothing checked: the validator's own close throws nothing either. */
class InlineValidationCloseTest {
  @Test
  void close_declaresNoCheckedException() throws NoSuchMethodException {
    assertThat(InlineValidation.class.getMethod("close").getExceptionTypes()).isEmpty();
  }
}
