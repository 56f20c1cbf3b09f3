package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Subject names as XML element names and file names, escaped as Confluent's plugin escapes them. */
class SubjectEscapesTest {
  @Test
  void decode_escapes_areReadAsUrlEncoding() {
    assertThat(SubjectEscapes.decode("orders-value")).isEqualTo("orders-value");
    assertThat(SubjectEscapes.decode("my_x2Fsubject")).isEqualTo("my/subject");
    assertThat(SubjectEscapes.decode("ns_x3Aorders")).isEqualTo("ns:orders");
  }

  @Test
  void decode_notUrlEncoding_readsOnlySlashes() {
    assertThat(SubjectEscapes.decode("a_x2Fb_xZZ")).isEqualTo("a/b_xZZ");
  }

  @Test
  void encode_isTheReverse() {
    assertThat(SubjectEscapes.encode("a/b:c")).isEqualTo("a_x2Fb_x3Ac");
    assertThat(SubjectEscapes.decode(SubjectEscapes.encode("a/b:c"))).isEqualTo("a/b:c");
  }

  @Test
  void decode_plus_staysAPlus_notASpace() {
    assertThat(SubjectEscapes.decode("my_x2Fa+b")).isEqualTo("my/a+b");
    assertThat(SubjectEscapes.decode("a_x20b")).isEqualTo("a b");
  }

  @Test
  void encode_plusAndSpace_readBackAsThemselves() {
    assertThat(SubjectEscapes.encode("a+b c")).isEqualTo("a_x2Bb_x20c");
    assertThat(SubjectEscapes.decode(SubjectEscapes.encode("a+b c"))).isEqualTo("a+b c");
  }

  @Test
  void decode_multiByteEscapes_areOneCharacter() {
    assertThat(SubjectEscapes.decode("caf_xC3_xA9-value")).isEqualTo("caf\u00e9-value");
    assertThat(SubjectEscapes.decode("tax_xml-value")).as("no two hex digits: not an escape")
        .isEqualTo("tax_xml-value");
  }

  @Test
  void decode_escapeWhoseBytesAreNoUtf8_isRefusedNamingTheElement() {
    assertThatThrownBy(() -> SubjectEscapes.decode("acct_xfer-value")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("element <acct_xfer-value>: its escape _xfe (the bytes URL-encoded as %fe) is no "
            + "UTF-8 text");
    assertThatThrownBy(() -> SubjectEscapes.decode("a_xC3_x28")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("its escape _xC3_x28");
  }

  @Test
  void subject_asWritten_orDecoded_neverWithTheReplacementCharacter() {
    assertThat(SubjectEscapes.subject("acct_xfer-value", false)).isEqualTo("acct_xfer-value");
    assertThat(SubjectEscapes.subject("my_x2Fsubject", true)).isEqualTo("my/subject");
    assertThat(SubjectEscapes.subject("my_x2Fsubject", false)).isEqualTo("my_x2Fsubject");
    assertThatThrownBy(() -> SubjectEscapes.subject("a_xEF_xBF_xBD", true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holding U+FFFD");
  }
}
