package io.kavro.serde;

/**
 * A text whose class fails to link when read, as a value of a library missing at run time would: every method
 * throws {@code NoClassDefFoundError}. For tests of how the serde meets a deployment fault while writing.
 */
final class UnlinkableText implements CharSequence {
  @Override
  public int length() {
    throw missing();
  }

  @Override
  public char charAt(int index) {
    throw missing();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    throw missing();
  }

  @Override
  public String toString() {
    throw missing();
  }

  private static NoClassDefFoundError missing() {
    return new NoClassDefFoundError("com/acme/Text");
  }
}
