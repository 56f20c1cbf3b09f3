package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  @Test
  void decode_multiByteEscapes_areOneCharacter() {
    assertThat(SubjectNames.decode("caf_xC3_xA9-value")).isEqualTo("caf\u00e9-value");
    assertThat(SubjectNames.decode("tax_xml-value")).as("no two hex digits: not an escape").isEqualTo("tax_xml-value");
  }

  @Test
  void decode_escapeWhoseBytesAreNoUtf8_isRefusedNamingTheElement() {
    assertThatThrownBy(() -> SubjectNames.decode("acct_xfer-value")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("element <acct_xfer-value>: its escape _xfe (the bytes URL-encoded as %fe) is no "
            + "UTF-8 text");
    assertThatThrownBy(() -> SubjectNames.decode("a_xC3_x28")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("its escape _xC3_x28");
  }

  @Test
  void subject_asWritten_orDecoded_neverWithTheReplacementCharacter() {
    assertThat(SubjectNames.subject("acct_xfer-value", false)).isEqualTo("acct_xfer-value");
    assertThat(SubjectNames.subject("my_x2Fsubject", true)).isEqualTo("my/subject");
    assertThat(SubjectNames.subject("my_x2Fsubject", false)).isEqualTo("my_x2Fsubject");
    assertThatThrownBy(() -> SubjectNames.subject("a_xEF_xBF_xBD", true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holding U+FFFD");
  }
}
