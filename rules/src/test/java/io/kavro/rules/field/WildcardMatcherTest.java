package io.kavro.rules.field;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WildcardMatcherTest {
  @Test
  void matches_doubleStarCrossesDots() {
    WildcardMatcher ssn = WildcardMatcher.of("**.ssn");
    assertThat(ssn.matches("acme.User.ssn")).isTrue();
    assertThat(ssn.matches("a.b.c.ssn")).isTrue();
    assertThat(ssn.matches("acme.User.ssnx")).isFalse();
    assertThat(ssn.matches("ssn")).isFalse();
  }

  @Test
  void matches_singleStarStopsAtDots() {
    WildcardMatcher user = WildcardMatcher.of("User.*");
    assertThat(user.matches("User.ssn")).isTrue();
    assertThat(user.matches("User.address.street")).isFalse();
    assertThat(user.matches("acme.User.ssn")).isFalse();
  }

  @Test
  void matches_questionMarkIsOneCharacterButADot() {
    WildcardMatcher q = WildcardMatcher.of("a?c");
    assertThat(q.matches("abc")).isTrue();
    assertThat(q.matches("a.c")).isFalse();
    assertThat(q.matches("abbc")).isFalse();
  }

  @Test
  void matches_doubleStarDotStarIsDoubleStar() {
    assertThat(WildcardMatcher.of("acme.**.*").matches("acme.User")).isTrue();
    assertThat(WildcardMatcher.of("acme.**.*").matches("acme.User.a.b")).isTrue();
  }

  @Test
  void matches_regexCharactersAreLiteral() {
    assertThat(WildcardMatcher.of("a+b.(c)").matches("a+b.(c)")).isTrue();
    assertThat(WildcardMatcher.of("a+b.(c)").matches("aab.(c)")).isFalse();
    assertThat(WildcardMatcher.of("a.b").matches("axb")).isFalse();
  }

  @Test
  void toRegex_asConfluentWritesIt() {
    assertThat(WildcardMatcher.toRegex("**.ssn")).isEqualTo(".*\\.ssn");
    assertThat(WildcardMatcher.toRegex("User.*")).isEqualTo("User\\.[^.]*");
    assertThat(WildcardMatcher.toRegex("a?")).isEqualTo("a[^.]");
  }
}
