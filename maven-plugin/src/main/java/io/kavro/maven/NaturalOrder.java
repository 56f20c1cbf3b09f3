package io.kavro.maven;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * The order of file names as people number them: runs of digits compare as numbers, so {@code v2.avsc} comes
 * before {@code v10.avsc}; other characters compare as they are. Names equal that way (such as {@code v1} and
 * {@code v01}) fall back to plain name order, so the order is total.
 */
final class NaturalOrder implements Comparator<Path> {
  /** The one instance: it holds no state. */
  static final NaturalOrder OF_FILE_NAMES = new NaturalOrder();

  private NaturalOrder() {}

  @Override
  public int compare(Path a, Path b) {
    String x = a.getFileName().toString();
    String y = b.getFileName().toString();
    int natural = compareNames(x, y);
    return natural != 0 ? natural : a.compareTo(b);
  }

  /** Compares two names, runs of digits as numbers. */
  static int compareNames(String x, String y) {
    int i = 0;
    int j = 0;
    while (i < x.length() && j < y.length()) {
      if (Character.isDigit(x.charAt(i)) && Character.isDigit(y.charAt(j))) {
        int endX = digitsEnd(x, i);
        int endY = digitsEnd(y, j);
        int byNumber = new BigInteger(x.substring(i, endX)).compareTo(new BigInteger(y.substring(j, endY)));
        if (byNumber != 0) {
          return byNumber;
        }
        i = endX;
        j = endY;
      } else {
        int byChar = Character.compare(x.charAt(i), y.charAt(j));
        if (byChar != 0) {
          return byChar;
        }
        i++;
        j++;
      }
    }
    return Integer.compare(x.length() - i, y.length() - j);
  }

  private static int digitsEnd(String s, int from) {
    int end = from;
    while (end < s.length() && Character.isDigit(s.charAt(end))) {
      end++;
    }
    return end;
  }
}
