package io.kavro.rules.field;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class FieldTypeTest {
  private static FieldType of(String json) {
    return FieldType.of(new Schema.Parser().parse(json));
  }

  @Test
  void of_unionOfNullAndOne_isNullable() {
    assertThat(of("[\"null\",\"string\"]")).isEqualTo(FieldType.NULLABLE);
    assertThat(of("[\"long\",\"null\"]")).isEqualTo(FieldType.NULLABLE);
  }

  @Test
  void of_otherUnions_areCombined() {
    assertThat(of("[\"null\",\"string\",\"int\"]")).isEqualTo(FieldType.COMBINED);
    assertThat(of("[\"string\",\"int\"]")).isEqualTo(FieldType.COMBINED);
  }

  @Test
  void isPrimitive_notForEnumAndFixed() {
    assertThat(of("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}").isPrimitive()).isFalse();
    assertThat(of("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}").isPrimitive()).isFalse();
    assertThat(of("\"string\"").isPrimitive()).isTrue();
  }
}
