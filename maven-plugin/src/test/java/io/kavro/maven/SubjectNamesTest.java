package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Subject names as XML element names and file names, escaped as Confluent's plugin escapes them. */
class SubjectNamesTest {
  @Test
  void decode_escapes_areReadAsUrlEncoding() {
    assertThat(SubjectNames.decode("orders-value")).isEqualTo("orders-value");
    assertThat(SubjectNames.decode("my_x2Fsubject")).isEqualTo("my/subject");
    assertThat(SubjectNames.decode("ns_x3Aorders")).isEqualTo("ns:orders");
  }

  @Test
  void decode_notUrlEncoding_readsOnlySlashes() {
    assertThat(SubjectNames.decode("a_x2Fb_xZZ")).isEqualTo("a/b_xZZ");
  }

  @Test
  void encode_isTheReverse() {
    assertThat(SubjectNames.encode("a/b:c")).isEqualTo("a_x2Fb_x3Ac");
    assertThat(SubjectNames.decode(SubjectNames.encode("a/b:c"))).isEqualTo("a/b:c");
  }

  @Test
  void decode_plus_staysAPlus_notASpace() {
    assertThat(SubjectNames.decode("my_x2Fa+b")).isEqualTo("my/a+b");
    assertThat(SubjectNames.decode("a_x20b")).isEqualTo("a b");
  }

  @Test
  void encode_plusAndSpace_readBackAsThemselves() {
    assertThat(SubjectNames.encode("a+b c")).isEqualTo("a_x2Bb_x20c");
    assertThat(SubjectNames.decode(SubjectNames.encode("a+b c"))).isEqualTo("a+b c");
  }
}
